-- Billing owns how an organization pays and its Stripe customer and subscription's state: the
-- columns move from organizations to organization_billing (one row per organization, billing's
-- table). Every existing organization's state is copied before the columns are dropped, and a
-- trigger gives every organization inserted from now on its row (the defaults below), whoever
-- inserts it, so billing's reads and writes always find one.
CREATE TABLE "organization_billing" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"billing_method" varchar(32) DEFAULT '' NOT NULL,
	"credit_value_micro_usd" bigint DEFAULT 50000 NOT NULL,
	"spend_limit_should_stop_instances" boolean DEFAULT true NOT NULL,
	"stripe_customer_id" varchar(255),
	"subscription_status" varchar(32),
	"trial_expiration" timestamp with time zone,
	"next_phase_tier" "feature_tier",
	"cancel_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "organization_billing" ADD CONSTRAINT "organization_billing_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_billing_stripe_customer_idx" ON "organization_billing" USING btree ("stripe_customer_id");--> statement-breakpoint
INSERT INTO "organization_billing" ("organization_id", "billing_method", "credit_value_micro_usd", "spend_limit_should_stop_instances", "stripe_customer_id", "subscription_status", "trial_expiration", "next_phase_tier", "cancel_at")
  SELECT "id", "billing_method", "credit_value_micro_usd", "spend_limit_should_stop_instances", "stripe_customer_id", "subscription_status", "trial_expiration", "next_phase_tier", "cancel_at"
  FROM "organizations";--> statement-breakpoint
CREATE FUNCTION cumulus_open_organization_billing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_billing (organization_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER organizations_open_billing AFTER INSERT ON organizations
  FOR EACH ROW EXECUTE FUNCTION cumulus_open_organization_billing();--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "billing_method";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "credit_value_micro_usd";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "spend_limit_should_stop_instances";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "stripe_customer_id";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "subscription_status";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "trial_expiration";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "next_phase_tier";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "cancel_at";