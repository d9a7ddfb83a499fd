ALTER TABLE "api_tokens" ADD COLUMN "user_code_hash" char(64);--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "code_attempts" integer DEFAULT 0 NOT NULL;