ALTER TABLE "usage_events" ADD COLUMN "source" text DEFAULT 'chat' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "cost_usd" numeric(14, 6);--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "latency_ms" integer;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "ttft_ms" integer;--> statement-breakpoint
CREATE INDEX "usage_events_source_created_idx" ON "usage_events" USING btree ("source","created_at");--> statement-breakpoint
UPDATE "usage_events" SET "source" = "kind";--> statement-breakpoint
ALTER TABLE "usage_events" DROP COLUMN "kind";
