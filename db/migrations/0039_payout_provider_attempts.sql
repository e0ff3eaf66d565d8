CREATE TABLE "payout_provider_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"seq" integer NOT NULL,
	"provider" text NOT NULL,
	"state" text NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"request" jsonb,
	"answer" jsonb,
	"outcome_code" text,
	"provider_reference" text,
	"created_at" timestamp with time zone NOT NULL,
	"state_changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payout_provider_attempts_amount_format" CHECK ("payout_provider_attempts"."amount" ~ '^(0|[1-9][0-9]*)([.][0-9]+)?$')
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "payout_provider" text;--> statement-breakpoint
ALTER TABLE "payout_provider_attempts" ADD CONSTRAINT "payout_provider_attempts_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_provider_attempts_transfer_seq_idx" ON "payout_provider_attempts" USING btree ("transfer_id","seq");--> statement-breakpoint
CREATE INDEX "payout_provider_attempts_provider_idx" ON "payout_provider_attempts" USING btree ("provider","created_at");--> statement-breakpoint
CREATE INDEX "payout_provider_attempts_state_idx" ON "payout_provider_attempts" USING btree ("state","provider","currency");--> statement-breakpoint
CREATE INDEX "payout_provider_attempts_reference_idx" ON "payout_provider_attempts" USING btree ("provider_reference");