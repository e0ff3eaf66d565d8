ALTER TABLE "partners" ADD COLUMN "limit_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "tier_limits" jsonb;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "verification_tier" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "limit_amount" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "limit_currency" text;