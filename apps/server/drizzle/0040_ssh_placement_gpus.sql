ALTER TABLE "ssh_placements" ADD COLUMN "gpus" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ssh_placements" ADD COLUMN "gpu_devices" jsonb DEFAULT '[]'::jsonb NOT NULL;