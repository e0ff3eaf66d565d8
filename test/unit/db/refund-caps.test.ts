/**
 * Refunds capped by what the customer paid (docs/decisions.md "Refunds capped by
 * what was paid"), on PGlite and PostgreSQL: one unresolved claim per transfer and type (409
 * claim.alreadyOpen, also under 100 reports at once); a claim refund is refused above what the
 * customer paid less what is already owed or refunded; a payout returned after `paid` owes only
 * what claim refunds have not given back, and the books end balanced at zero owed.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { claimRefunds, claims, customers, payoutMethods, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { accountBalances } from "@/lib/finance/ledger";
import type { PricedColumns } from "@/lib/payments/pricing/priced-columns";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription, type Owner, insertBeneficiary } from "../../support/fixtures";
import { pain002 } from "../../support/iso20022";
import { refundOf } from "../../support/refunds";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  process.env.PAYOUT_BANKS = JSON.stringify([
    {
      id: "mxbank",
      name: "MX Payout Bank",
      bic: "BNMXMXMMXXX",
      debtorAccount: { scheme: "CLABE", id: "002010077777777771" },
      debtorName: "Remit Ltd",
      currencies: ["MXN"],
      chargeBearer: "SHAR",
      purposeCode: "FAMI",
    },
  ]);
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
  await db
    .update(customers)
    .set({
      profile: {
        firstName: "John",
        lastName: "Public",
        dateOfBirth: "1980-02-29",
        nationality: "USA",
        residenceCountry: "USA",
        residenceAddress: { addressLine1: "1 Main Street", city: "Springfield", postalCode: "12345", region: "IL", country: "USA" },
      },
    })
    .where(eq(customers.id, owner.customerId));
});
after(() => close());

/** USD `origin` + 2.99 fee to MXN at 18.75. */
const priced = (origin: string, destination: string, total: string): PricedColumns => ({
  originAmount: origin,
  originCurrency: "USD",
  destinationAmount: destination,
  destinationCurrency: "MXN",
  fxRate: "18.750000",
  principalFee: "2.990000",
  partnerFee: "0.000000",
  totalCustomerCost: total,
});

/** A transfer funded by card, to a beneficiary with a CLABE (so it can go into a payout file). */
async function funded(terms: PricedColumns): Promise<string> {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  const now = clock.now();
  const beneficiaryId = await insertBeneficiary(db, owner, now, { lastName: "Ruiz", countryOfResidence: "MEX" });
  const methodId = newId("pm");
  await db.insert(payoutMethods).values({
    id: methodId,
    beneficiaryId,
    methodType: "BANK_TRANSFER",
    corridor: "US-MX",
    destinationIdentifierEncrypted: (await destinationCipher(db)).encrypt("002010077777777771", methodId),
    destinationIdentifierMasked: "****7771",
    addedAt: now,
  });
  const created = await db.transaction((tx) => insertTestTransfer(tx, owner, now, beneficiaryId, { priced: terms }));
  await db.update(transfers).set({ payoutMethodId: methodId }).where(eq(transfers.id, created.id));
  await db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, created.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    await transitionTransfer(tx, funding, "funding.succeeded", now, { fundedFrom: "cash:card-clearing" });
  });
  return created.id;
}

async function report(transferId: string, type: "NOT_RECEIVED" | "WRONG_AMOUNT" = "WRONG_AMOUNT") {
  const { reportClaim } = await import("@/lib/payments/claims/claims");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return inUnit(({ tx }) => reportClaim(tx, { subscriptionId: owner.subscriptionId, transferId, type, description: "Less arrived", now: clock.now() }), { db });
}

async function resolve(claimId: string, outcome: "REFUND" | "NO_ERROR", amount?: string) {
  const { resolveClaim } = await import("@/lib/payments/claims/claims");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return inUnit(({ tx }) => resolveClaim(tx, { claimId, outcome, amount, notice: "Our answer", operatorEmail: "admin@example.com", now: clock.now() }), { db });
}

