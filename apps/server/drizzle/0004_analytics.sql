CREATE TABLE "analytics_durations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"scheduler_ref" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"prefix" varchar(200) NOT NULL,
	"action" varchar(32) NOT NULL,
	"seconds" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_exceptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"scheduler_ref" integer NOT NULL,
	"computation" varchar(64),
	"task_key" varchar(500) NOT NULL,
	"prefix" varchar(200) DEFAULT '' NOT NULL,
	"exception" text DEFAULT '' NOT NULL,
	"traceback" text DEFAULT '' NOT NULL,
	"worker" varchar(300),
	"time" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_profiles" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"scheduler_ref" integer NOT NULL,
	"n_workers" integer,
	"profile" jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_samples" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"scheduler_ref" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"n_workers" integer NOT NULL,
	"threads" integer NOT NULL,
	"memory" bigint NOT NULL,
	"n_tasks" integer NOT NULL,
	"processing" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_spans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"identifier" varchar(200) NOT NULL,
	"scheduler_id" varchar(200),
	"name" varchar(300),
	"start" timestamp with time zone,
	"stop" timestamp with time zone,
	"callstack" jsonb,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_computations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"scheduler_ref" integer NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"stop" timestamp with time zone,
	"n_tasks" integer DEFAULT 0 NOT NULL,
	"n_groups" integer DEFAULT 0 NOT NULL,
	"states" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dask_schedulers" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"scheduler_id" varchar(200) NOT NULL,
	"info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"closed" timestamp with time zone,
	"close_reason" text DEFAULT '' NOT NULL,
	"last_report" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_task_groups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"computation_id" bigint NOT NULL,
	"cluster_id" integer NOT NULL,
	"scheduler_ref" integer NOT NULL,
	"name" varchar(300) NOT NULL,
	"prefix" varchar(200) NOT NULL,
	"start" timestamp with time zone,
	"stop" timestamp with time zone,
	"compute_seconds" double precision DEFAULT 0 NOT NULL,
	"durations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"nbytes" bigint DEFAULT 0 NOT NULL,
	"n_tasks" integer DEFAULT 0 NOT NULL,
	"states" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"types" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_durations" ADD CONSTRAINT "analytics_durations_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_durations" ADD CONSTRAINT "analytics_durations_scheduler_ref_dask_schedulers_id_fk" FOREIGN KEY ("scheduler_ref") REFERENCES "public"."dask_schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_exceptions" ADD CONSTRAINT "analytics_exceptions_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_exceptions" ADD CONSTRAINT "analytics_exceptions_scheduler_ref_dask_schedulers_id_fk" FOREIGN KEY ("scheduler_ref") REFERENCES "public"."dask_schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_profiles" ADD CONSTRAINT "analytics_profiles_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_profiles" ADD CONSTRAINT "analytics_profiles_scheduler_ref_dask_schedulers_id_fk" FOREIGN KEY ("scheduler_ref") REFERENCES "public"."dask_schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_samples" ADD CONSTRAINT "analytics_samples_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_samples" ADD CONSTRAINT "analytics_samples_scheduler_ref_dask_schedulers_id_fk" FOREIGN KEY ("scheduler_ref") REFERENCES "public"."dask_schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_spans" ADD CONSTRAINT "analytics_spans_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_computations" ADD CONSTRAINT "analytics_computations_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_computations" ADD CONSTRAINT "analytics_computations_scheduler_ref_dask_schedulers_id_fk" FOREIGN KEY ("scheduler_ref") REFERENCES "public"."dask_schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dask_schedulers" ADD CONSTRAINT "dask_schedulers_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_task_groups" ADD CONSTRAINT "analytics_task_groups_computation_id_analytics_computations_id_fk" FOREIGN KEY ("computation_id") REFERENCES "public"."analytics_computations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_task_groups" ADD CONSTRAINT "analytics_task_groups_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_task_groups" ADD CONSTRAINT "analytics_task_groups_scheduler_ref_dask_schedulers_id_fk" FOREIGN KEY ("scheduler_ref") REFERENCES "public"."dask_schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_durations_cluster_time_idx" ON "analytics_durations" USING btree ("cluster_id","action","time");--> statement-breakpoint
CREATE INDEX "analytics_durations_scheduler_time_idx" ON "analytics_durations" USING btree ("scheduler_ref","action","time");--> statement-breakpoint
CREATE INDEX "analytics_exceptions_cluster_time_idx" ON "analytics_exceptions" USING btree ("cluster_id","time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "analytics_exceptions_scheduler_time_idx" ON "analytics_exceptions" USING btree ("scheduler_ref","time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "analytics_profiles_cluster_created_idx" ON "analytics_profiles" USING btree ("cluster_id","created" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "analytics_samples_cluster_time_idx" ON "analytics_samples" USING btree ("cluster_id","time");--> statement-breakpoint
CREATE INDEX "analytics_samples_scheduler_time_idx" ON "analytics_samples" USING btree ("scheduler_ref","time");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_spans_cluster_identifier_key" ON "analytics_spans" USING btree ("cluster_id","identifier");--> statement-breakpoint
CREATE INDEX "analytics_spans_cluster_start_idx" ON "analytics_spans" USING btree ("cluster_id","start");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_computations_cluster_identifier_key" ON "analytics_computations" USING btree ("cluster_id","identifier");--> statement-breakpoint
CREATE INDEX "analytics_computations_cluster_start_idx" ON "analytics_computations" USING btree ("cluster_id","start" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "analytics_computations_scheduler_start_idx" ON "analytics_computations" USING btree ("scheduler_ref","start" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "dask_schedulers_cluster_scheduler_key" ON "dask_schedulers" USING btree ("cluster_id","scheduler_id");--> statement-breakpoint
CREATE INDEX "dask_schedulers_scheduler_idx" ON "dask_schedulers" USING btree ("scheduler_id");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_task_groups_computation_name_key" ON "analytics_task_groups" USING btree ("computation_id","name");--> statement-breakpoint
CREATE INDEX "analytics_task_groups_cluster_prefix_idx" ON "analytics_task_groups" USING btree ("cluster_id","prefix");--> statement-breakpoint
CREATE INDEX "analytics_task_groups_scheduler_prefix_idx" ON "analytics_task_groups" USING btree ("scheduler_ref","prefix");--> statement-breakpoint
INSERT INTO "dask_schedulers" ("cluster_id", "scheduler_id", "info", "created")
SELECT DISTINCT ON ("cluster_id", "data"->>'scheduler_id') "cluster_id", left("data"->>'scheduler_id', 200), "data", "created"
FROM "cluster_events"
WHERE "kind" = 'analytics' AND "topic" = 'register' AND coalesce("data"->>'scheduler_id', '') <> ''
ORDER BY "cluster_id", "data"->>'scheduler_id', "created"
ON CONFLICT DO NOTHING;
