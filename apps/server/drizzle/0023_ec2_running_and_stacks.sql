ALTER TABLE "cloud_setup_attempts" ADD COLUMN "stack_id" varchar(2048);--> statement-breakpoint
ALTER TABLE "cloud_setup_attempts" ADD COLUMN "stack_region" varchar(32);--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "running_at" timestamp with time zone;