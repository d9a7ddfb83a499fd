DROP INDEX "run_tasks_held_idx";--> statement-breakpoint
CREATE INDEX "run_tasks_held_idx" ON "run_tasks" USING btree ("instance_id","id") WHERE "run_tasks"."state" in ('assigned', 'running');