/**
 * At the domain level: a customer chooses bank transfer (RF reference), a
 * camt.053 statement funds the transfer through completeFunding with its ledger entries, a second
 * import changes nothing, and unmatched, over-paid, partial, wrong-currency and late credits wait
 * for an operator who matches or returns them (postings included).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { freshDb } from "../../support/db";
import { camt053, type TestCredit } from "../../support/camt053";
import { bankCreditModules, fundingTransferIn, importCreditsIn } from "./support/bank-credits";
import { newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
let seq = 0;

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

const mod = bankCreditModules;
const fundingTransfer = (now = new Date()) => fundingTransferIn(db, owner, now);
const importCredits = (credits: TestCredit[], now = new Date()) => importCreditsIn(db, credits, `STMT-${++seq}`, now);

async function stateOf(transferId: string) {
  const { schema } = await mod();
  const [t] = await db.select().from(schema.transfers).where(eq(schema.transfers.id, transferId));
  return t;
}

async function credit(bankReference: string) {
  const { schema } = await mod();
  const [c] = await db.select().from(schema.bankCredits).where(eq(schema.bankCredits.bankReference, bankReference));
  return c;
}

async function suspense(currency = "USD") {
  const m = await mod();
  const [acct] = await m.accountBalances(db, { code: "suspense:unallocated", currency });
  return acct?.balance ?? 0n;
}

const ref = () => `BANK-${process.pid}-${++seq}`;

/** The lines of the entry posted for `sourceKey`: [account, debit, credit] in minor units. */
async function entryLines(sourceKey: string) {
  const { schema } = await mod();
  const rows = await db
    .select({
      account: schema.ledgerAccounts.code,
      currency: schema.ledgerAccounts.currency,
      debit: schema.journalLines.debitMinor,
      credit: schema.journalLines.creditMinor,
    })
    .from(schema.journalEntries)
    .innerJoin(schema.journalLines, eq(schema.journalLines.entryId, schema.journalEntries.id))
    .innerJoin(schema.ledgerAccounts, eq(schema.ledgerAccounts.id, schema.journalLines.accountId))
    .where(eq(schema.journalEntries.sourceKey, sourceKey));
  return rows.map((r) => [r.account, r.currency, r.debit, r.credit]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

describe("bank transfer funding reconciled from camt.053", () => {
  test("the reference is ISO 11649, bound once per session, and the amount is the total in minor units", async () => {
    const m = await mod();
    const t = await fundingTransfer();
    assert.match(t.reference, /^RF\d{2}\d{18}$/);
    assert.equal(t.amount, "102.99");
    assert.equal(t.currency, "USD");
    assert.equal(t.collectionAccount.iban, "DE89370400440532013000");
    const again = await db.transaction(async (tx) => m.chooseBankTransfer(tx, (await m.lockFundingSession(tx, t.fundingSessionId))!, new Date()));
    assert.equal(again.reference, t.reference);
    assert.equal((await stateOf(t.transferId)).state, "funding");
  });

  test("a matching credit funds the transfer with its postings; the same file again changes nothing", async () => {
    const m = await mod();
    const t = await fundingTransfer();
    const before = await suspense();
    const bank = ref();
    const first = await importCredits([{ bankReference: bank, amount: "102.99", currency: "USD", reference: t.reference }]);
    assert.deepEqual(first, { entries: 1, matched: 1, unmatched: 0, duplicates: 0 });
    const funded = await stateOf(t.transferId);
    assert.notEqual(funded.state, "funding");
    assert.equal((await credit(bank)).state, "MATCHED");
    assert.equal(funded.fundedFrom, "suspense:unallocated", "funded from suspense (the funding.succeeded posting debits it)");
    assert.deepEqual(await entryLines(`bank-credit:${bank}`), [
      ["cash:collection", "USD", 10299n, 0n],
      ["suspense:unallocated", "USD", 0n, 10299n],
    ]);
    const entries = await m.transferEntries(db, t.transferId);
    const after = await suspense();

    const lines = (await m.trialBalance(db)).map((r) => [r.currency, r.debit === r.credit]);
    assert.ok(
      lines.every(([, balanced]) => balanced),
      JSON.stringify(lines),
    );
    const again = await importCredits([{ bankReference: bank, amount: "102.99", currency: "USD", reference: t.reference }]);
    assert.deepEqual(again, { entries: 1, matched: 0, unmatched: 0, duplicates: 1 });
    assert.equal((await m.transferEntries(db, t.transferId)).length, entries.length);
    assert.equal(await suspense(), after);
    assert.ok(after <= before, "suspense holds at most the credit");
  });

  test("a batch booking (one Ntry, several TxDtls) is one credit per transaction, each matched by its own reference (issue 20 item 8)", async () => {
    const a = await fundingTransfer();
    const b = await fundingTransfer();
    const bank = ref();
    const report = await importCredits([
      {
        bankReference: bank,
        amount: "225.98",
        currency: "USD",
        batch: [
          { amount: "102.99", reference: a.reference },
          { amount: "102.99", text: `for ${b.reference} thanks`, inDetails: true },
          { amount: "20.00", text: "no reference" },
        ],
      },
    ]);
    assert.deepEqual(report, { entries: 3, matched: 2, unmatched: 1, duplicates: 0 });
    assert.notEqual((await stateOf(a.transferId)).state, "funding");
    assert.notEqual((await stateOf(b.transferId)).state, "funding", "the second customer's payment funds its transfer");
    assert.equal((await credit(`${bank}/1`)).transferId, a.transferId);
    assert.equal((await credit(`${bank}/2`)).transferId, b.transferId);
    assert.equal((await credit(`${bank}/3`)).state, "QUEUED");
    assert.deepEqual(await entryLines(`bank-credit:${bank}/2`), [
      ["cash:collection", "USD", 10299n, 0n],
      ["suspense:unallocated", "USD", 0n, 10299n],
    ]);
  });

  test("a statement of another account than the collection account is refused whole, nothing imported (issue 20 item 8)", async () => {
    const m = await mod();
    const t = await fundingTransfer();
    const bank = ref();
    const credits = [{ bankReference: bank, amount: "102.99", currency: "USD", reference: t.reference }];
    for (const account of [{ iban: "GB33BUKB20201555555555" }, { otherAccount: "002010077777777771" }]) {
      const statement = await m.readCamt053(camt053(credits, { messageId: `STMT-${++seq}`, ...account }));
      await assert.rejects(
        db.transaction((tx) => m.importStatement(tx, statement, new Date())),
        (e: { code?: string; message?: string; details?: unknown }) =>
          e.code === "validation.fieldInvalid" &&
          /not the collection account DE\*\*\*\*3000/.test(e.message ?? "") &&
          JSON.stringify(e.details).includes("Stmt.Acct.Id"),
      );
    }
    assert.equal(await credit(bank), undefined);
    assert.equal((await stateOf(t.transferId)).state, "funding");
  });

  test("unmatched, partial, over-paid and wrong-currency credits wait in the queue with their reason", async () => {
    const t = await fundingTransfer();
    const before = await suspense();
    const [a, b, c, d] = [ref(), ref(), ref(), ref()];
    const report = await importCredits([
      { bankReference: a, amount: "50.00", currency: "USD", text: "for my cousin" },
      { bankReference: b, amount: "100.00", currency: "USD", reference: t.reference },
      { bankReference: c, amount: "110.00", currency: "USD", text: `payment ${t.reference}` },
      { bankReference: d, amount: "102.99", currency: "GBP", reference: t.reference },
    ]);
    assert.deepEqual(report, { entries: 4, matched: 0, unmatched: 4, duplicates: 0 });
    assert.deepEqual(await Promise.all([a, b, c, d].map(async (r) => [(await credit(r)).state, (await credit(r)).reason])), [
      ["QUEUED", "UNMATCHED"],
      ["QUEUED", "PARTIAL"],
      ["QUEUED", "OVERPAID"],
      ["QUEUED", "WRONG_CURRENCY"],
    ]);
    assert.equal((await stateOf(t.transferId)).state, "funding");
    assert.equal(await suspense(), before - 5000n - 10000n - 11000n, "every credit sits in suspense");
  });

  test("an operator matches an over-payment (the excess stays to return), returns it, and returns an unmatched credit", async () => {
    const m = await mod();
    const t = await fundingTransfer();
    const [over, stray] = [ref(), ref()];
    await importCredits([
      { bankReference: over, amount: "110.00", currency: "USD", reference: t.reference },
      { bankReference: stray, amount: "20.00", currency: "USD", text: "?" },
    ]);
    const overId = (await credit(over)).id;
    // Too little or the wrong transfer is refused; the credit stays queued.
    const strayId = (await credit(stray)).id;
    await assert.rejects(
      db.transaction((tx) => m.matchBankCredit(tx, { creditId: strayId, transferId: t.transferId, operatorId: "op" }, new Date())),
      /less than/,
    );
    const matched = await db.transaction((tx) => m.matchBankCredit(tx, { creditId: overId, transferId: t.transferId, operatorId: "op" }, new Date()));
    assert.equal(matched.after.state, "EXCESS");
    assert.equal(matched.excess, "7.01");
    assert.notEqual((await stateOf(t.transferId)).state, "funding");
    assert.equal((await stateOf(t.transferId)).fundedFrom, "suspense:unallocated");
    const back = await db.transaction((tx) => m.returnBankCredit(tx, { creditId: overId, operatorId: "op" }, new Date()));
    assert.equal(back.returned, "7.01");
    // Two steps. Requested: still listed, nothing posted until the bank executes it.
    assert.equal((await credit(over)).state, "RETURN_REQUESTED");
    assert.deepEqual(await entryLines(`bank-credit-return:${over}`), []);
    const strayBack = await db.transaction((tx) => m.returnBankCredit(tx, { creditId: strayId, operatorId: "op" }, new Date()));
    assert.equal(strayBack.returned, "20.00");
    const { bankCreditQueue } = await import("@/lib/payments/reconciliation/queue");
    const listed = (await bankCreditQueue(db, 1)).items.filter((c) => c.id === overId || c.id === strayId);
    assert.deepEqual(listed.map((c) => [c.state, c.toReturn]).sort(), [
      ["RETURN_REQUESTED", "20.00"],
      ["RETURN_REQUESTED", "7.01"],
    ]);
    // Executed with the bank's reference: posted, no longer listed.
    for (const [id, bankRef] of [
      [overId, "RET-OVER"],
      [strayId, "RET-STRAY"],
    ]) {
      const done = await db.transaction((tx) => m.executeBankCreditReturn(tx, { creditId: id, bankReference: bankRef, operatorId: "op" }, new Date()));
      assert.deepEqual([done.after.state, done.after.returnBankReference], ["RETURNED", bankRef]);
    }
    assert.deepEqual(
      (await bankCreditQueue(db, 1)).items.filter((c) => c.id === overId || c.id === strayId),
      [],
    );
    assert.deepEqual(await entryLines(`bank-credit-return:${over}`), [
      ["cash:collection", "USD", 0n, 701n],
      ["suspense:unallocated", "USD", 701n, 0n],
    ]);
    assert.deepEqual(await entryLines(`bank-credit-return:${stray}`), [
      ["cash:collection", "USD", 0n, 2000n],
      ["suspense:unallocated", "USD", 2000n, 0n],
    ]);
    // Decided once: a second return, or a second execution, is refused.
    await assert.rejects(
      db.transaction((tx) => m.returnBankCredit(tx, { creditId: overId, operatorId: "op" }, new Date())),
      (e: unknown) => (e as { code?: string }).code === "bankCredit.stateInvalid",
    );
    await assert.rejects(
      db.transaction((tx) => m.executeBankCreditReturn(tx, { creditId: overId, bankReference: "AGAIN", operatorId: "op" }, new Date())),
      (e: unknown) => (e as { code?: string }).code === "bankCredit.stateInvalid",
    );
  });

  test("an over-payment's return proposal names the excess returned, not the whole credit (issue 36 item 15)", async () => {
    const m = await mod();
    const { act } = await import("@/lib/operations/commands/run");
    const { inUnit } = await import("@/lib/platform/unit-of-work");
    const maker = { id: "op_maker36", email: "maker36@example.com", name: "Maker", role: "reviewer" as const };
    const t = await fundingTransfer();
    const [over, stray] = [ref(), ref()];
    // 104.00 paid for the 102.99 due: 1.01 over.
    await importCredits([
      { bankReference: over, amount: "104.00", currency: "USD", reference: t.reference },
      { bankReference: stray, amount: "20.00", currency: "USD", text: "?" },
    ]);
    const overId = (await credit(over)).id;
    await db.transaction((tx) => m.matchBankCredit(tx, { creditId: overId, transferId: t.transferId, operatorId: "op" }, new Date()));
    assert.equal((await credit(over)).state, "EXCESS");
    const propose = (creditId: string) =>
      inUnit(({ tx, now }) => act(tx, "bankCredit.return", { creditId }, { operator: maker, reason: "Sent back to the payer", now }), { db });
    const excess = await propose(overId);
    assert.equal(excess.kind, "proposed");
    const proposal = excess.kind === "proposed" ? excess.proposal : undefined;
    // Money is formatted with a no-break space between the currency and the amount.
    const text = (summary?: string) => summary?.replace(/\u00a0/g, " ");
    assert.equal(text(proposal?.summary), `Return USD 1.01 to the payer: the excess of bank credit ${over} (USD 104.00)`);
    assert.deepEqual(proposal?.before, { state: "EXCESS", amount: "104.00", toReturn: "1.01" });
    // A credit returned whole names its whole amount.
    const whole = await propose((await credit(stray)).id);
    assert.equal(text(whole.kind === "proposed" ? whole.proposal.summary : ""), `Return USD 20.00 to the payer: bank credit ${stray}`);
  });

  test("a credit after the transfer's deadline is LATE: the transfer expires, nothing funds", async () => {
    // Chosen 14 days ago: past the bank-transfer window (2 business days) whatever the holidays.
    const longAgo = new Date(Date.now() - 14 * 86_400_000);
    const t = await fundingTransfer(longAgo);
    const bank = ref();
    const report = await importCredits([{ bankReference: bank, amount: "102.99", currency: "USD", reference: t.reference }]);
    assert.deepEqual(report, { entries: 1, matched: 0, unmatched: 1, duplicates: 0 });
    assert.equal((await credit(bank)).reason, "LATE");
    assert.equal((await stateOf(t.transferId)).state, "expired");
  });
});
