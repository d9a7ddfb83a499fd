CREATE TYPE "public"."cluster_state" AS ENUM('pending', 'starting', 'scaling', 'ready', 'pausing', 'paused', 'stopping', 'stopped', 'error');--> statement-breakpoint
CREATE TYPE "public"."cluster_infra_state" AS ENUM('queued', 'creating', 'error', 'created', 'destroying', 'destroyed');--> statement-breakpoint
CREATE TYPE "public"."instance_state" AS ENUM('queued', 'starting', 'started', 'ready', 'pausing', 'paused', 'stopping', 'stopped', 'error');--> statement-breakpoint
CREATE TYPE "public"."log_source" AS ENUM('dask', 'system');--> statement-breakpoint
CREATE TYPE "public"."process_role" AS ENUM('scheduler', 'worker');--> statement-breakpoint
CREATE TYPE "public"."process_state" AS ENUM('pending', 'starting', 'started', 'pausing', 'paused', 'stopping', 'stopped', 'error');--> statement-breakpoint
CREATE TYPE "public"."stateful_object_type" AS ENUM('cluster', 'scheduler', 'scheduler_instance', 'cluster_infra', 'worker', 'worker_instance');--> statement-breakpoint
CREATE TABLE "cluster_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"kind" varchar(32) NOT NULL,
	"topic" varchar(200) DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"level" integer DEFAULT 20 NOT NULL,
	"data" jsonb,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cluster_processes" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"role" "process_role" NOT NULL,
	"name" varchar(200) NOT NULL,
	"desired_state" "process_state" DEFAULT 'started' NOT NULL,
	"state" "process_state" DEFAULT 'pending' NOT NULL,
	"state_reason" text DEFAULT '' NOT NULL,
	"state_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"address" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clusters" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"creator_id" integer,
	"name" varchar(128) NOT NULL,
	"backend_type" varchar(32) NOT NULL,
	"desired_state" "cluster_state" DEFAULT 'ready' NOT NULL,
	"state" "cluster_state" DEFAULT 'pending' NOT NULL,
	"state_reason" text DEFAULT '' NOT NULL,
	"state_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"infra_state" "cluster_infra_state" DEFAULT 'queued' NOT NULL,
	"desired_workers" integer NOT NULL,
	"worker_cores" integer DEFAULT 1 NOT NULL,
	"idle_timeout_seconds" integer NOT NULL,
	"pause_on_exit" boolean DEFAULT false NOT NULL,
	"worker_options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"scheduler_options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"environ" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dask_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"token_box" text NOT NULL,
	"tls_cert" text NOT NULL,
	"tls_key_box" text NOT NULL,
	"scheduler_address" text,
	"scheduler_port" integer,
	"dashboard_address" text,
	"lease_owner" varchar(64),
	"lease_until" timestamp with time zone,
	"reconcile_at" timestamp with time zone DEFAULT now(),
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"instance_id" integer NOT NULL,
	"timestamp_ms" bigint NOT NULL,
	"source" "log_source" NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instances" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"process_id" integer NOT NULL,
	"role" "process_role" NOT NULL,
	"name" varchar(200) NOT NULL,
	"backend_type" varchar(32) NOT NULL,
	"instance_type" varchar(64) DEFAULT 'local' NOT NULL,
	"backend_id" varchar(128) NOT NULL,
	"backend_data" jsonb,
	"desired_state" "instance_state" DEFAULT 'ready' NOT NULL,
	"state" "instance_state" DEFAULT 'queued' NOT NULL,
	"state_reason" text DEFAULT '' NOT NULL,
	"state_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"private_ip_address" varchar(64),
	"public_ip_address" varchar(64),
	"launched_at" timestamp with time zone,
	"last_heartbeat" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "state_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"object_type" "stateful_object_type" NOT NULL,
	"object_id" integer NOT NULL,
	"object_name" varchar(200),
	"state" varchar(32) NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cluster_events" ADD CONSTRAINT "cluster_events_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_processes" ADD CONSTRAINT "cluster_processes_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_logs" ADD CONSTRAINT "instance_logs_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_logs" ADD CONSTRAINT "instance_logs_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_process_id_cluster_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."cluster_processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "state_history" ADD CONSTRAINT "state_history_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cluster_events_cluster_idx" ON "cluster_events" USING btree ("cluster_id","created");--> statement-breakpoint
CREATE INDEX "cluster_processes_cluster_idx" ON "cluster_processes" USING btree ("cluster_id","role");--> statement-breakpoint
CREATE UNIQUE INDEX "cluster_processes_name_key" ON "cluster_processes" USING btree ("cluster_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_token_hash_key" ON "clusters" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "clusters_account_created_idx" ON "clusters" USING btree ("account_id","created" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clusters_account_name_idx" ON "clusters" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "clusters_creator_idx" ON "clusters" USING btree ("creator_id","account_id");--> statement-breakpoint
CREATE INDEX "clusters_reconcile_idx" ON "clusters" USING btree ("reconcile_at") WHERE "clusters"."reconcile_at" is not null;--> statement-breakpoint
CREATE INDEX "instance_logs_cluster_time_idx" ON "instance_logs" USING btree ("cluster_id","timestamp_ms","id");--> statement-breakpoint
CREATE INDEX "instance_logs_instance_time_idx" ON "instance_logs" USING btree ("instance_id","timestamp_ms","id");--> statement-breakpoint
CREATE UNIQUE INDEX "instances_backend_id_key" ON "instances" USING btree ("backend_type","backend_id");--> statement-breakpoint
CREATE INDEX "instances_cluster_idx" ON "instances" USING btree ("cluster_id");--> statement-breakpoint
CREATE INDEX "instances_process_idx" ON "instances" USING btree ("process_id");--> statement-breakpoint
CREATE INDEX "state_history_cluster_idx" ON "state_history" USING btree ("cluster_id","created","id");