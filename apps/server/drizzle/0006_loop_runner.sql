ALTER TABLE "email_outbox" ALTER COLUMN "next_attempt_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "desired_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "reconcile_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "reconcile_error" text;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "reconcile_failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "lease_owner" varchar(64);--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "lease_until" timestamp with time zone;