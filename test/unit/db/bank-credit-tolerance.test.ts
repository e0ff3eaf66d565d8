/**
 * Bank money as it really arrives on a real database (PGlite; PostgreSQL with
 * TEST_DB_URL), with BANK_CREDIT_SHORTFALL_TOLERANCE USD=0.05: a credit short within the tolerance
 * funds its transfer and the shortfall is written off (balanced, suspense back to zero); a credit
 * short by more waits, and a second credit with the same reference tops it up; an operator's
 * match of a short credit within tolerance writes off too, beyond it is refused.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { freshDb } from "../../support/db";
import type { TestCredit } from "../../support/camt053";
import { bankCreditModules, fundingTransferIn, importCreditsIn } from "./support/bank-credits";
import { newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
let seq = 0;

before(async () => {
  process.env.BANK_CREDIT_SHORTFALL_TOLERANCE = "USD=0.05, EUR=0.02";
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

const mod = bankCreditModules;
const fundingTransfer = (now = new Date()) => fundingTransferIn(db, owner, now);
const importCredits = (credits: TestCredit[], now = new Date()) => importCreditsIn(db, credits, `STMT-T-${++seq}`, now);

const stateOf = async (transferId: string) => {
  const { schema } = await mod();
  return (await db.select().from(schema.transfers).where(eq(schema.transfers.id, transferId)))[0];
};
const credit = async (bankReference: string) => {
  const { schema } = await mod();
  return (await db.select().from(schema.bankCredits).where(eq(schema.bankCredits.bankReference, bankReference)))[0];
};
const balanceOf = async (code: "suspense:unallocated" | "expense:write-offs", currency = "USD") => {
  const m = await mod();
  const [acct] = await m.accountBalances(db, { code, currency });
  return acct?.balance ?? 0n;
};
const ref = () => `TOL-${process.pid}-${++seq}`;

describe("bank credits short within the tolerance (issue 24 item 7)", () => {
  test("the tolerance is read per currency; a bad value stops the process", async () => {
    const { loadConfig } = await import("@/lib/platform/config");
    assert.deepEqual(loadConfig({ BANK_CREDIT_SHORTFALL_TOLERANCE: "usd=0.05,EUR=0.02" }).BANK_CREDIT_SHORTFALL_TOLERANCE, { USD: "0.05", EUR: "0.02" });
    assert.deepEqual(loadConfig({}).BANK_CREDIT_SHORTFALL_TOLERANCE, {});
    for (const bad of ["USD", "USD=0.001", "XXY=1", "USD=-1", "JPY=0.5"]) {
      assert.throws(() => loadConfig({ BANK_CREDIT_SHORTFALL_TOLERANCE: bad }), /BANK_CREDIT_SHORTFALL_TOLERANCE/, bad);
    }
  });

  test("a credit one cent short funds the transfer; the cent is written off and suspense nets to zero", async () => {
    const m = await mod();
    const t = await fundingTransfer();
    const [suspenseBefore, writeOffsBefore] = [await balanceOf("suspense:unallocated"), await balanceOf("expense:write-offs")];
    const bank = ref();
    assert.deepEqual(await importCredits([{ bankReference: bank, amount: "102.98", currency: "USD", reference: t.reference }]), {
      entries: 1,
      matched: 1,
      unmatched: 0,
      duplicates: 0,
    });
    assert.notEqual((await stateOf(t.transferId)).state, "funding");
    const c = await credit(bank);
    assert.deepEqual([c.state, c.appliedAmount, c.writtenOffAmount], ["MATCHED", "102.98", "0.01"]);
    assert.equal(await balanceOf("suspense:unallocated"), suspenseBefore);
    assert.equal(await balanceOf("expense:write-offs"), writeOffsBefore + 1n);
    const kinds = (await m.transferEntries(db, t.transferId)).map((e) => e.kind);
    assert.ok(kinds.includes("bank.credit.shortfallWrittenOff"), kinds.join());
    const [customerFunds] = await m.accountBalances(db, { code: "transfer:customer-funds", transferId: t.transferId });
    assert.equal(customerFunds.balance, -10299n, "the customer's funds are the whole sum due");
  });

  test("a transfer funded short and then cancelled refunds what the customer paid and reverses the write-off (balanced)", async () => {
    const m = await mod();
    const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
    const { moveRefund } = await import("@/lib/payments/transfers/refunds");
    const t = await fundingTransfer();
    const writeOffsBefore = await balanceOf("expense:write-offs");
    assert.equal((await importCredits([{ bankReference: ref(), amount: "102.98", currency: "USD", reference: t.reference }])).matched, 1);
    assert.equal(await balanceOf("expense:write-offs"), writeOffsBefore + 1n);
    const cancelled = await db.transaction((tx) =>
      cancelTransfer(tx, { subscriptionId: owner.subscriptionId, transferId: t.transferId, cancellationReason: "CUSTOMER_REQUEST", now: new Date() }),
    );
    assert.equal(cancelled.refund?.refundAmount, "102.980000", "what the customer paid, not the 102.99 due (wire form)");
    const refundDue = async () => (await m.accountBalances(db, { code: "transfer:refund-due", transferId: t.transferId }))[0]?.balance ?? 0n;
    assert.equal(await refundDue(), -10298n);
    assert.equal(await balanceOf("expense:write-offs"), writeOffsBefore, "the write-off is reversed");
    await db.transaction(async (tx) => moveRefund(tx, (await m.lockTransfer(tx, t.transferId))!, "operator.paid", new Date(), { bankReference: "RFD-T-1" }));
    assert.equal(await refundDue(), 0n);
    const entries = await m.transferEntries(db, t.transferId);
    const paid = entries.find((e) => e.kind === "refund.paid")!;
    assert.equal(
      paid.lines.reduce((sum, l) => sum + l.credit, 0n),
      10298n,
      "the refund paid is 102.98",
    );
    for (const e of entries) {
      const sums = new Map<string, bigint>();
      for (const l of e.lines) sums.set(l.currency, (sums.get(l.currency) ?? 0n) + l.debit - l.credit);
      for (const [currency, sum] of sums) assert.equal(sum, 0n, `${e.kind} ${currency}`);
    }
  });

  test("short by more than the tolerance waits; a second credit with the same reference tops it up before the session ends", async () => {
    const t = await fundingTransfer();
    const first = ref();
    const second = ref();
    const suspenseBefore = await balanceOf("suspense:unallocated");
    assert.equal((await importCredits([{ bankReference: first, amount: "100.00", currency: "USD", reference: t.reference }])).unmatched, 1);
    assert.deepEqual([(await credit(first)).state, (await credit(first)).reason], ["QUEUED", "PARTIAL"]);
    assert.equal((await stateOf(t.transferId)).state, "funding");
    // 100.00 + 2.97 = 102.97: two cents short, within the tolerance.
    assert.equal((await importCredits([{ bankReference: second, amount: "2.97", currency: "USD", reference: t.reference }])).matched, 1);
    assert.notEqual((await stateOf(t.transferId)).state, "funding");
    const [a, b] = [await credit(first), await credit(second)];
    assert.deepEqual([a.state, a.appliedAmount, a.reason], ["MATCHED", "100.00", null]);
    assert.deepEqual([b.state, b.appliedAmount, b.writtenOffAmount], ["MATCHED", "2.97", "0.02"]);
    assert.equal(await balanceOf("suspense:unallocated"), suspenseBefore);
  });

  test("a short credit, then the full amount paid again: the full one funds alone; the short one waits in the queue to be returned", async () => {
    const t = await fundingTransfer();
    const [short, full] = [ref(), ref()];
    assert.equal((await importCredits([{ bankReference: short, amount: "100.00", currency: "USD", reference: t.reference }])).unmatched, 1);
    assert.equal((await importCredits([{ bankReference: full, amount: "102.99", currency: "USD", reference: t.reference }])).matched, 1);
    assert.notEqual((await stateOf(t.transferId)).state, "funding");
    const [a, b] = [await credit(short), await credit(full)];
    assert.deepEqual([a.state, a.reason], ["QUEUED", "PARTIAL"]);
    assert.deepEqual([b.state, b.appliedAmount, b.writtenOffAmount], ["MATCHED", "102.99", null]);
  });

  test("an operator matches a queued short credit within tolerance (written off); beyond it is refused", async () => {
    const m = await mod();
    const t = await fundingTransfer();
    const u = await fundingTransfer();
    const near = ref();
    const far = ref();
    await importCredits([
      { bankReference: near, amount: "102.95", currency: "USD" },
      { bankReference: far, amount: "102.90", currency: "USD" },
    ]);
    const nearCredit = await credit(near);
    const result = await db.transaction((tx) => m.matchBankCredit(tx, { creditId: nearCredit.id, transferId: t.transferId, operatorId: "op_1" }, new Date()));
    assert.equal(result.writtenOff, "0.04");
    assert.equal(result.excess, "0.00");
    assert.deepEqual([(await credit(near)).state, (await credit(near)).writtenOffAmount], ["MATCHED", "0.04"]);
    const farId = (await credit(far)).id;
    await assert.rejects(
      db.transaction((tx) => m.matchBankCredit(tx, { creditId: farId, transferId: u.transferId, operatorId: "op_1" }, new Date())),
      (e: Error & { code?: string }) => e.code === "validation.fieldInvalid" && /by more than the 0.05 USD tolerance/.test(e.message),
    );
    assert.equal((await stateOf(u.transferId)).state, "funding");
  });

  test("search finds credits in every state by amount (as a decimal), payer, reference and booking date", async () => {
    const { searchBankCredits, creditSearchOf } = await import("@/lib/payments/reconciliation/search");
    const t = await fundingTransfer();
    const [matched, stray] = [ref(), ref()];
    await importCredits([
      { bankReference: matched, amount: "102.99", currency: "USD", reference: t.reference },
      { bankReference: stray, amount: "33.3", currency: "USD", text: "rent november" },
    ]);
    const find = async (raw: Record<string, string>) => (await searchBankCredits(db, creditSearchOf(raw))).items.map((c) => c.bankReference);
    assert.ok((await find({ amount: "33.30" })).includes(stray), "33.3 found as 33.30");
    assert.ok(!(await find({ amount: "33.31" })).includes(stray));
    assert.ok((await find({ payer: "maria" })).includes(stray), "payer name, any case");
    assert.ok((await find({ reference: "RENT Nov" })).includes(stray), "remittance text");
    assert.ok((await find({ reference: t.reference.slice(0, 12) })).includes(matched), "part of the RF reference");
    assert.ok((await find({ reference: matched })).includes(matched), "the bank's entry reference");
    assert.ok((await find({ from: "2026-11-20", to: "2026-11-20", state: "MATCHED" })).includes(matched), "matched credits are history too");
    assert.ok(!(await find({ from: "2026-11-21" })).includes(matched));
    assert.ok(!(await find({ state: "QUEUED", reference: matched })).includes(matched));
  });

  test("search by amount finds a credit older than the newest thousand", async () => {
    const { searchBankCredits, creditSearchOf } = await import("@/lib/payments/reconciliation/search");
    const { schema } = await mod();
    const old = ref();
    await importCredits([{ bankReference: old, amount: "44.4", currency: "USD", text: "old stray" }], new Date("2026-01-02T00:00:00Z"));
    const row = await credit(old);
    const later = new Date(Date.now() + 60_000);
    await db
      .insert(schema.bankCredits)
      .values(Array.from({ length: 1001 }, (_, i) => ({ ...row, id: `${row.id}-n${i}`, bankReference: `${old}-N${i}`, amount: "44.41", createdAt: later })));
    const found = await searchBankCredits(db, creditSearchOf({ amount: "44.40" }));
    assert.deepEqual(
      found.items.map((c) => c.bankReference),
      [old],
    );
    assert.equal(found.hasMore, false);
  });
});
