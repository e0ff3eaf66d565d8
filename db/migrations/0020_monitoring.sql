CREATE TABLE "monitoring_evaluations" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"rule_set_id" text NOT NULL,
	"rule_set_version" integer NOT NULL,
	"mode" text NOT NULL,
	"run" text NOT NULL,
	"outcome" text NOT NULL,
	"fired" jsonb NOT NULL,
	"typologies" jsonb NOT NULL,
	"aggregates" jsonb NOT NULL,
	"suppressed" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_rule_sets" (
	"id" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"state" text NOT NULL,
	"document" jsonb NOT NULL,
	"note" text NOT NULL,
	"author_id" text NOT NULL,
	"author_email" text NOT NULL,
	"activated_by_id" text,
	"activated_by_email" text,
	"activated_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	"backtest" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_suppressions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by_id" text NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "monitoring_mode" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "monitoring_parameters" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD COLUMN "destination_key" text;--> statement-breakpoint
CREATE INDEX "monitoring_evaluations_transfer_idx" ON "monitoring_evaluations" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "monitoring_evaluations_created_idx" ON "monitoring_evaluations" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_rule_sets_version_idx" ON "monitoring_rule_sets" USING btree ("version");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_rule_sets_active_idx" ON "monitoring_rule_sets" USING btree ("state") WHERE "monitoring_rule_sets"."state" = 'active';--> statement-breakpoint
CREATE INDEX "monitoring_rule_sets_state_idx" ON "monitoring_rule_sets" USING btree ("state");--> statement-breakpoint
CREATE INDEX "monitoring_suppressions_customer_idx" ON "monitoring_suppressions" USING btree ("customer_id","expires_at");--> statement-breakpoint
CREATE INDEX "customers_address_idx" ON "customers" USING btree (lower(btrim(profile->'residenceAddress'->>'addressLine1')),upper(replace(profile->'residenceAddress'->>'postalCode', ' ', '')));--> statement-breakpoint
CREATE INDEX "login_identifiers_value_idx" ON "login_identifiers" USING btree ("value");--> statement-breakpoint
CREATE INDEX "beneficiaries_created_idx" ON "beneficiaries" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_methods_destination_key_idx" ON "payout_methods" USING btree ("destination_key");--> statement-breakpoint
CREATE INDEX "transfers_customer_submitted_idx" ON "transfers" USING btree ("customer_id","submitted_at");--> statement-breakpoint
CREATE INDEX "transfers_beneficiary_submitted_idx" ON "transfers" USING btree ("beneficiary_id","submitted_at");--> statement-breakpoint
CREATE INDEX "transfers_payout_method_submitted_idx" ON "transfers" USING btree ("payout_method_id","submitted_at");