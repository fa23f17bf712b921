CREATE TABLE "run_slots" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"slot" integer NOT NULL,
	"holder" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "run_slots_user_id_kind_slot_pk" PRIMARY KEY("user_id","kind","slot")
);
--> statement-breakpoint
CREATE TABLE "widget_budget_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"widget_id" uuid NOT NULL,
	"day" date NOT NULL,
	"tokens" integer NOT NULL,
	"instance_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "widget_usage_days" ADD COLUMN "reserved_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_slots" ADD CONSTRAINT "run_slots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_budget_holds" ADD CONSTRAINT "widget_budget_holds_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_budget_holds_widget_idx" ON "widget_budget_holds" USING btree ("widget_id");