/** What the books owe the customer of the transfer (refund-due's credit balance), in cents. */
const owed = async (transferId: string) => -((await accountBalances(db, { transferId })).find((b) => b.code === "transfer:refund-due")?.balance ?? 0n);
const claimRefundsOf = (transferId: string) => db.select().from(claimRefunds).where(eq(claimRefunds.transferId, transferId));

test("one unresolved claim per transfer and type: 100 reports at once leave one OPEN, the others 409 claim.alreadyOpen", async () => {
  const transferId = await funded(priced("100.000000", "1875.000000", "102.990000"));
  const answers = await Promise.allSettled(Array.from({ length: 100 }, () => report(transferId, "NOT_RECEIVED")));
  const opened = answers.filter((a) => a.status === "fulfilled");
  assert.equal(opened.length, 1);
  for (const a of answers) {
    if (a.status === "rejected") {
      assert.ok(a.reason instanceof DomainError && a.reason.code === "claim.alreadyOpen" && a.reason.status === 409, String(a.reason));
      assert.equal((a.reason.details as { claimId: string }).claimId, opened[0].status === "fulfilled" ? opened[0].value.claimId : "");
    }
  }
  const rows = await db.select().from(claims).where(eq(claims.transferId, transferId));
  assert.deepEqual(
    rows.map((c) => [c.type, c.state]),
    [["NOT_RECEIVED", "OPEN"]],
  );
  // Another type is a claim of its own; once the first is resolved, a new one of its type may be made.
  await report(transferId, "WRONG_AMOUNT");
  await resolve(rows[0].id, "NO_ERROR");
  await report(transferId, "NOT_RECEIVED");
  assert.equal((await db.select().from(claims).where(eq(claims.transferId, transferId))).length, 3);
});

test("a transfer refunded 52.99 USD in full: five claims resolved at 52.99 are each refused, nothing more is owed", async () => {
  const transferId = await funded(priced("50.000000", "937.500000", "52.990000"));
  const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const cancelled = await inUnit(
    ({ tx }) => cancelTransfer(tx, { subscriptionId: owner.subscriptionId, transferId, cancellationReason: "Changed my mind", now: clock.now() }),
    { db },
  );
  assert.equal(cancelled.refund?.refundAmount, "52.990000");
  assert.equal(await owed(transferId), 5299n);
  for (let i = 0; i < 5; i++) {
    const claim = await report(transferId);
    await assert.rejects(resolve(claim.claimId, "REFUND", "52.99"), (e: unknown) => {
      assert.ok(e instanceof DomainError && e.code === "validation.fieldInvalid" && e.status === 400, String(e));
      assert.match(
        e.message + JSON.stringify(e.details),
        /Nothing more can be refunded: the customer paid 52\.99 USD and 52\.99 USD is already owed or refunded/,
      );
      return true;
    });
    // Refused: the claim is still open, so the operator answers it otherwise.
    await resolve(claim.claimId, "NO_ERROR");
  }
  assert.deepEqual(await claimRefundsOf(transferId), []);
  assert.equal(await owed(transferId), 5299n, "what the customer paid, once");
});

