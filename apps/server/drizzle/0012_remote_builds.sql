ALTER TABLE "software_builds" ADD COLUMN "token_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "software_builds" ADD COLUMN "report" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "software_builds_token_key" ON "software_builds" USING btree ("token_hash");