-- Identifiers compared in a normal form (lib/identifiers/normal-form.ts): customers.address_key and
-- login_identifiers.match_key replace the lower-cased expression indexes monitoring compared before.
-- The normal form is computed in TypeScript (word tables, libphonenumber-js), so existing rows are
-- filled by one walk (identifiers.backfillNormalForms, in id batches); a fresh database has none and
-- the job ends at once.
DROP INDEX "customers_address_idx";--> statement-breakpoint
DROP INDEX "login_identifiers_value_idx";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "address_key" text;--> statement-breakpoint
ALTER TABLE "login_identifiers" ADD COLUMN "match_key" text;--> statement-breakpoint
CREATE INDEX "customers_address_key_idx" ON "customers" USING btree ("address_key");--> statement-breakpoint
CREATE INDEX "login_identifiers_match_key_idx" ON "login_identifiers" USING btree ("match_key");--> statement-breakpoint
INSERT INTO "jobs" ("id", "kind", "payload", "state", "run_at", "attempts", "max_attempts", "dedupe_key", "created_at") VALUES
  ('job_identifiernormalforms1', 'identifiers.backfillNormalForms', '{"table":"customers","afterId":null}', 'pending', now(), 0, 25, 'identifiers.backfillNormalForms:1:start', now())
ON CONFLICT DO NOTHING;
