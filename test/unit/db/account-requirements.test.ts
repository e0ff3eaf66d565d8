/**
 * Account requirements as data, and the originator data that must travel (PGlite; PostgreSQL with
 * TEST_DB_URL): every shipped corridor's methods have requirements that the demo's payout methods
 * (the sandbox identifiers) meet, and submit validates against the same data; a 1,500 USD transfer
 * whose customer has no date of birth is refused at submit naming the field, and a GBP one is
 * compared once converted into the threshold's currency.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { customers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import { freshDb } from "../../support/db";
import { insertBeneficiary, insertTestTransfer, newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

const PROFILE = {
  firstName: "John",
  lastName: "Public",
  dateOfBirth: "1980-02-29",
  nationality: "USA",
  residenceCountry: "USA",
  residenceAddress: { addressLine1: "1 Main Street", city: "Springfield", postalCode: "12345", region: "IL", country: "USA" },
};

describe("account requirements", () => {
  test("every shipped corridor's methods have requirements, and the demo's payout methods meet them (as submit's format check does)", async () => {
    const { listCorridors } = await import("@/lib/payments/corridors/corridors");
    const { accountRequirements, destinationIssue, requirementFor } = await import("@/lib/payments/payout-identifiers/account-requirements");
    const { sandboxTestIdentifiers } = await import("@/lib/payments/payout-identifiers/sandbox-identifiers");
    const { checkIdentifierFormat } = await import("@/lib/payments/payout-identifiers/format-check");
    const { sandboxReferenceRates } = await import("@/lib/payments/pricing/reference-rate");
    let checked = 0;
    for (const c of listCorridors()) {
      const demo = sandboxTestIdentifiers[c.code as keyof typeof sandboxTestIdentifiers];
      for (const method of c.payoutMethods) {
        const r = requirementFor(c.destinationCountry.alpha2, c.destinationCurrency, method);
        assert.ok(r, `${c.code} ${method}`);
        const field = r.fields.find((f) => f.key === "destinationIdentifier")!;
        assert.ok(field.regex && field.required, `${c.code} ${method}: a required destination with a format`);
        assert.ok(r.fields.find((f) => f.key === "methodType")?.refreshRequirementsOnChange);
        const values: readonly string[] = method === "bank_account" ? demo.bankAccounts : method === "wallet_transfer" ? demo.wallets : demo.phones;
        assert.ok(values.length > 0, `${c.code} ${method}: demo values`);
        for (const v of values) {
          const { identifier } = checkIdentifierFormat({ methodType: r.methodType, destinationIdentifier: v, bankAccountFormat: c.bankAccount.format });
          assert.match(identifier, new RegExp(field.regex!), `${c.code} ${method} ${v}`);
          assert.equal(destinationIssue(c.code, method, identifier), null);
          checked++;
        }
      }
    }
    assert.ok(checked >= 25, `${checked} demo payout methods checked`);
    // Alpha-3 works too; the originator's data appears above the threshold only, the amount (in the
    // corridor's origin currency) converted into the threshold's (USD) at the reference rate.
    const context = { rates: async () => sandboxReferenceRates, now: clock.now() };
    const originatorOf = async (q: { country: string; currency: string; amount: string }) =>
      (await accountRequirements({ ...q, method: "bank_account" }, context))?.originator.map((o) => o.key);
    assert.deepEqual(await originatorOf({ country: "MEX", currency: "MXN", amount: "1000" }), []);
    assert.deepEqual(await originatorOf({ country: "MX", currency: "MXN", amount: "1500.00" }), ["dateOfBirth", "address", "identifier"]);
    // GB-NG sends GBP: 900 GBP is 1,143 USD (above), 750 GBP is 952.50 USD (not).
    assert.deepEqual(await originatorOf({ country: "NG", currency: "NGN", amount: "900" }), ["dateOfBirth", "address", "identifier"]);
    assert.deepEqual(await originatorOf({ country: "NG", currency: "NGN", amount: "750" }), []);
    assert.equal(await accountRequirements({ country: "MX", currency: "PHP", method: "bank_account" }, context), undefined);
    assert.match(destinationIssue("US-MX", "bank_account", "12345")?.message ?? "", /18-digit CLABE/);
  });
});

describe("originator data at submit", () => {
  let owner: Owner;
  before(async () => {
    owner = await newSubscription(db);
  });

  /**
   * A registered transfer of `originAmount` USD to MXN (at 18.75) submitted with a valid CLABE, or
   * (`gbp`) of GBP to NGN (GB-NG, at 2,000) with a valid NUBAN.
   */
  async function submitOf(originAmount: string, gbp = false) {
    const { submitTransfer } = await import("@/lib/payments/transfers/submit");
    const now = clock.now();
    const [currency, destination, rate, account] = gbp ? ["NGN", "GB-NG", "2000", "0123456785"] : ["MXN", "US-MX", "18.75", "002010077777777771"];
    const dest = new Decimal(originAmount).times(rate).toFixed(6);
    const { t, beneficiaryId } = await db.transaction(async (tx) => {
      const beneficiaryId = await insertBeneficiary(tx, owner, now);
      const total = new Decimal(originAmount).plus("2.99").toFixed(6);
      const t = await insertTestTransfer(tx, owner, now, beneficiaryId, {
        corridor: destination,
        priced: {
          originAmount: `${originAmount}.000000`,
          originCurrency: gbp ? "GBP" : "USD",
          destinationAmount: dest,
          destinationCurrency: currency,
          fxRate: new Decimal(rate).toFixed(6),
          principalFee: "2.990000",
          partnerFee: "0.000000",
          totalCustomerCost: total,
        },
      });
      return { t, beneficiaryId };
    });
    return db.transaction((tx) =>
      submitTransfer(tx, {
        subscriptionId: owner.subscriptionId,
        transferId: t.id,
        beneficiaryId,
        payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: account },
        purposeOfTransfer: "FAMILY_SUPPORT",
        now,
      }),
    );
  }

  const refusedForBirthDate = (e: unknown) => {
    assert.ok(e instanceof DomainError);
    assert.equal(e.code, "validation.fieldMissing");
    assert.equal(e.status, 400);
    assert.deepEqual(
      (e.details as { issues: { field: string }[] }).issues.map((i) => i.field),
      ["originator.dateOfBirth"],
    );
    return true;
  };

  test("a 1,500 USD transfer without the originator's date of birth is refused at submit naming the field; with it, accepted", async () => {
    const { dateOfBirth: _omitted, ...withoutBirth } = PROFILE;
    await db.update(customers).set({ profile: withoutBirth }).where(eq(customers.id, owner.customerId));
    await assert.rejects(submitOf("1500"), refusedForBirthDate);
    // At or under the threshold the same customer's transfer is accepted.
    assert.equal((await submitOf("1000")).transferStatus, "registered");
    await db.update(customers).set({ profile: PROFILE }).where(eq(customers.id, owner.customerId));
    assert.equal((await submitOf("1500")).transferStatus, "registered");
  });

  test("a GBP send amount is compared once converted into the threshold's USD: 900 GBP (1,143 USD) is refused without the date of birth, 750 GBP (952.50 USD) is not", async () => {
    const { dateOfBirth: _omitted, ...withoutBirth } = PROFILE;
    await db.update(customers).set({ profile: withoutBirth }).where(eq(customers.id, owner.customerId));
    await assert.rejects(submitOf("900", true), refusedForBirthDate);
    assert.equal((await submitOf("750", true)).transferStatus, "registered");
    await db.update(customers).set({ profile: PROFILE }).where(eq(customers.id, owner.customerId));
    assert.equal((await submitOf("900", true)).transferStatus, "registered");
  });

  test("a destination outside the requirements' format is refused at submit", async () => {
    const { submitTransfer } = await import("@/lib/payments/transfers/submit");
    const now = clock.now();
    const { t, beneficiaryId } = await db.transaction(async (tx) => {
      const beneficiaryId = await insertBeneficiary(tx, owner, now);
      return { t: await insertTestTransfer(tx, owner, now, beneficiaryId), beneficiaryId };
    });
    await assert.rejects(
      db.transaction((tx) =>
        submitTransfer(tx, {
          subscriptionId: owner.subscriptionId,
          transferId: t.id,
          beneficiaryId,
          payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: "1234567" },
          purposeOfTransfer: "FAMILY_SUPPORT",
          now,
        }),
      ),
      (e: unknown) => e instanceof DomainError && e.code === "validation.fieldFormatInvalid",
    );
  });
});
