CREATE TABLE "files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"conversation_id" uuid,
	"purpose" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text,
	"storage_key" text NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "files_status_check" CHECK ("files"."status" in ('uploading', 'ready')),
	CONSTRAINT "files_purpose_check" CHECK ("files"."purpose" in ('attachment', 'knowledge', 'avatar')),
	CONSTRAINT "files_size_check" CHECK ("files"."size_bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "max_file_bytes" bigint;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "storage_quota_bytes" bigint;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_user_created_idx" ON "files" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "files_conversation_idx" ON "files" USING btree ("conversation_id");--> statement-breakpoint
-- Free, every user's fallback plan, gets explicit storage limits (10 MB a file, 100 MB in all).
UPDATE "pricing_plans" SET "max_file_bytes" = 10485760, "storage_quota_bytes" = 104857600 WHERE "name" = 'Free';
