-- Substring searches (better-logs filter_pattern, paginate name) use trigram indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "clusters_name_trgm_idx" ON "clusters" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "instance_logs_message_trgm_idx" ON "instance_logs" USING gin ("message" gin_trgm_ops);