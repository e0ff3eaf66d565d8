-- Tier limits become part of the configuration document (lib/payments/corridors/schema.ts "tierLimits").
-- A version written before held none: the limits in force under it were the shipped ones, in the code
-- (lib/payments/limits/tiers.ts SEED_TIER_LIMITS), so each such version is completed with exactly those.
-- Nothing it priced or limited changes; the immutability trigger is off for this statement only.
ALTER TABLE "configuration_versions" DISABLE TRIGGER "configuration_versions_immutable";
--> statement-breakpoint
UPDATE "configuration_versions"
SET "document" = "document" || '{"tierLimits":{"1":{"P1D":"2999","P30D":"10000","P180D":"18000"},"2":{"P1D":"10000","P30D":"25000","P180D":"60000"}}}'::jsonb
WHERE "document" -> 'tierLimits' IS NULL;
--> statement-breakpoint
ALTER TABLE "configuration_versions" ENABLE TRIGGER "configuration_versions_immutable";
