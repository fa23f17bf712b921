ALTER TABLE "agent_tool_grants" ADD COLUMN "shape" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_tool_grants" DROP CONSTRAINT "agent_tool_grants_conversation_id_tool_pk";--> statement-breakpoint
ALTER TABLE "agent_tool_grants" ADD CONSTRAINT "agent_tool_grants_conversation_id_tool_shape_pk" PRIMARY KEY("conversation_id","tool","shape");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "without_content" jsonb;--> statement-breakpoint
ALTER TABLE "admin_audit_logs" ADD COLUMN "posted_by_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "widget_visitors" ADD COLUMN "address_hash" text;--> statement-breakpoint
ALTER TABLE "widgets" ADD COLUMN "tool_arguments" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "widgets" ADD COLUMN "show_sources" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "widget_visitors_blocked_address_idx" ON "widget_visitors" USING btree ("widget_id","address_hash") WHERE "widget_visitors"."blocked_at" is not null;