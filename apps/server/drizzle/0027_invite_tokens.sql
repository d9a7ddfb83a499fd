-- Invitations made before links carried a token get a hash of a random value nobody knows: their
-- old links (?invite=<id>) open nothing, they stay acceptable by address at sign-up and login until
-- they expire, and Resend mails them a link with a working token.
ALTER TABLE "organization_invites" ADD COLUMN "token_hash" char(64);--> statement-breakpoint
UPDATE "organization_invites" SET "token_hash" = encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "organization_invites" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invites_token_hash_key" ON "organization_invites" USING btree ("token_hash");
