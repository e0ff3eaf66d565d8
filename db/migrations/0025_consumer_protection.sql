CREATE TABLE "claim_state_history" (
	"id" text PRIMARY KEY NOT NULL,
	"claim_id" text NOT NULL,
	"seq" integer NOT NULL,
	"state" text NOT NULL,
	"trigger" text NOT NULL,
	"transitioned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"type" text NOT NULL,
	"description" text NOT NULL,
	"state" text NOT NULL,
	"due_by" timestamp with time zone NOT NULL,
	"outcome" text,
	"resolution_amount" text,
	"resolution_currency" text,
	"resolution_notice" text,
	"resolved_at" timestamp with time zone,
	"resolved_by_email" text,
	"state_changed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "provider_contact" jsonb;--> statement-breakpoint
ALTER TABLE "claim_state_history" ADD CONSTRAINT "claim_state_history_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claim_state_history_seq_idx" ON "claim_state_history" USING btree ("claim_id","seq");--> statement-breakpoint
CREATE INDEX "claims_transfer_idx" ON "claims" USING btree ("transfer_id","created_at");--> statement-breakpoint
CREATE INDEX "claims_state_idx" ON "claims" USING btree ("state","due_by");