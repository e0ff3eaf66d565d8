ALTER TABLE "bank_credits" ADD COLUMN "return_bank_reference" text;--> statement-breakpoint
ALTER TABLE "bank_credits" ADD COLUMN "return_executed_at" timestamp with time zone;