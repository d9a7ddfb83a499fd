ALTER TABLE "slurm_clusters" ADD COLUMN "rest_url" varchar(255);--> statement-breakpoint
ALTER TABLE "slurm_clusters" ADD COLUMN "node_gpus" integer DEFAULT 0 NOT NULL;