DROP INDEX "analytics_exceptions_cluster_time_idx";--> statement-breakpoint
DROP INDEX "analytics_exceptions_scheduler_time_idx";--> statement-breakpoint
DROP INDEX "analytics_profiles_cluster_created_idx";--> statement-breakpoint
DROP INDEX "analytics_computations_cluster_start_idx";--> statement-breakpoint
DROP INDEX "analytics_computations_scheduler_start_idx";--> statement-breakpoint
DROP INDEX "clusters_account_created_idx";--> statement-breakpoint
CREATE INDEX "analytics_exceptions_cluster_time_idx" ON "analytics_exceptions" USING btree ("cluster_id","time" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "analytics_exceptions_scheduler_time_idx" ON "analytics_exceptions" USING btree ("scheduler_ref","time" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "analytics_profiles_cluster_created_idx" ON "analytics_profiles" USING btree ("cluster_id","created" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "analytics_computations_cluster_start_idx" ON "analytics_computations" USING btree ("cluster_id","start" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "analytics_computations_scheduler_start_idx" ON "analytics_computations" USING btree ("scheduler_ref","start" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "clusters_account_created_idx" ON "clusters" USING btree ("account_id","created" DESC NULLS FIRST,"id" DESC NULLS FIRST);