CREATE TABLE "configuration_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"document" jsonb NOT NULL,
	"note" text NOT NULL,
	"proposed_by_email" text NOT NULL,
	"approved_by_email" text NOT NULL,
	"proposal_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- A configuration version is never edited, only superseded by a later one: quotes priced under it stay explainable.
CREATE OR REPLACE FUNCTION configuration_versions_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'configuration_versions are never changed: approve a new version to supersede one';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER configuration_versions_immutable BEFORE UPDATE OR DELETE ON "configuration_versions" FOR EACH ROW EXECUTE FUNCTION configuration_versions_refuse_change();

--> statement-breakpoint
-- Version 1: the shipped corridors and prices (data/corridors/v2.json without its file label), so that every
-- database starts with the configuration quotes are priced under (test/unit/db/configuration-versions.test.ts
-- checks this copy equals the file). In force from the epoch: nothing was priced by the database before it.
INSERT INTO "configuration_versions" ("version", "effective_at", "document", "note", "proposed_by_email", "approved_by_email", "proposal_id", "created_at")
VALUES (1, to_timestamp(0), $seed${"$comment":"Sandbox corridors of decisions.md section 6; v2 adds minimumOriginAmount (issue 20): the smallest originAmount quoted, so that the principal fee is at most 20% of it, rounded up to a whole 5. Versioned data: never edit a published version in place; copy to the next vN.json, change it there and point lib/payments/corridors/corridors.ts at it, so quotes priced under v1 stay explainable. Money values are decimal strings in the origin currency; fxTolerance and referenceRate.amplitude are fractions (0.005 = 0.5%). referenceRate.mid is destination units per origin unit. EUR/XOF is pegged (655.957), hence amplitude 0.","corridors":[{"code":"US-MX","originCountry":{"alpha2":"US","alpha3":"USA"},"destinationCountry":{"alpha2":"MX","alpha3":"MEX"},"originCurrency":"USD","destinationCurrency":"MXN","payoutMethods":["bank_account","cash_pickup"],"principalFee":"2.99","minimumOriginAmount":"15.00","partnerFeeCap":"10.00","fxTolerance":"0.005","reviewThreshold":"1000","referenceRate":{"source":"sandbox","mid":"18.75","amplitude":"0.002"},"bankAccount":{"format":"CLABE","description":"CLABE, 18 digits with check digit"}},{"code":"US-PH","originCountry":{"alpha2":"US","alpha3":"USA"},"destinationCountry":{"alpha2":"PH","alpha3":"PHL"},"originCurrency":"USD","destinationCurrency":"PHP","payoutMethods":["bank_account","wallet_transfer","cash_pickup"],"principalFee":"2.99","minimumOriginAmount":"15.00","partnerFeeCap":"10.00","fxTolerance":"0.005","reviewThreshold":"1000","referenceRate":{"source":"sandbox","mid":"56.20","amplitude":"0.002"},"bankAccount":{"format":"DIGITS_10_16","description":"Account number, 10 to 16 digits"}},{"code":"GB-NG","originCountry":{"alpha2":"GB","alpha3":"GBR"},"destinationCountry":{"alpha2":"NG","alpha3":"NGA"},"originCurrency":"GBP","destinationCurrency":"NGN","payoutMethods":["bank_account","mobile_money"],"principalFee":"1.99","minimumOriginAmount":"10.00","partnerFeeCap":"8.00","fxTolerance":"0.01","reviewThreshold":"1000","referenceRate":{"source":"sandbox","mid":"2050.00","amplitude":"0.002"},"bankAccount":{"format":"NUBAN","description":"NUBAN, 10 digits"}},{"code":"FR-SN","originCountry":{"alpha2":"FR","alpha3":"FRA"},"destinationCountry":{"alpha2":"SN","alpha3":"SEN"},"originCurrency":"EUR","destinationCurrency":"XOF","payoutMethods":["bank_account","mobile_money"],"principalFee":"2.50","minimumOriginAmount":"15.00","partnerFeeCap":"8.00","fxTolerance":"0.005","reviewThreshold":"1000","referenceRate":{"source":"sandbox","mid":"655.957","amplitude":"0"},"bankAccount":{"format":"IBAN_SN","description":"IBAN (SN, 28 characters)"}},{"code":"ES-CO","originCountry":{"alpha2":"ES","alpha3":"ESP"},"destinationCountry":{"alpha2":"CO","alpha3":"COL"},"originCurrency":"EUR","destinationCurrency":"COP","payoutMethods":["bank_account","cash_pickup"],"principalFee":"2.50","minimumOriginAmount":"15.00","partnerFeeCap":"8.00","fxTolerance":"0.005","reviewThreshold":"1000","referenceRate":{"source":"sandbox","mid":"4550.00","amplitude":"0.002"},"bankAccount":{"format":"DIGITS_6_20","description":"Account number, 6 to 20 digits"}}]}$seed$::jsonb, 'The shipped corridors and prices (data/corridors/v2.json).', 'system (shipped seed)', 'system (shipped seed)', NULL, now())
ON CONFLICT DO NOTHING;
