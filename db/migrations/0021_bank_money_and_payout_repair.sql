DROP INDEX "payment_status_records_status_idx";--> statement-breakpoint
DROP INDEX "payout_file_items_transfer_idx";--> statement-breakpoint
ALTER TABLE "bank_credits" ADD COLUMN "written_off_amount" text;--> statement-breakpoint
ALTER TABLE "payment_status_records" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_file_items" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_file_items" ADD COLUMN "state" text DEFAULT 'SENT' NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_file_items" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "payout_file_items" ADD COLUMN "state_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_status_records_status_attempt_idx" ON "payment_status_records" USING btree ("end_to_end_id","status","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_file_items_transfer_attempt_idx" ON "payout_file_items" USING btree ("transfer_id","attempt");