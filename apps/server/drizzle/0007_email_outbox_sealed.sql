ALTER TABLE "email_outbox" ADD COLUMN "sealed_body" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "email_outbox_pending_idx" ON "email_outbox" USING btree ("updated_at") WHERE "email_outbox"."status" = 'pending';--> statement-breakpoint
-- Mails written before this change kept their one-time links readable in the back office: those
-- links are hidden now (a reset link lives one hour; an invitation can be sent again).
UPDATE "email_outbox" SET
  "html" = '<p>This e-mail held a one-time link for its recipient. Its content is not shown.</p>',
  "text" = 'This e-mail held a one-time link for its recipient. Its content is not shown.'
WHERE "template" IN ('password_reset', 'access_invitation');
