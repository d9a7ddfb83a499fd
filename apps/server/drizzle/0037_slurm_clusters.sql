CREATE TABLE "slurm_clusters" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"login" varchar(8) NOT NULL,
	"address" varchar(255),
	"port" integer,
	"username" varchar(64),
	"host_key" text,
	"key_box" text,
	"partition" varchar(64),
	"slurm_account" varchar(64),
	"qos" varchar(64),
	"time_limit_minutes" integer,
	"node_cores" integer NOT NULL,
	"node_memory_mib" integer NOT NULL,
	"python" varchar(255) DEFAULT 'python3' NOT NULL,
	"health" jsonb,
	"checked_at" timestamp with time zone,
	"creator_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "slurm_clusters" ADD CONSTRAINT "slurm_clusters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slurm_clusters" ADD CONSTRAINT "slurm_clusters_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "slurm_clusters_account_key" ON "slurm_clusters" USING btree ("account_id");