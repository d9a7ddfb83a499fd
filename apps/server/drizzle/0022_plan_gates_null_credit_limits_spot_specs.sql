-- Plan gates (spot and ARM usage limits, custom networking, private package index, billing periods),
-- credit limits that may be null (no limit), the empty billing method, and spot workers on instance specs.
ALTER TABLE "workspace_invites" ALTER COLUMN "credit_limit" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ALTER COLUMN "billing_method" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "account_memberships" ALTER COLUMN "credit_limit" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "spot_usage_limit" integer;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "arm_usage_limit" integer;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "can_use_custom_networking" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "can_use_private_pypi" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "billing_periods" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "instance_specs" ADD COLUMN "spot" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The spec's billing methods: empty (none), stripe, aws, invoice.
UPDATE "organizations" SET "billing_method" = '' WHERE "billing_method" = 'none';--> statement-breakpoint
-- Programs already running get their tier's gates (pricing/tiers.ts).
UPDATE "programs" SET "spot_usage_limit" = 0, "arm_usage_limit" = 0 WHERE "tier" = 'essentials';--> statement-breakpoint
UPDATE "programs" SET "spot_usage_limit" = 25, "arm_usage_limit" = 25 WHERE "tier" = 'free';--> statement-breakpoint
UPDATE "programs" SET "spot_usage_limit" = 100, "arm_usage_limit" = 100, "can_use_custom_networking" = true WHERE "tier" = 'basic';--> statement-breakpoint
UPDATE "programs" SET "can_use_custom_networking" = true, "can_use_private_pypi" = true WHERE "tier" IN ('professional', 'enterprise');--> statement-breakpoint
UPDATE "programs" SET "billing_periods" = 12 WHERE "tier" = 'enterprise';
