CREATE TABLE "server_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "instance_id" uuid;--> statement-breakpoint
CREATE INDEX "messages_streaming_idx" ON "messages" USING btree ("instance_id") WHERE "messages"."status" = 'streaming';