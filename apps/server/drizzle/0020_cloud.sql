CREATE TYPE "public"."cloud_provider" AS ENUM('aws', 'gcp', 'azure');--> statement-breakpoint
CREATE TABLE "cloud_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"provider" "cloud_provider" NOT NULL,
	"kind" varchar(32) NOT NULL,
	"secret_box" text NOT NULL,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"default_region" varchar(64),
	"verified_at" timestamp with time zone,
	"creator_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cloud_setup_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" varchar(32) NOT NULL,
	"external_id" varchar(64) NOT NULL,
	"state" varchar(16) DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"role_arn" varchar(2048),
	"creator_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cloud_setup_regions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"provider" varchar(16) NOT NULL,
	"region" varchar(64) NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"network" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cloud_setups" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"provider" varchar(16) NOT NULL,
	"global" jsonb,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret_box" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "active_backend" varchar(32) DEFAULT 'in_process' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "setup_complete" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "configured_customer_hosted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_credentials" ADD CONSTRAINT "cloud_credentials_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_credentials" ADD CONSTRAINT "cloud_credentials_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_setup_attempts" ADD CONSTRAINT "cloud_setup_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_setup_attempts" ADD CONSTRAINT "cloud_setup_attempts_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_setup_regions" ADD CONSTRAINT "cloud_setup_regions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_setups" ADD CONSTRAINT "cloud_setups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cloud_credentials_account_provider_key" ON "cloud_credentials" USING btree ("account_id","provider");--> statement-breakpoint
CREATE INDEX "cloud_setup_attempts_account_idx" ON "cloud_setup_attempts" USING btree ("account_id","created");--> statement-breakpoint
CREATE UNIQUE INDEX "cloud_setup_regions_key" ON "cloud_setup_regions" USING btree ("account_id","provider","region");--> statement-breakpoint
CREATE UNIQUE INDEX "cloud_setups_account_provider_key" ON "cloud_setups" USING btree ("account_id","provider");