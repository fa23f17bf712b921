ALTER TABLE "pricing_plans" ADD COLUMN "max_schedules" integer;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "min_schedule_interval_minutes" integer;