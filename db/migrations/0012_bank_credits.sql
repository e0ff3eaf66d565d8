CREATE TABLE "bank_credits" (
	"id" text PRIMARY KEY NOT NULL,
	"bank_reference" text NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"booking_date" text,
	"creditor_reference" text,
	"remittance" text,
	"payer_name" text,
	"payer_account" text,
	"statement_id" text NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"transfer_id" text,
	"applied_amount" text,
	"returned_amount" text,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "funding_sessions" ADD COLUMN "creditor_reference" text;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_credits_bank_reference_idx" ON "bank_credits" USING btree ("bank_reference");--> statement-breakpoint
CREATE INDEX "bank_credits_state_idx" ON "bank_credits" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "funding_sessions_creditor_reference_idx" ON "funding_sessions" USING btree ("creditor_reference");