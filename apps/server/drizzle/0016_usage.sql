CREATE TABLE "meters" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(32) NOT NULL,
	"metered_until" timestamp with time zone DEFAULT date_trunc('minute', now()) NOT NULL,
	"reconcile_at" timestamp with time zone DEFAULT now(),
	"lease_owner" varchar(64),
	"lease_until" timestamp with time zone,
	"reconcile_attempts" integer DEFAULT 0 NOT NULL,
	"reconcile_error" text,
	"reconcile_failing_since" timestamp with time zone,
	CONSTRAINT "meters_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "usage_hourly" (
	"hour" timestamp with time zone NOT NULL,
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
	CONSTRAINT "usage_hourly_hour_cluster_id_instance_type_zone_gpu_type_pk" PRIMARY KEY("hour","cluster_id","instance_type","zone","gpu_type")
);
--> statement-breakpoint
CREATE TABLE "usage_minutes" (
	"minute" timestamp with time zone NOT NULL,
	"instance_id" integer NOT NULL,
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
	"cores" integer NOT NULL,
	"memory_mib" integer NOT NULL,
	"gpus" integer DEFAULT 0 NOT NULL,
	"micro_credits" bigint NOT NULL,
	"micro_cloud_cost" bigint NOT NULL,
	"micro_cumulus_cost" bigint NOT NULL,
	CONSTRAINT "usage_minutes_instance_id_minute_pk" PRIMARY KEY("instance_id","minute")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "billing_method" varchar(32) DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "credit_value_micro_usd" bigint DEFAULT 50000 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "credit_limit" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "dollars_spend_limit_micro_usd" bigint;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "spend_limit_should_stop_instances" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "usage_hourly_account_hour_idx" ON "usage_hourly" USING btree ("account_id","hour");--> statement-breakpoint
CREATE INDEX "usage_hourly_organization_hour_idx" ON "usage_hourly" USING btree ("organization_id","hour");--> statement-breakpoint
CREATE INDEX "usage_minutes_minute_idx" ON "usage_minutes" USING btree ("minute");