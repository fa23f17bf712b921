CREATE TABLE "custom_ais" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"system_prompt" text DEFAULT '' NOT NULL,
	"provider" text NOT NULL,
	"model" text,
	"temperature" real,
	"top_p" real,
	"max_tokens" integer,
	"starters" text[] DEFAULT '{}'::text[] NOT NULL,
	"knowledge_base_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "custom_ai_id" uuid;--> statement-breakpoint
ALTER TABLE "custom_ais" ADD CONSTRAINT "custom_ais_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_ais_user_created_idx" ON "custom_ais" USING btree ("user_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_custom_ai_id_custom_ais_id_fk" FOREIGN KEY ("custom_ai_id") REFERENCES "public"."custom_ais"("id") ON DELETE set null ON UPDATE no action;