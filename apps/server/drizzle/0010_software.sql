CREATE TYPE "public"."software_build_state" AS ENUM('queued', 'building', 'built', 'error');--> statement-breakpoint
CREATE TABLE "package_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"file_name" varchar(300) NOT NULL,
	"project" varchar(200) NOT NULL,
	"client_md5" varchar(64) NOT NULL,
	"md5" varchar(32) NOT NULL,
	"sha256" varchar(64),
	"size_bytes" bigint,
	"uploaded" boolean DEFAULT false NOT NULL,
	"creator_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_aliases" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" varchar(200) NOT NULL,
	"creator_id" integer,
	"package_sync" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_build_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"build_id" integer NOT NULL,
	"timestamp_ms" bigint NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_builds" (
	"id" serial PRIMARY KEY NOT NULL,
	"spec_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"state" "software_build_state" DEFAULT 'queued' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"backend_type" varchar(32) NOT NULL,
	"region_name" varchar(64),
	"from_lockfile" text,
	"lockfile" text,
	"locked_packages" jsonb,
	"lockfile_hash" varchar(64),
	"location" text,
	"size_bytes" bigint,
	"archived_at" timestamp with time zone,
	"started" timestamp with time zone,
	"ended" timestamp with time zone,
	"reconcile_at" timestamp with time zone DEFAULT now(),
	"lease_owner" varchar(64),
	"lease_until" timestamp with time zone,
	"reconcile_attempts" integer DEFAULT 0 NOT NULL,
	"reconcile_error" text,
	"reconcile_failing_since" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software_specs" (
	"id" serial PRIMARY KEY NOT NULL,
	"alias_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"creator_id" integer,
	"md5" varchar(32) NOT NULL,
	"packages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"raw_pip" jsonb,
	"raw_conda" jsonb,
	"container_uri" text,
	"use_entrypoint" boolean DEFAULT true NOT NULL,
	"gpu_enabled" boolean DEFAULT false NOT NULL,
	"architecture" varchar(16) DEFAULT 'x86_64' NOT NULL,
	"python_specifier" varchar(64),
	"lockfile_name" varchar(200),
	"lockfile_content" text,
	"scan" jsonb,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "package_files" ADD CONSTRAINT "package_files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_files" ADD CONSTRAINT "package_files_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_aliases" ADD CONSTRAINT "software_aliases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_aliases" ADD CONSTRAINT "software_aliases_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_build_logs" ADD CONSTRAINT "software_build_logs_build_id_software_builds_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."software_builds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_builds" ADD CONSTRAINT "software_builds_spec_id_software_specs_id_fk" FOREIGN KEY ("spec_id") REFERENCES "public"."software_specs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_builds" ADD CONSTRAINT "software_builds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_specs" ADD CONSTRAINT "software_specs_alias_id_software_aliases_id_fk" FOREIGN KEY ("alias_id") REFERENCES "public"."software_aliases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_specs" ADD CONSTRAINT "software_specs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software_specs" ADD CONSTRAINT "software_specs_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "package_files_account_name_md5_key" ON "package_files" USING btree ("account_id","file_name","md5");--> statement-breakpoint
CREATE INDEX "package_files_project_idx" ON "package_files" USING btree ("account_id","project");--> statement-breakpoint
CREATE UNIQUE INDEX "software_aliases_account_name_key" ON "software_aliases" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "software_build_logs_build_idx" ON "software_build_logs" USING btree ("build_id","id");--> statement-breakpoint
CREATE INDEX "software_builds_spec_idx" ON "software_builds" USING btree ("spec_id","id");--> statement-breakpoint
CREATE INDEX "software_builds_account_idx" ON "software_builds" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "software_builds_lockfile_idx" ON "software_builds" USING btree ("lockfile_hash");--> statement-breakpoint
CREATE INDEX "software_specs_alias_idx" ON "software_specs" USING btree ("alias_id","id");--> statement-breakpoint
CREATE INDEX "software_specs_md5_idx" ON "software_specs" USING btree ("alias_id","md5");