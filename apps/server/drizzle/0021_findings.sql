ALTER TABLE "email_outbox" ADD COLUMN "without_content" jsonb;--> statement-breakpoint
ALTER TABLE "admin_audit_logs" ADD COLUMN "posted_by_admin" boolean DEFAULT false NOT NULL;