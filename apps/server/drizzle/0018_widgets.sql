CREATE TABLE "widget_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"widget_id" uuid NOT NULL,
	"visitor_id" uuid NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"widget_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'done' NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_usage_days" (
	"widget_id" uuid NOT NULL,
	"day" date NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "widget_usage_days_widget_id_day_pk" PRIMARY KEY("widget_id","day")
);
--> statement-breakpoint
CREATE TABLE "widget_visitor_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"visitor_id" uuid NOT NULL,
	"widget_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_visitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"widget_id" uuid NOT NULL,
	"external_id" text,
	"name" text,
	"signed" boolean DEFAULT false NOT NULL,
	"blocked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"public_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"agent_id" uuid,
	"custom_ai_id" uuid,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"appearance" jsonb NOT NULL,
	"messages_per_visitor_hour" integer NOT NULL,
	"daily_tokens" integer NOT NULL,
	"monthly_tokens" integer NOT NULL,
	"max_reply_tokens" integer NOT NULL,
	"require_signed_visitors" boolean DEFAULT false NOT NULL,
	"allowed_tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret_sealed" text NOT NULL,
	"secret_hint" text NOT NULL,
	"budget_notice_period" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "widget_conversations" ADD CONSTRAINT "widget_conversations_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_conversations" ADD CONSTRAINT "widget_conversations_visitor_id_widget_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."widget_visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_messages" ADD CONSTRAINT "widget_messages_conversation_id_widget_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."widget_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_messages" ADD CONSTRAINT "widget_messages_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_usage_days" ADD CONSTRAINT "widget_usage_days_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_visitor_sessions" ADD CONSTRAINT "widget_visitor_sessions_visitor_id_widget_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."widget_visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_visitor_sessions" ADD CONSTRAINT "widget_visitor_sessions_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_visitors" ADD CONSTRAINT "widget_visitors_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_custom_ai_id_custom_ais_id_fk" FOREIGN KEY ("custom_ai_id") REFERENCES "public"."custom_ais"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_conversations_widget_idx" ON "widget_conversations" USING btree ("widget_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "widget_conversations_visitor_idx" ON "widget_conversations" USING btree ("visitor_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "widget_messages_conversation_idx" ON "widget_messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "widget_messages_search_idx" ON "widget_messages" USING gin (to_tsvector('simple', "content"));--> statement-breakpoint
CREATE INDEX "widget_visitor_sessions_visitor_idx" ON "widget_visitor_sessions" USING btree ("visitor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "widget_visitors_external_idx" ON "widget_visitors" USING btree ("widget_id","external_id") WHERE "widget_visitors"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "widget_visitors_widget_idx" ON "widget_visitors" USING btree ("widget_id","last_seen_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "widgets_public_id_idx" ON "widgets" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "widgets_user_idx" ON "widgets" USING btree ("user_id","created_at" DESC NULLS LAST);