CREATE TABLE "billing_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"account_id" integer,
	"user_id" integer,
	"cluster_id" integer,
	"kind" varchar(32) NOT NULL,
	"detail" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"tier" "feature_tier" NOT NULL,
	"core_limit_members" integer,
	"member_limit" integer,
	"node_limit" integer,
	"seat_limit" integer,
	"workspace_limit" integer,
	"credit_allotment" integer DEFAULT 0 NOT NULL,
	"dollars_spend_limit_micro_usd" bigint,
	"organization_credit_limit" integer,
	"started" timestamp with time zone DEFAULT now() NOT NULL,
	"ended" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" varchar(255) PRIMARY KEY NOT NULL,
	"type" varchar(128) NOT NULL,
	"received" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"stripe_subscription_id" varchar(255) NOT NULL,
	"stripe_customer_id" varchar(255) NOT NULL,
	"status" varchar(32) NOT NULL,
	"tier" "feature_tier" NOT NULL,
	"current_period_end" timestamp with time zone,
	"cancel_at" timestamp with time zone,
	"trial_end" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "stripe_customer_id" varchar(255);--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "subscription_status" varchar(32);--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "trial_expiration" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "next_phase_tier" "feature_tier";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "cancel_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_events" ADD CONSTRAINT "billing_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_events_organization_created_idx" ON "billing_events" USING btree ("organization_id","created" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "billing_events_cluster_idx" ON "billing_events" USING btree ("cluster_id");--> statement-breakpoint
CREATE UNIQUE INDEX "programs_active_key" ON "programs" USING btree ("organization_id") WHERE ended is null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_stripe_key" ON "subscriptions" USING btree ("stripe_subscription_id");--> statement-breakpoint
CREATE INDEX "subscriptions_organization_idx" ON "subscriptions" USING btree ("organization_id");--> statement-breakpoint
-- Every organization's current plan becomes its first program (hand-written: the limits move from organizations to programs).
INSERT INTO "programs" ("organization_id", "tier", "core_limit_members", "member_limit", "seat_limit", "workspace_limit", "credit_allotment", "dollars_spend_limit_micro_usd", "organization_credit_limit")
SELECT "id", "feature_tier", 1000, "member_limit", "seat_limit", "workspace_limit", 10000, "dollars_spend_limit_micro_usd", "credit_limit" FROM "organizations";
