CREATE TABLE "host_metrics" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"instance_id" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"cpu" double precision NOT NULL,
	"memory_used" bigint NOT NULL,
	"memory_total" bigint NOT NULL,
	"net_rx" double precision NOT NULL,
	"net_tx" double precision NOT NULL,
	"disk_read" double precision NOT NULL,
	"disk_write" double precision NOT NULL,
	"gpu" double precision,
	"gpu_memory_used" bigint,
	"gpu_memory_total" bigint
);
--> statement-breakpoint
ALTER TABLE "analytics_samples" ADD COLUMN "waiting" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_samples" ADD COLUMN "in_memory" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_samples" ADD COLUMN "worker_memory" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_samples" ADD COLUMN "worker_cpu" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_samples" ADD COLUMN "transferred" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "host_metrics" ADD CONSTRAINT "host_metrics_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_metrics" ADD CONSTRAINT "host_metrics_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "host_metrics_cluster_time_idx" ON "host_metrics" USING btree ("cluster_id","time");--> statement-breakpoint
CREATE INDEX "host_metrics_time_idx" ON "host_metrics" USING btree ("time");