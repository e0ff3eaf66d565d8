import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "@/lib/platform/config";
import { productionEnv } from "../../support/production-env";

/** The collection account customers pay into by bank transfer. */
describe("collection account settings", () => {
  test("production with FUNDING_PROVIDER=bank-transfer reads all four, IBAN in electronic form", () => {
    const c = loadConfig({ ...productionEnv, COLLECTION_ACCOUNT_IBAN: "GB33 BUKB 2020 1555 5555 55" });
    assert.equal(c.providers.funding, "bank-transfer");
    assert.deepEqual(c.collectionAccount, {
      iban: "GB33BUKB20201555555555",
      bic: "BUKBGB22",
      name: "Remit Ltd Client Money",
      currencies: ["USD", "EUR", "GBP"],
      // Its calendar: the IBAN's country, the bank's zone (UTC unless set).
      country: "GB",
      timeZone: "UTC",
    });
  });

  test("each missing setting is one refusal line naming it", () => {
    for (const name of ["COLLECTION_ACCOUNT_IBAN", "COLLECTION_ACCOUNT_BIC", "COLLECTION_ACCOUNT_NAME", "COLLECTION_ACCOUNT_CURRENCY"]) {
      const env = { ...productionEnv };
      delete env[name];
      assert.throws(() => loadConfig(env), new RegExp(`FUNDING_PROVIDER=bank-transfer needs ${name}`));
    }
  });

  test("an IBAN with a wrong check digit, a malformed BIC or an unknown currency is refused", () => {
    assert.throws(() => loadConfig({ ...productionEnv, COLLECTION_ACCOUNT_IBAN: "GB34BUKB20201555555555" }), /COLLECTION_ACCOUNT_IBAN: not a valid IBAN/);
    assert.throws(() => loadConfig({ ...productionEnv, COLLECTION_ACCOUNT_BIC: "BUK1" }), /COLLECTION_ACCOUNT_BIC: not a valid BIC/);
    assert.throws(() => loadConfig({ ...productionEnv, COLLECTION_ACCOUNT_CURRENCY: "USD,ABC" }), /COLLECTION_ACCOUNT_CURRENCY/);
  });

  test("the sandbox has a collection account of its own (the README's defaults)", () => {
    assert.deepEqual(loadConfig({}).collectionAccount, {
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      name: "Remit Sandbox Collections",
      currencies: ["EUR", "GBP", "USD"],
      country: "DE",
      timeZone: "UTC",
    });
    assert.equal(loadConfig({ COLLECTION_ACCOUNT_TIME_ZONE: "Europe/Berlin" }).collectionAccount?.timeZone, "Europe/Berlin");
    assert.throws(() => loadConfig({ COLLECTION_ACCOUNT_TIME_ZONE: "Mars/Olympus" }), /COLLECTION_ACCOUNT_TIME_ZONE/);
  });
});
