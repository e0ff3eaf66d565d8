/**
 * Account requirements as data, and the originator data that must travel (PGlite; PostgreSQL with
 * TEST_DB_URL): every shipped corridor's methods have requirements that the demo's payout methods
 * (the sandbox identifiers) meet, and submit validates against the same data; a 1,500 USD transfer
 * whose customer has no date of birth is refused at submit naming the field.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { customers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
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
    const { accountRequirements, destinationIssue } = await import("@/lib/payments/payout-identifiers/account-requirements");
    const { sandboxTestIdentifiers } = await import("@/lib/payments/payout-identifiers/sandbox-identifiers");
    const { checkIdentifierFormat } = await import("@/lib/payments/payout-identifiers/format-check");
    let checked = 0;
    for (const c of listCorridors()) {
      const demo = sandboxTestIdentifiers[c.code as keyof typeof sandboxTestIdentifiers];
      for (const method of c.payoutMethods) {
        const r = accountRequirements({ country: c.destinationCountry.alpha2, currency: c.destinationCurrency, method });
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
    // Alpha-3 works too; the originator's data appears above the threshold only.
    assert.deepEqual(accountRequirements({ country: "MEX", currency: "MXN", method: "bank_account", amount: "1000" })?.originator, []);
    assert.deepEqual(
      accountRequirements({ country: "MX", currency: "MXN", method: "bank_account", amount: "1500.00" })?.originator.map((o) => o.key),
      ["dateOfBirth", "address", "identifier"],
    );
    assert.equal(accountRequirements({ country: "MX", currency: "PHP", method: "bank_account" }), undefined);
    assert.match(destinationIssue("US-MX", "bank_account", "12345")?.message ?? "", /18-digit CLABE/);
  });
});

describe("originator data at submit", () => {
  let owner: Owner;
  before(async () => {
    owner = await newSubscription(db);
  });

  /** A registered transfer of `originAmount` USD to MXN (at 18.75), submitted with a valid CLABE. */
  async function submitOf(originAmount: string) {
    const { submitTransfer } = await import("@/lib/payments/transfers/submit");
    const now = clock.now();
    const dest = (Number(originAmount) * 18.75).toFixed(6);
    const { t, beneficiaryId } = await db.transaction(async (tx) => {
      const beneficiaryId = await insertBeneficiary(tx, owner, now);
      const total = (Number(originAmount) + 2.99).toFixed(6);
      const t = await insertTestTransfer(tx, owner, now, beneficiaryId, {
        priced: {
          originAmount: `${originAmount}.000000`,
          originCurrency: "USD",
          destinationAmount: dest,
          destinationCurrency: "MXN",
          fxRate: "18.750000",
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
        payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: "002010077777777771" },
        purposeOfTransfer: "FAMILY_SUPPORT",
        now,
      }),
    );
  }

  test("a 1,500 USD transfer without the originator's date of birth is refused at submit naming the field; with it, accepted", async () => {
    const { dateOfBirth: _omitted, ...withoutBirth } = PROFILE;
    await db.update(customers).set({ profile: withoutBirth }).where(eq(customers.id, owner.customerId));
    await assert.rejects(submitOf("1500"), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, "validation.fieldMissing");
      assert.equal(e.status, 400);
      assert.deepEqual(
        (e.details as { issues: { field: string }[] }).issues.map((i) => i.field),
        ["originator.dateOfBirth"],
      );
      return true;
    });
    // At or under the threshold the same customer's transfer is accepted.
    assert.equal((await submitOf("1000")).transferStatus, "registered");
    await db.update(customers).set({ profile: PROFILE }).where(eq(customers.id, owner.customerId));
    assert.equal((await submitOf("1500")).transferStatus, "registered");
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
