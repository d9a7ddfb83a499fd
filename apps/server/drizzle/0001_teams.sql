CREATE TYPE "public"."feature_tier" AS ENUM('essentials', 'free', 'basic', 'professional', 'enterprise');--> statement-breakpoint
CREATE TABLE "custom_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_custom_groups" (
	"organization_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "organization_custom_groups_organization_id_group_id_pk" PRIMARY KEY("organization_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "organization_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"email" varchar(254) NOT NULL,
	"role" "organization_role" DEFAULT 'member' NOT NULL,
	"invited_by_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"expiration" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_invite_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"core_limit" integer DEFAULT 1000 NOT NULL,
	"credit_limit" integer DEFAULT 100000 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "accounts_name_key";--> statement-breakpoint
ALTER TABLE "organizations" ALTER COLUMN "member_limit" SET DEFAULT 50;--> statement-breakpoint
ALTER TABLE "organizations" ALTER COLUMN "workspace_limit" SET DEFAULT 10;--> statement-breakpoint
ALTER TABLE "organizations" ALTER COLUMN "seat_limit" SET DEFAULT 50;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "feature_tier" "feature_tier" DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_custom_groups" ADD CONSTRAINT "organization_custom_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_custom_groups" ADD CONSTRAINT "organization_custom_groups_group_id_custom_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."custom_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invites" ADD CONSTRAINT "organization_invites_invited_by_id_users_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invites" ADD CONSTRAINT "workspace_invites_organization_invite_id_organization_invites_id_fk" FOREIGN KEY ("organization_invite_id") REFERENCES "public"."organization_invites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invites" ADD CONSTRAINT "workspace_invites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_groups_name_key" ON "custom_groups" USING btree ("name");--> statement-breakpoint
CREATE INDEX "organization_custom_groups_group_idx" ON "organization_custom_groups" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invites_org_email_key" ON "organization_invites" USING btree ("organization_id","email");--> statement-breakpoint
CREATE INDEX "organization_invites_email_idx" ON "organization_invites" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_invites_invite_account_key" ON "workspace_invites" USING btree ("organization_invite_id","account_id");--> statement-breakpoint
CREATE INDEX "workspace_invites_account_idx" ON "workspace_invites" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_name_key" ON "accounts" USING btree (lower("name"));