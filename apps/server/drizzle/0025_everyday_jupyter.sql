ALTER TABLE "clusters" ADD COLUMN "jupyter_address" text;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "jupyter_ui" varchar(16);