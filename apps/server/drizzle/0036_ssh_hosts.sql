CREATE TABLE "ssh_hosts" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"address" varchar(255) NOT NULL,
	"port" integer DEFAULT 22 NOT NULL,
	"username" varchar(64) NOT NULL,
	"host_key" text NOT NULL,
	"key_box" text NOT NULL,
	"cores" integer NOT NULL,
	"memory_mib" integer NOT NULL,
	"gpus" integer DEFAULT 0 NOT NULL,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"python" varchar(255) DEFAULT 'python3' NOT NULL,
	"health" jsonb,
	"checked_at" timestamp with time zone,
	"creator_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ssh_placements" (
	"backend_id" varchar(128) PRIMARY KEY NOT NULL,
	"host_id" integer NOT NULL,
	"cluster_id" integer NOT NULL,
	"cores" integer NOT NULL,
	"memory_mib" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ssh_hosts" ADD CONSTRAINT "ssh_hosts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_hosts" ADD CONSTRAINT "ssh_hosts_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_placements" ADD CONSTRAINT "ssh_placements_host_id_ssh_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."ssh_hosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_hosts_account_name_key" ON "ssh_hosts" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "ssh_placements_host_idx" ON "ssh_placements" USING btree ("host_id");