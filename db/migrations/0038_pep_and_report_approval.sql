ALTER TABLE "customer_risk_flags" ADD COLUMN "source" text DEFAULT 'analyst' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "evidence" jsonb;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "approved_by_id" text;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "approved_by_email" text;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "approval_reason" text;--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD COLUMN "edited_by_emails" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD COLUMN "approved_by_id" text;--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD COLUMN "approved_by_email" text;