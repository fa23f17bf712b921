CREATE TABLE "library_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "library_uses_kind_check" CHECK ("library_uses"."kind" in ('prompt', 'scenario')),
	CONSTRAINT "library_uses_action_check" CHECK ("library_uses"."action" in ('copy', 'run'))
);
--> statement-breakpoint
ALTER TABLE "user_settings" ADD COLUMN "onboarding_dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "source_id" uuid;--> statement-breakpoint
ALTER TABLE "scenarios" ADD COLUMN "source_id" uuid;--> statement-breakpoint
ALTER TABLE "library_uses" ADD CONSTRAINT "library_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "library_uses_trend_idx" ON "library_uses" USING btree ("kind","action","created_at");--> statement-breakpoint
CREATE INDEX "library_uses_item_idx" ON "library_uses" USING btree ("item_id","created_at");--> statement-breakpoint
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_source_id_prompts_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."prompts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scenarios" ADD CONSTRAINT "scenarios_source_id_scenarios_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."scenarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prompts_source_idx" ON "prompts" USING btree ("source_id") WHERE "prompts"."source_id" is not null;--> statement-breakpoint
CREATE INDEX "scenarios_source_idx" ON "scenarios" USING btree ("source_id") WHERE "scenarios"."source_id" is not null;