ALTER TABLE "knowledge_documents" ADD COLUMN "instance_id" uuid;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD COLUMN "instance_id" uuid;--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD COLUMN "instance_id" uuid;--> statement-breakpoint
ALTER TABLE "test_runs" ADD COLUMN "instance_id" uuid;--> statement-breakpoint
ALTER TABLE "widget_messages" ADD COLUMN "instance_id" uuid;--> statement-breakpoint
CREATE INDEX "agent_runs_running_idx" ON "agent_runs" USING btree ("instance_id") WHERE "agent_runs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "schedule_runs_running_idx" ON "schedule_runs" USING btree ("instance_id") WHERE "schedule_runs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "workflow_runs_running_idx" ON "workflow_runs" USING btree ("instance_id") WHERE "workflow_runs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "widget_messages_streaming_idx" ON "widget_messages" USING btree ("instance_id") WHERE "widget_messages"."status" = 'streaming';