CREATE TABLE "user_api_key_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"system_key_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_api_key_grants" ADD CONSTRAINT "user_api_key_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_api_key_grants" ADD CONSTRAINT "user_api_key_grants_system_key_id_system_api_keys_id_fk" FOREIGN KEY ("system_key_id") REFERENCES "public"."system_api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_api_key_grants_user_key" ON "user_api_key_grants" USING btree ("user_id","system_key_id");--> statement-breakpoint
CREATE INDEX "user_api_key_grants_system_key_idx" ON "user_api_key_grants" USING btree ("system_key_id");--> statement-breakpoint
-- Keys copied from an admin default before grants existed become grants of that default key.
INSERT INTO "user_api_key_grants" ("user_id", "system_key_id")
SELECT u."user_id", s."id" FROM "user_api_keys" u
JOIN "system_api_keys" s ON s."provider" = u."provider" AND s."kind" = 'default'
WHERE u."source" = 'default'
ON CONFLICT DO NOTHING;--> statement-breakpoint
DELETE FROM "user_api_keys" WHERE "source" = 'default';--> statement-breakpoint
ALTER TABLE "user_api_keys" DROP COLUMN "source";