test("claims together never owe more than was paid: 40.00 then 12.99 of 52.99, then 0.01 more is refused", async () => {
  const transferId = await funded(priced("50.000000", "937.500000", "52.990000"));
  await resolve((await report(transferId)).claimId, "REFUND", "40.00");
  const second = await report(transferId);
  await assert.rejects(resolve(second.claimId, "REFUND", "13.00"), (e: unknown) => {
    assert.ok(e instanceof DomainError && e.code === "validation.fieldInvalid");
    assert.match(JSON.stringify(e.details), /At most 12\.99 USD: the customer paid 52\.99 USD and 40\.00 USD is already owed or refunded/);
    return true;
  });
  await resolve(second.claimId, "REFUND", "12.99");
  await assert.rejects(resolve((await report(transferId)).claimId, "REFUND", "0.01"), DomainError);
  assert.equal(await owed(transferId), 5299n);
  // Cancelled now (within its 30 minutes): the refund gives back nothing more, and none is started.
  const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const cancelled = await inUnit(
    ({ tx }) => cancelTransfer(tx, { subscriptionId: owner.subscriptionId, transferId, cancellationReason: "Changed my mind", now: clock.now() }),
    { db },
  );
  assert.equal(cancelled.refund, null);
  assert.equal(await refundOf(db, transferId), null);
  assert.equal(await owed(transferId), 5299n, "the claim refunds owed, not twice");
  const expense = (await accountBalances(db, { transferId })).find((b) => b.code === "expense:claims")?.balance ?? 0n;
  assert.equal(expense, 0n, "the claims' cost is recovered: the customer's own money pays them back");
});

test("an AC04 return after paid on a transfer refunded 10.00 on a claim owes 93.99, not 103.99; paid, nothing is owed", async () => {
  const transferId = await funded(priced("101.000000", "1893.750000", "103.990000"));
  const { generatePayoutFiles } = await import("@/lib/payments/payouts/generate");
  const { importPaymentStatusReport } = await import("@/lib/payments/payouts/status-import");
  const importReport = (xml: string) => db.transaction((tx) => importPaymentStatusReport(tx, { xml, now: clock.now() }));
  const files = await db.transaction((tx) => generatePayoutFiles(tx, { now: clock.now(), partnerId: owner.partnerId }));
  assert.equal(files.length, 1);
  assert.equal((await importReport(pain002("CAP-1", files[0].id, [{ endToEndId: transferId, status: "ACSC" }]))).applied, 1);
  assert.equal((await db.select().from(transfers).where(eq(transfers.id, transferId)))[0].state, "paid");

  await resolve((await report(transferId)).claimId, "REFUND", "10.00");
  assert.equal(await owed(transferId), 1000n);
  assert.equal((await importReport(pain002("CAP-2", files[0].id, [{ endToEndId: transferId, status: "RJCT", reason: "AC04" }]))).applied, 1);

  const refund = await refundOf(db, transferId);
  assert.equal(Number(refund?.amount), 93.99);
  const { transferDetail } = await import("@/lib/payments/transfers/view");
  const detail = await transferDetail(db, (await db.select().from(transfers).where(eq(transfers.id, transferId)))[0]);
  assert.equal(detail.refund?.refundAmount, "93.990000");
  assert.equal(await owed(transferId), 10399n, "93.99 refund + 10.00 claim refund: what the customer paid");

  // Both paid: nothing owed, and the claim cost came back out of the returned money.
  const { moveRefund } = await import("@/lib/payments/transfers/refunds");
  const { payClaimRefund } = await import("@/lib/payments/claims/claim-refunds");
  const { lockTransfer } = await import("@/lib/payments/transfers/records");
  const [claimRefund] = await claimRefundsOf(transferId);
  await db.transaction(async (tx) => {
    const t = (await lockTransfer(tx, transferId))!;
    await moveRefund(tx, t, "operator.paid", clock.now(), { bankReference: "RET-1" });
    await payClaimRefund(tx, { transfer: t, claimRefundId: claimRefund.id, bankReference: "CLM-1", now: clock.now() });
  });
  const balances = Object.fromEntries((await accountBalances(db, { transferId })).map((b) => [`${b.code} ${b.currency}`, b.balance]));
  assert.equal(balances["transfer:refund-due USD"] ?? 0n, 0n);
  assert.equal(balances["expense:claims USD"] ?? 0n, 0n);
  assert.equal(balances["cash:card-clearing USD"] ?? 0n, 0n, "in 103.99, out 93.99 + 10.00");
  // And no claim can owe more now.
  await assert.rejects(resolve((await report(transferId, "NOT_RECEIVED")).claimId, "REFUND", "0.01"), DomainError);
});
