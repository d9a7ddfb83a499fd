CREATE TYPE "public"."run_task_state" AS ENUM('pending', 'assigned', 'running', 'done', 'error');--> statement-breakpoint
CREATE TYPE "public"."run_task_target" AS ENUM('scheduler', 'worker', 'any');--> statement-breakpoint
CREATE TABLE "cluster_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"key" varchar(200) NOT NULL,
	"path" varchar(500) NOT NULL,
	"content" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "https_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"subdomain" varchar(63) NOT NULL,
	"requested_by_id" integer,
	"status" varchar(16) NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_specs" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"role" "process_role" NOT NULL,
	"backend_type" varchar(32) NOT NULL,
	"instance_type" varchar(64) NOT NULL,
	"requested_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cores" integer NOT NULL,
	"memory_mib" integer NOT NULL,
	"gpus" integer DEFAULT 0 NOT NULL,
	"arch" varchar(16) NOT NULL,
	"disk_size_gib" integer,
	"dask_threads" integer,
	"dask_memory_limit" varchar(64),
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"batch_job_id" integer,
	"array_task_id" integer DEFAULT 0 NOT NULL,
	"run_on" "run_task_target" DEFAULT 'worker' NOT NULL,
	"command" text NOT NULL,
	"env" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" "run_task_state" DEFAULT 'pending' NOT NULL,
	"instance_id" integer,
	"exit_code" integer,
	"reason" text DEFAULT '' NOT NULL,
	"start" timestamp with time zone,
	"stop" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "ssh_key_box" text;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "ssh_public_key" text;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "staff_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "staff_seen_by_id" integer;--> statement-breakpoint
ALTER TABLE "cluster_files" ADD CONSTRAINT "cluster_files_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "https_certificates" ADD CONSTRAINT "https_certificates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "https_certificates" ADD CONSTRAINT "https_certificates_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_specs" ADD CONSTRAINT "instance_specs_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_tasks" ADD CONSTRAINT "run_tasks_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_tasks" ADD CONSTRAINT "run_tasks_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cluster_files_cluster_key_key" ON "cluster_files" USING btree ("cluster_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "https_certificates_subdomain_key" ON "https_certificates" USING btree ("subdomain");--> statement-breakpoint
CREATE UNIQUE INDEX "instance_specs_cluster_role_key" ON "instance_specs" USING btree ("cluster_id","role");--> statement-breakpoint
CREATE INDEX "run_tasks_cluster_state_idx" ON "run_tasks" USING btree ("cluster_id","state","id");--> statement-breakpoint
CREATE INDEX "run_tasks_instance_idx" ON "run_tasks" USING btree ("instance_id");--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_staff_seen_by_id_users_id_fk" FOREIGN KEY ("staff_seen_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;