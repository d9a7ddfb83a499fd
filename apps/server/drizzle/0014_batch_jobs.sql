CREATE TYPE "public"."batch_job_state" AS ENUM('pending', 'running', 'done', 'failed', 'cancelled');--> statement-breakpoint
CREATE TABLE "batch_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"creator_id" integer,
	"cluster_id" integer,
	"state" "batch_job_state" DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"user_command" text NOT NULL,
	"user_files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"env_vars" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret_env_box" text,
	"secret_env_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"workdir" text,
	"pipe_to_files" boolean DEFAULT false NOT NULL,
	"host_setup" text,
	"run_in_container" boolean DEFAULT false NOT NULL,
	"timeout_seconds" integer,
	"max_retries" integer DEFAULT 1 NOT NULL,
	"max_concurrent" integer,
	"n_tasks" integer NOT NULL,
	"n_succeeded" integer DEFAULT 0 NOT NULL,
	"n_failed" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"started" timestamp with time zone,
	"completed" timestamp with time zone,
	"reconcile_at" timestamp with time zone DEFAULT now(),
	"lease_owner" varchar(64),
	"lease_until" timestamp with time zone,
	"reconcile_attempts" integer DEFAULT 0 NOT NULL,
	"reconcile_error" text,
	"reconcile_failing_since" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "run_tasks" ALTER COLUMN "cluster_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "run_tasks" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_tasks" ADD COLUMN "output_bytes" integer;--> statement-breakpoint
ALTER TABLE "instance_logs" ADD COLUMN "task_id" bigint;--> statement-breakpoint
ALTER TABLE "batch_jobs" ADD CONSTRAINT "batch_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_jobs" ADD CONSTRAINT "batch_jobs_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_jobs" ADD CONSTRAINT "batch_jobs_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_jobs_account_created_idx" ON "batch_jobs" USING btree ("account_id","created" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "batch_jobs_cluster_idx" ON "batch_jobs" USING btree ("cluster_id");--> statement-breakpoint
CREATE INDEX "batch_jobs_reconcile_idx" ON "batch_jobs" USING btree ("reconcile_at") WHERE "batch_jobs"."reconcile_at" is not null;--> statement-breakpoint
UPDATE "run_tasks" SET "batch_job_id" = NULL;--> statement-breakpoint
ALTER TABLE "run_tasks" ADD CONSTRAINT "run_tasks_batch_job_id_batch_jobs_id_fk" FOREIGN KEY ("batch_job_id") REFERENCES "public"."batch_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_tasks_job_idx" ON "run_tasks" USING btree ("batch_job_id","array_task_id");--> statement-breakpoint
CREATE INDEX "instance_logs_task_idx" ON "instance_logs" USING btree ("task_id","timestamp_ms","id") WHERE "instance_logs"."task_id" is not null;