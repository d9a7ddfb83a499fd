CREATE TABLE "filestore_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"filestore_id" integer NOT NULL,
	"input" boolean DEFAULT false NOT NULL,
	"output" boolean DEFAULT false NOT NULL,
	"path" text DEFAULT '.' NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"sync_started" timestamp with time zone,
	"sync_finished" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "filestores" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" varchar(200) NOT NULL,
	"region" varchar(64) DEFAULT '' NOT NULL,
	"creator_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filestore_attachments" ADD CONSTRAINT "filestore_attachments_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filestore_attachments" ADD CONSTRAINT "filestore_attachments_filestore_id_filestores_id_fk" FOREIGN KEY ("filestore_id") REFERENCES "public"."filestores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filestores" ADD CONSTRAINT "filestores_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filestores" ADD CONSTRAINT "filestores_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "filestore_attachments_cluster_store_key" ON "filestore_attachments" USING btree ("cluster_id","filestore_id");--> statement-breakpoint
CREATE INDEX "filestore_attachments_store_idx" ON "filestore_attachments" USING btree ("filestore_id");--> statement-breakpoint
CREATE UNIQUE INDEX "filestores_account_name_key" ON "filestores" USING btree ("account_id","name");