CREATE TABLE "identity_link_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"user_id" integer NOT NULL,
	"provider" varchar(20) NOT NULL,
	"issuer" varchar(500) NOT NULL,
	"subject" varchar(255) NOT NULL,
	"email" varchar(254) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_sso_connections" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"issuer" varchar(500) NOT NULL,
	"client_id" varchar(255) NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"join_workspace_ids" integer[] DEFAULT '{}' NOT NULL,
	"require_sso" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_sso_domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"domain" varchar(253) NOT NULL,
	"token" varchar(64) NOT NULL,
	"verified_at" timestamp with time zone,
	"verified_by" varchar(10),
	"verified_by_staff_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity_link_tokens" ADD CONSTRAINT "identity_link_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_sso_connections" ADD CONSTRAINT "organization_sso_connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_sso_domains" ADD CONSTRAINT "organization_sso_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_sso_domains" ADD CONSTRAINT "organization_sso_domains_verified_by_staff_id_users_id_fk" FOREIGN KEY ("verified_by_staff_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_link_tokens_hash_key" ON "identity_link_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_sso_domains_org_domain_key" ON "organization_sso_domains" USING btree ("organization_id","domain");--> statement-breakpoint
CREATE INDEX "organization_sso_domains_domain_idx" ON "organization_sso_domains" USING btree ("domain");