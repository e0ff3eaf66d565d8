CREATE TABLE "claim_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"claim_id" text NOT NULL,
	"transfer_id" text NOT NULL,
	"state" text NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"bank_reference" text,
	"paid_at" timestamp with time zone,
	"state_changed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claim_refunds" ADD CONSTRAINT "claim_refunds_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_refunds" ADD CONSTRAINT "claim_refunds_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claim_refunds_claim_idx" ON "claim_refunds" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "claim_refunds_state_idx" ON "claim_refunds" USING btree ("state","created_at");