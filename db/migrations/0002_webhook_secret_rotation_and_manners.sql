ALTER TABLE "partners" ADD COLUMN "webhook_previous_secret" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "webhook_previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "webhook_disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "webhook_disabled_reason" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "webhook_not_before" timestamp with time zone;