ALTER TABLE "client_interactions" ADD COLUMN "source" varchar(50) DEFAULT 'console' NOT NULL;--> statement-breakpoint
ALTER TABLE "client_interactions" ADD COLUMN "workspace_id" integer;--> statement-breakpoint
ALTER TABLE "client_interactions" ADD COLUMN "error_class" varchar(200);--> statement-breakpoint
ALTER TABLE "client_interactions" ADD CONSTRAINT "client_interactions_workspace_id_accounts_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_interactions_created_idx" ON "client_interactions" USING btree ("created");