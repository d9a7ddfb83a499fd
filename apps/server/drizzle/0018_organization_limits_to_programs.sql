ALTER TABLE "organizations" DROP COLUMN "feature_tier";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "member_limit";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "workspace_limit";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "seat_limit";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "credit_limit";--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "dollars_spend_limit_micro_usd";