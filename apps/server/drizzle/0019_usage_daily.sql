CREATE TABLE "usage_daily" (
	"day" timestamp with time zone NOT NULL,
	"cluster_id" integer NOT NULL,
	"cluster_name" varchar(128) NOT NULL,
	"account_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"cluster_type" varchar(16) NOT NULL,
	"backend_type" varchar(32) NOT NULL,
	"instance_type" varchar(64) NOT NULL,
	"zone" varchar(64) DEFAULT '' NOT NULL,
	"gpu_type" varchar(64) DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"instance_minutes" integer NOT NULL,
	"core_minutes" bigint NOT NULL,
	"micro_credits" bigint NOT NULL,
	"micro_cloud_cost" bigint NOT NULL,
	"micro_cumulus_cost" bigint NOT NULL,
	CONSTRAINT "usage_daily_day_cluster_id_instance_type_zone_gpu_type_pk" PRIMARY KEY("day","cluster_id","instance_type","zone","gpu_type")
);
--> statement-breakpoint
CREATE INDEX "usage_daily_account_day_idx" ON "usage_daily" USING btree ("account_id","day");--> statement-breakpoint
CREATE INDEX "usage_daily_organization_day_idx" ON "usage_daily" USING btree ("organization_id","day");--> statement-breakpoint
-- What was metered before the daily rollup existed (hand-written backfill).
INSERT INTO "usage_daily" ("day", "cluster_id", "cluster_name", "account_id", "organization_id", "user_id", "cluster_type", "backend_type", "instance_type", "zone", "gpu_type", "tags", "instance_minutes", "core_minutes", "micro_credits", "micro_cloud_cost", "micro_cumulus_cost")
SELECT date_trunc('day', "hour", 'UTC'), "cluster_id", max("cluster_name"), max("account_id"), max("organization_id"), max("user_id"), max("cluster_type"), max("backend_type"), "instance_type", "zone", "gpu_type", (array_agg("tags"))[1], sum("instance_minutes"), sum("core_minutes"), sum("micro_credits"), sum("micro_cloud_cost"), sum("micro_cumulus_cost")
FROM "usage_hourly" GROUP BY 1, "cluster_id", "instance_type", "zone", "gpu_type";
