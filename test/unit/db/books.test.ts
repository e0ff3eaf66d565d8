/**
 * The books: on a real database (PGlite, or PostgreSQL with TEST_DB_URL). Balances as
 * of a past instant equal the sum of their lines up to then; a posting dated in a closed month is
 * refused (by postEntry and by the trigger); the P&L of a month with a partner-signed and a
 * service-priced transfer shows fee revenue, partner fees owed and an FX result that add up to the
 * ledger; manual journals need a second operator; a statement whose closing balance differs from
 * the ledger shows the difference in the daily report.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { and, eq, lt, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { auditLog, bankCredits, journalEntries, journalLines, ledgerAccounts, manualJournals, proposals, transfers } from "@/db/schema";
import { dailyReconciliation, explainDifference, ledgerBalance, recordClosingBalances } from "@/lib/finance/books/bank-reconciliation";
import { withdrawJournal } from "@/lib/operations/dual-control/journal-control";
import { discardJournal, proposeJournal } from "@/lib/finance/books/journals";
import { changeLedgerPeriod } from "@/lib/operations/commands/finance";
import { act, execute } from "@/lib/operations/commands/run";
import { approve, decline, propose } from "@/lib/operations/dual-control/proposals";
import { profitAndLoss, safeguarding, trialBalanceAsOf } from "@/lib/finance/books/reports";
import { DomainError } from "@/lib/platform/errors";
import { accountBalances, fromMinor, postEntry, toMinor } from "@/lib/finance/ledger";
import { Decimal } from "@/lib/platform/money/decimal";
import type { Operator } from "@/lib/operations/operators/records";
import { constantReferenceRates } from "@/lib/payments/pricing/reference-rate";
import { inUnit, runUnit, type UnitContext } from "@/lib/platform/unit-of-work";
import { freshDb } from "../../support/db";
import { newSubscription, type Owner } from "../../support/fixtures";
import { newTransfer, runStep, type Step, type Terms } from "./support/ledger-journey";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
let accountant: Operator;
let second: Operator;

const at = (iso: string) => new Date(iso);
const USD_MXN = "18.500000";
const rates = constantReferenceRates({ "USD/MXN": USD_MXN });

/** A transfer paid out at `when`: registered, validated, funded by card, handed to the payout bank, paid. */
async function paidTransfer(terms: Terms, when: Date, until: "paid" | "funded" = "paid"): Promise<string> {
  const row = await newTransfer(db, owner, terms, when);
  const steps: Step[] = [{ t: "fastCheck", outcome: "passed" }, { t: "confirm" }, { t: "fund", how: "CARD" }];
  if (until === "paid") steps.push({ t: "network", to: "topay" }, { t: "network", to: "paid" });
  for (const step of steps) assert.equal((await runStep(db, owner, row.id, step, false, when)).outcome, "done", JSON.stringify(step));
  return row.id;
}

const unit = <T>(now: Date, work: (u: UnitContext) => Promise<T>) => inUnit(work, { db, now });

let serviceId: string;
let partnerSignedId: string;

before(async () => {
  // The reports read the whole ledger: on PostgreSQL this file needs a database of its own.
  ({ db, close } = await freshDb({ ownDatabase: true }));
  owner = await newSubscription(db);
  const { createOperator } = await import("@/lib/operations/operators/records");
  [accountant, second] = await db.transaction(async (tx) => [
    await createOperator(tx, {
      email: "books-a@example.com",
      name: "Accountant",
      role: "admin",
      password: "correct horse battery",
      now: at("2026-10-01T00:00:00Z"),
    }),
    await createOperator(tx, {
      email: "books-b@example.com",
      name: "Controller",
      role: "admin",
      password: "correct horse battery",
      now: at("2026-10-01T00:00:00Z"),
    }),
  ]);
  // October: a service-priced transfer (no partner fee) and a partner-signed one (partner fee 1.00).
  serviceId = await paidTransfer(
    { pair: ["USD", "MXN"], origin: 10000n, principalFee: 299n, partnerFee: 0n, destination: 184_000n },
    at("2026-10-10T12:00:00Z"),
  );
  partnerSignedId = await paidTransfer(
    { pair: ["USD", "MXN"], origin: 20000n, principalFee: 299n, partnerFee: 100n, destination: 368_500n },
    at("2026-10-20T12:00:00Z"),
  );
  // November: one funded, not yet paid out.
  await paidTransfer({ pair: ["USD", "MXN"], origin: 5000n, principalFee: 299n, partnerFee: 100n, destination: 92_000n }, at("2026-11-05T12:00:00Z"), "funded");
});
after(() => close());

describe("books", () => {
  test("the balance of every account as of a past instant is the sum of its lines up to then", async () => {
    for (const asOf of ["2026-10-01T00:00:00Z", "2026-10-15T00:00:00Z", "2026-11-01T00:00:00Z", "2026-11-05T12:00:00.001Z", "2027-01-01T00:00:00Z"].map(at)) {
      const expected = rowsOf<{ code: string; currency: string; partner_id: string | null; balance: string }>(
        await db.execute(sql`
          select a.code, a.currency, a.partner_id, sum(l.debit_minor - l.credit_minor)::text as balance
          from journal_lines l join journal_entries e on e.id = l.entry_id join ledger_accounts a on a.id = l.account_id
          where e.created_at < ${asOf.toISOString()}::timestamptz group by a.code, a.currency, a.partner_id`),
      );
      const trial = await trialBalanceAsOf(db, asOf);
      const got = new Map(trial.rows.map((r) => [`${r.code}|${r.currency}|${r.partnerId ?? ""}`, r.balance]));
      assert.equal(trial.rows.length, expected.length, asOf.toISOString());
      for (const e of expected)
        assert.equal(got.get(`${e.code}|${e.currency}|${e.partner_id ?? ""}`), BigInt(e.balance), `${e.code} ${e.currency} at ${asOf.toISOString()}`);
      for (const t of trial.totals) assert.equal(t.debit, t.credit, `${t.currency} balances at ${asOf.toISOString()}`);
      // The per-account read agrees, account by account (the transfer's own accounts included).
      for (const b of await accountBalances(db, { asOf, limit: 1000 })) {
        const [sum] = await db
          .select({ balance: sql<string>`coalesce(sum(${journalLines.debitMinor} - ${journalLines.creditMinor}), 0)::text` })
          .from(journalLines)
          .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
          .where(and(eq(journalLines.accountId, b.accountId), lt(journalEntries.createdAt, asOf)));
        assert.equal(b.balance, BigInt(sum.balance), `${b.code} ${b.transferId ?? ""} at ${asOf.toISOString()}`);
      }
    }
    // Before anything was posted, nothing; mid-October, only the first transfer's money.
    assert.equal((await trialBalanceAsOf(db, at("2026-10-01T00:00:00Z"))).rows.length, 0);
    const mid = await trialBalanceAsOf(db, at("2026-10-15T00:00:00Z"));
    assert.equal(mid.rows.find((r) => r.code === "revenue:fees")?.balance, -299n);
    assert.equal(
      mid.subtotals.find((s) => s.family === "cash" && s.currency === "USD")?.balance,
      10299n,
      "card clearing holds the first total, the second not yet posted",
    );
  });

  test("P&L for October: our fee, the partner's fee owed, and the FX result add up to the ledger", async () => {
    const pnl = await profitAndLoss(db, { from: at("2026-10-01T00:00:00Z"), to: at("2026-11-01T00:00:00Z") }, rates);
    assert.deepEqual(pnl.feeRevenue, [{ currency: "USD", amount: 598n }], "two principal fees of 2.99; the partner fee is not revenue");
    assert.deepEqual(pnl.partnerFeesOwed, [{ partnerId: owner.partnerId, currency: "USD", amount: 100n }], "the partner-signed transfer's 1.00 only");
    assert.deepEqual(
      pnl.fxByCurrency.sort((a, b) => a.currency.localeCompare(b.currency)),
      [
        { currency: "MXN", amount: -(184_000n + 368_500n) },
        { currency: "USD", amount: 30000n },
      ],
    );
    // Every dollar the customers paid is accounted for: our fee + the partner's fee + what was converted.
    const [paid] = await db
      .select({ total: sql<string>`sum(${transfers.totalCustomerCost}::numeric)::text` })
      .from(transfers)
      .where(sql`${transfers.id} in (${serviceId}, ${partnerSignedId})`);
    const fees = pnl.feeRevenue[0].amount + pnl.partnerFeesOwed[0].amount + pnl.fxByCurrency.find((f) => f.currency === "USD")!.amount;
    assert.equal(fees, toMinor(new Decimal(paid.total).toFixed(2), "USD"));
    // FX result at the reference rate (18.5 MXN per USD): 300.00 in, 5525.00 MXN out = 298.65 USD.
    const [pair] = pnl.fxPairs;
    assert.deepEqual(pair, {
      originCurrency: "USD",
      destinationCurrency: "MXN",
      originMinor: 30000n,
      destinationMinor: 552_500n,
      resultMinor: 30000n - 29865n,
    });
    // The net result, per currency: our fees 5.98 + the FX result 1.35 (no expense in October).
    assert.deepEqual(pnl.netResult, [{ currency: "USD", amount: 598n + 135n }]);
    // Without a reference rate the FX result, and so the net result, is unknown (not the fees alone).
    const noRates = await profitAndLoss(db, { from: at("2026-10-01T00:00:00Z"), to: at("2026-11-01T00:00:00Z") }, constantReferenceRates({}));
    assert.deepEqual(noRates.netResult, [{ currency: "USD", amount: null }]);
    // A month with nothing dated in it has nothing to show.
    const september = await profitAndLoss(db, { from: at("2026-09-01T00:00:00Z"), to: at("2026-10-01T00:00:00Z") }, rates);
    assert.deepEqual([september.feeRevenue, september.partnerFeesOwed, september.fxPairs, september.netResult], [[], [], [], []]);
  });

  test("the net result subtracts the month's expenses, per currency (issue 36 item 14)", async () => {
    // March 2027: a bank charge of 7.50 USD and a write-off of 12.00 EUR, nothing earned.
    for (const [key, account, currency, amount] of [
      ["bank-charge", "expense:bank-charges", "USD", 750n],
      ["write-off", "expense:write-offs", "EUR", 1200n],
    ] as const) {
      await db.transaction((tx) =>
        postEntry(tx, {
          sourceKey: `test:net-result:${key}`,
          kind: "test",
          memo: key,
          lines: [
            { account, currency, debit: amount },
            { account: "cash:operating", currency, credit: amount },
          ],
          now: at("2027-03-10T12:00:00Z"),
        }),
      );
    }
    const march = await profitAndLoss(db, { from: at("2027-03-01T00:00:00Z"), to: at("2027-04-01T00:00:00Z") }, rates);
    assert.deepEqual(march.netResult, [
      { currency: "EUR", amount: -1200n },
      { currency: "USD", amount: -750n },
    ]);
  });

  test("safeguarding: collection cash against obligations per currency", async () => {
    const lines = await safeguarding(db, at("2026-11-06T00:00:00Z"));
    const usd = lines.find((l) => l.currency === "USD")!;
    // November's transfer (53.99) is owed to its customer and held at the card clearing account.
    assert.equal(usd.obligations, 5399n);
    assert.equal(usd.surplus, usd.held - usd.obligations);
    const mxn = lines.find((l) => l.currency === "MXN")!;
    assert.equal(mxn.held, -552_500n, "the payout bank paid out without a recorded prefunding");
    assert.ok(mxn.surplus < 0n);
  });

  test("a posting into a closed month is refused; corrections post in the open month; close and reopen are audited", async () => {
    const lines = [
      { account: "cash:operating" as const, currency: "USD", debit: 100n },
      { account: "equity:capital" as const, currency: "USD", credit: 100n },
    ];
    // November has not ended on 2 November: it cannot be closed, and the refusal says why (it
    // was ledgerPeriod.stateInvalid, which the console shows as "Already decided by someone else").
    await assert.rejects(
      unit(at("2026-11-02T09:00:00Z"), (u) =>
        execute(u.tx, changeLedgerPeriod, { period: "2026-11", trigger: "close" }, { reason: "too early", operator: accountant, now: u.now }),
      ),
      (e: unknown) =>
        e instanceof DomainError &&
        e.code === "ledgerPeriod.notEnded" &&
        e.status === 409 &&
        e.message === "2026-11 is the running month (it ends with 2026-11-30, UTC): a month is closed once it is over. The last month that ended is 2026-10.",
    );
    await assert.rejects(
      unit(at("2026-11-02T09:00:00Z"), (u) =>
        execute(u.tx, changeLedgerPeriod, { period: "2027-01", trigger: "close" }, { reason: "far too early", operator: accountant, now: u.now }),
      ),
      (e: unknown) => e instanceof DomainError && e.code === "ledgerPeriod.notEnded" && e.message.startsWith("2027-01 has not begun"),
    );
    assert.deepEqual(await db.select().from(auditLog).where(eq(auditLog.targetId, "2026-11")), [], "nothing recorded for a refused close");
    await unit(at("2026-11-02T09:00:00Z"), (u) =>
      execute(u.tx, changeLedgerPeriod, { period: "2026-10", trigger: "close" }, { reason: "October reviewed", operator: accountant, now: u.now }),
    );
    await assert.rejects(
      db.transaction((tx) => postEntry(tx, { sourceKey: "late-october", kind: "test", memo: "dated in October", lines, now: at("2026-10-31T23:00:00Z") })),
      (e: unknown) => e instanceof DomainError && e.code === "ledger.periodClosed",
    );
    // The trigger refuses a row written around postEntry, too.
    await assert.rejects(
      db.insert(journalEntries).values({ id: "je_raw", sourceKey: "raw", kind: "test", memo: "raw", createdAt: at("2026-10-31T23:00:00Z") }),
      (e: unknown) => /ledger period 2026-10 is closed/.test(String((e as { cause?: unknown }).cause ?? e)),
    );
    const posted = await db.transaction((tx) =>
      postEntry(tx, { sourceKey: "november-fix", kind: "test", memo: "correction", lines, now: at("2026-11-02T10:00:00Z") }),
    );
    assert.equal(posted.posted, true);
    await assert.rejects(
      unit(at("2026-11-02T11:00:00Z"), (u) =>
        execute(u.tx, changeLedgerPeriod, { period: "2026-10", trigger: "close" }, { reason: "again", operator: accountant, now: u.now }),
      ),
      (e: unknown) => e instanceof DomainError && e.code === "ledgerPeriod.stateInvalid",
    );
    await unit(at("2026-11-02T12:00:00Z"), (u) =>
      execute(u.tx, changeLedgerPeriod, { period: "2026-10", trigger: "reopen" }, { reason: "late invoice", operator: second, now: u.now }),
    );
    const reopened = await db.transaction((tx) =>
      postEntry(tx, { sourceKey: "late-october", kind: "test", memo: "dated in October", lines, now: at("2026-10-31T23:00:00Z") }),
    );
    assert.equal(reopened.posted, true);
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, "2026-10"));
    assert.deepEqual(audits.map((a) => a.action).sort(), ["ledger.period.close", "ledger.period.reopen"]);
  });

  test("a manual journal is balanced, proposed by one operator and posted when another approves it (dual control)", async () => {
    const now = at("2026-11-03T09:00:00Z");
    const prefund = [
      { account: "cash:payout-bank" as const, currency: "MXN", debit: "10000.00", credit: "" },
      { account: "cash:operating" as const, currency: "MXN", debit: "", credit: "10000.00" },
    ];
    // One command: the journal's lines recorded PROPOSED (checked) and its posting proposed.
    const ask = (memo: string, lines: readonly object[], reference?: string) =>
      unit(now, (u) => act(u.tx, "ledger.journal.post", { memo, reference, lines }, { operator: accountant, reason: memo, now }));
    await assert.rejects(ask("unbalanced", [prefund[0], { ...prefund[1], credit: "9999.99" }]), (e: unknown) => e instanceof DomainError && e.status === 400);
    await assert.rejects(
      ask("a transfer account", [{ ...prefund[0], account: "transfer:refund-due" }, prefund[1]]),
      (e: unknown) => e instanceof DomainError && e.status === 400,
    );
    assert.equal((await db.select().from(manualJournals).where(eq(manualJournals.memo, "unbalanced"))).length, 0, "a refused journal is not recorded");
    const before = (await trialBalanceAsOf(db, at("2027-01-01T00:00:00Z"))).rows.find((r) => r.code === "cash:payout-bank" && r.currency === "MXN")!.balance;
    // Posting is under dual control: the proposer's act makes a proposal, which they cannot approve.
    const acted = await ask("Prefund the MXN payout bank", prefund, "WIRE-77");
    assert.equal(acted.kind, "proposed");
    const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
    const proposed = { id: acted.kind === "proposed" ? (acted.proposal.payload as { journalId: string }).journalId : "" };
    const [journal] = await db.select().from(manualJournals).where(eq(manualJournals.id, proposed.id));
    assert.deepEqual(
      [journal.state, journal.memo, journal.reference, journal.proposedBy],
      ["PROPOSED", "Prefund the MXN payout bank", "WIRE-77", accountant.id],
    );
    assert.match(acted.kind === "proposed" ? acted.proposal.summary : "", /Dr cash:payout-bank 10000\.00 MXN; Cr cash:operating 10000\.00 MXN/);
    const self = await runUnit((u) => approve(u.tx, proposalId, { operator: accountant, reason: "mine", now }), { db, now });
    assert.equal(self.ok ? "posted" : self.error.code, "proposal.selfApproval");
    const done = await unit(now, (u) => approve(u.tx, proposalId, { operator: second, reason: "wire seen at the bank", now }));
    assert.deepEqual(done.performed.after.state, "POSTED");
    const afterPost = (await trialBalanceAsOf(db, at("2027-01-01T00:00:00Z"))).rows.find((r) => r.code === "cash:payout-bank" && r.currency === "MXN")!.balance;
    assert.equal(afterPost - before, 1_000_000n);
    const [entry] = await db
      .select()
      .from(journalEntries)
      .where(eq(journalEntries.sourceKey, `manual-journal:${proposed.id}`));
    assert.equal(entry.reference, "WIRE-77");
    // A posted journal cannot be discarded; a discarded one is never posted.
    await assert.rejects(
      unit(now, (u) => discardJournal(u.tx, { id: proposed.id, operator: accountant, now })),
      (e: unknown) => e instanceof DomainError && e.code === "journal.stateInvalid",
    );
    const withdrawn = await unit(now, (u) => proposeJournal(u.tx, { memo: "Bank charges", lines: prefund, operator: accountant, now }));
    assert.equal((await unit(now, (u) => discardJournal(u.tx, { id: withdrawn.id, operator: accountant, now }))).state, "DISCARDED");
    await assert.rejects(
      unit(now, (u) => propose(u.tx, "ledger.journal.post", { journalId: withdrawn.id }, { operator: accountant, reason: "late", now })),
      (e: unknown) => e instanceof DomainError && e.code === "journal.stateInvalid",
    );
  });

  test("a manual journal touching blocked:sanctions is refused, when proposed and when approved (issue 35)", async () => {
    const now = at("2026-11-03T09:30:00Z");
    const outOfBlocked = [
      { account: "blocked:sanctions" as const, currency: "USD", debit: "102.99", credit: "" },
      { account: "cash:operating" as const, currency: "USD", debit: "", credit: "102.99" },
    ];
    const refused = (e: unknown) =>
      e instanceof DomainError && e.status === 400 && /blocked:sanctions .* moves only by a release under licence on its screening case/.test(e.message);
    await assert.rejects(
      unit(now, (u) => proposeJournal(u.tx, { memo: "Return to the payer", lines: outOfBlocked, operator: accountant, now })),
      refused,
    );
    const reversed = outOfBlocked.map((l) => ({ ...l, debit: l.credit, credit: l.debit }));
    await assert.rejects(
      unit(now, (u) => proposeJournal(u.tx, { memo: "Into blocked", lines: reversed, operator: accountant, now })),
      refused,
    );
    assert.equal((await db.select().from(manualJournals).where(eq(manualJournals.memo, "Return to the payer"))).length, 0);

    // A journal proposed before the rule (written as the old code did) is refused at approval: nothing posts.
    const [old] = await db
      .insert(manualJournals)
      .values({ id: "mj_blocked_before_rule", state: "PROPOSED", memo: "Old proposal", lines: outOfBlocked, proposedBy: accountant.id, createdAt: now })
      .returning();
    const { id: proposalId } = await unit(now, (u) =>
      propose(u.tx, "ledger.journal.post", { journalId: old.id }, { operator: accountant, reason: "old", now }),
    );
    await assert.rejects(
      unit(now, (u) => approve(u.tx, proposalId, { operator: second, reason: "looks right", now })),
      refused,
    );
    assert.equal(
      (
        await db
          .select()
          .from(journalEntries)
          .where(eq(journalEntries.sourceKey, `manual-journal:${old.id}`))
      ).length,
      0,
    );
  });

  test("discarding a journal declines its proposal; declining the proposal discards the journal", async () => {
    const now = at("2026-11-03T10:00:00Z");
    const lines = [
      { account: "expense:bank-charges" as const, currency: "USD", debit: "5.00", credit: "" },
      { account: "cash:operating" as const, currency: "USD", debit: "", credit: "5.00" },
    ];
    const proposeBoth = async (memo: string) => {
      const acted = await unit(now, (u) => act(u.tx, "ledger.journal.post", { memo, lines }, { operator: accountant, reason: memo, now }));
      assert.equal(acted.kind, "proposed");
      const proposal = acted.kind === "proposed" ? acted.proposal : undefined;
      return { journalId: (proposal?.payload as { journalId: string }).journalId, proposalId: proposal?.id ?? "" };
    };
    const stateOf = async (ids: { journalId: string; proposalId: string }) => {
      const [j] = await db.select().from(manualJournals).where(eq(manualJournals.id, ids.journalId));
      const [p] = await db.select().from(proposals).where(eq(proposals.id, ids.proposalId));
      return [j.state, p.state];
    };
    const discarded = await proposeBoth("Bank charges, entered twice");
    await unit(now, (u) => withdrawJournal(u.tx, { id: discarded.journalId, operator: second, now }));
    assert.deepEqual(await stateOf(discarded), ["DISCARDED", "DECLINED"]);
    const declined = await proposeBoth("Bank charges, wrong amount");
    await unit(now, (u) => decline(u.tx, declined.proposalId, { operator: second, reason: "wrong amount", now }));
    assert.deepEqual(await stateOf(declined), ["DISCARDED", "DECLINED"]);
    await assert.rejects(
      unit(now, (u) => withdrawJournal(u.tx, { id: declined.journalId, operator: accountant, now })),
      (e: unknown) => e instanceof DomainError && e.code === "journal.stateInvalid",
    );
  });

  test("partner fees are paid under dual control, never above what the partner is owed in that currency", async () => {
    const now = at("2026-11-03T11:00:00Z");
    const pay = (amount: string, bankReference: string) => ({ partnerId: owner.partnerId, currency: "USD", amount, bankReference });
    const owed = async () =>
      (await trialBalanceAsOf(db, at("2027-01-01T00:00:00Z"))).rows.find((r) => r.code === "payable:partner-fees" && r.partnerId === owner.partnerId)!.balance;
    assert.equal(await owed(), -100n, "October's 1.00 accrued (November's transfer is not yet handed over)");
    const exceeded = (e: unknown) => e instanceof DomainError && e.code === "ledger.partnerFeesExceeded" && e.status === 409;
    // More than is owed is refused when proposed (and in a currency nothing is owed in).
    await assert.rejects(
      unit(now, (u) => act(u.tx, "ledger.partnerFees.pay", pay("1.01", "PAY-0"), { operator: accountant, reason: "pay", now })),
      exceeded,
    );
    await assert.rejects(
      unit(now, (u) => act(u.tx, "ledger.partnerFees.pay", { ...pay("1.00", "PAY-0"), currency: "MXN" }, { operator: accountant, reason: "pay", now })),
      exceeded,
    );
    // One admin only proposes: nothing leaves the collection account until a second approves.
    const acted = await unit(now, (u) => act(u.tx, "ledger.partnerFees.pay", pay("0.60", "PAY-1"), { operator: accountant, reason: "pay", now }));
    assert.equal(acted.kind, "proposed");
    assert.equal(await owed(), -100n);
    const first = acted.kind === "proposed" ? acted.proposal.id : "";
    const self = await runUnit((u) => approve(u.tx, first, { operator: accountant, reason: "mine", now }), { db, now });
    assert.equal(self.ok ? "paid" : self.error.code, "proposal.selfApproval");
    await unit(now, (u) => approve(u.tx, first, { operator: second, reason: "seen at the bank", now }));
    assert.equal(await owed(), -40n);
    // Checked again at approval: a proposal made while 0.40 was owed is refused once less is owed.
    const next = await unit(now, (u) => act(u.tx, "ledger.partnerFees.pay", pay("0.40", "PAY-2"), { operator: accountant, reason: "pay", now }));
    await db.transaction((tx) =>
      postEntry(tx, {
        sourceKey: "test:partner-fee-correction",
        kind: "test",
        memo: "a correction paid 0.10 meanwhile",
        lines: [
          { account: "payable:partner-fees", currency: "USD", partnerId: owner.partnerId, debit: 10n },
          { account: "cash:collection", currency: "USD", credit: 10n },
        ],
        now,
      }),
    );
    await assert.rejects(
      unit(now, (u) => approve(u.tx, next.kind === "proposed" ? next.proposal.id : "", { operator: second, reason: "ok", now })),
      exceeded,
    );
    assert.equal(await owed(), -30n, "the payable never goes into debit");
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "ledger.partnerFees.pay"));
    assert.equal(audits.length, 1);
    assert.deepEqual([audits[0].operatorId, (audits[0].after as Record<string, unknown>).proposedBy], [second.id, accountant.email]);
  });

  test("a statement whose closing balance differs from the ledger shows the difference in the daily report, with its age, until explained", async () => {
    const ledgerAt = async (date: string) => {
      const [row] = await db
        .select({ b: sql<string>`coalesce(sum(${journalLines.debitMinor} - ${journalLines.creditMinor}), 0)::text` })
        .from(journalLines)
        .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
        .where(and(eq(ledgerAccounts.code, "cash:collection"), eq(ledgerAccounts.currency, "EUR"), lt(journalEntries.createdAt, at(`${date}T23:59:59.999Z`))));
      return BigInt(row.b);
    };
    const importedAt = at("2026-11-04T08:00:00Z");
    // A credit of 50.00 EUR on 3 November, posted at the import (a day later), as an import does.
    await db.transaction(async (tx) => {
      await tx.insert(bankCredits).values({
        id: "bcr_3nov",
        bankReference: "REF-3NOV",
        amount: "50.00",
        currency: "EUR",
        bookingDate: "2026-11-03",
        statementId: "STMT-3NOV",
        state: "QUEUED",
        reason: "UNMATCHED",
        createdAt: importedAt,
      });
      await postEntry(tx, {
        sourceKey: "bank-credit:REF-3NOV",
        kind: "bank.credit.received",
        memo: "credit",
        reference: "REF-3NOV",
        lines: [
          { account: "cash:collection", currency: "EUR", debit: 5000n },
          { account: "suspense:unallocated", currency: "EUR", credit: 5000n },
        ],
        now: importedAt,
      });
      await recordClosingBalances(
        tx,
        "STMT-3NOV",
        [{ account: "DE89370400440532013000", amount: "50.00", currency: "EUR", date: "2026-11-03" }],
        "cash:collection",
        importedAt,
      );
      // Early on 5 November, before the 4 November statement is imported, a credit of the 5th is
      // posted: it is not in the 4th's closing balance, and must not count against it.
      await postEntry(tx, {
        sourceKey: "test:5nov-credit",
        kind: "test",
        memo: "a credit of the 5th",
        lines: [
          { account: "cash:collection", currency: "EUR", debit: 1000n },
          { account: "suspense:unallocated", currency: "EUR", credit: 1000n },
        ],
        now: at("2026-11-05T06:00:00Z"),
      });
      // The next day's statement says 42.50: the bank took 7.50 the ledger does not know of.
      await recordClosingBalances(
        tx,
        "STMT-4NOV",
        [{ account: "DE89370400440532013000", amount: "42.50", currency: "EUR", date: "2026-11-04" }],
        "cash:collection",
        at("2026-11-05T08:00:00Z"),
      );
      // A re-import of the same statement changes nothing.
      await recordClosingBalances(
        tx,
        "STMT-4NOV",
        [{ account: "DE89370400440532013000", amount: "1.00", currency: "EUR", date: "2026-11-04" }],
        "cash:collection",
        at("2026-11-05T09:00:00Z"),
      );
    });
    assert.equal(await ledgerAt("2026-11-04"), 5000n);
    // Other files' statements share the database on PostgreSQL: this test's own statements only.
    const mine = (lines: Awaited<ReturnType<typeof dailyReconciliation>>) =>
      lines.filter((l) => l.statementId.startsWith("STMT-") && l.statementId.includes("NOV"));
    const report = mine(await dailyReconciliation(db, at("2026-11-09T10:00:00Z")));
    const byDate = new Map(report.map((l) => [l.date, l]));
    assert.equal(report.length, 2);
    assert.deepEqual(
      { status: byDate.get("2026-11-03")!.status, difference: byDate.get("2026-11-03")!.differenceMinor, age: byDate.get("2026-11-03")!.ageDays },
      { status: "MATCHED", difference: 0n, age: null },
    );
    const open = byDate.get("2026-11-04")!;
    assert.deepEqual(
      { status: open.status, statement: open.statementMinor, ledger: open.ledgerMinor, difference: open.differenceMinor, age: open.ageDays },
      { status: "DIFFERENCE", statement: 4250n, ledger: 5000n, difference: -750n, age: 5 },
    );
    await unit(at("2026-11-09T11:00:00Z"), (u) =>
      explainDifference(u.tx, { id: open.id, explanation: "Bank charge, journal to follow", operator: accountant, now: u.now }),
    );
    const explained = (await dailyReconciliation(db, at("2026-11-09T12:00:00Z"))).find((l) => l.id === open.id)!;
    assert.deepEqual([explained.status, explained.ageDays, explained.explanation], ["EXPLAINED", null, "Bank charge, journal to follow"]);
  });

  test("a day with several statements is reconciled on its last one; each is shown (issue 36 item 15)", async () => {
    const account = "DE89370400440532013000";
    const dayEnd = at("2026-11-13T00:00:00Z");
    const ledger = await ledgerBalance(db, "cash:collection", "EUR", dayEnd);
    const balance = (minor: bigint) => fromMinor(minor, "EUR");
    // The bank's intraday statement (18:00) says 5.00 less; its end-of-day one (22:00) agrees with
    // the ledger; a 20:00 statement arriving last, out of order, is not the day's last.
    const statements: [string, string, bigint, string][] = [
      ["STMT36-1800", "2026-11-12T18:00:00Z", ledger - 500n, "2026-11-13T07:00:00Z"],
      ["STMT36-2200", "2026-11-12T22:00:00+00:00", ledger, "2026-11-13T08:00:00Z"],
      ["STMT36-2000", "2026-11-12T20:00:00", ledger - 200n, "2026-11-13T09:00:00Z"],
      // The first one again: nothing changes.
      ["STMT36-1800", "2026-11-12T18:00:00Z", ledger - 900n, "2026-11-13T10:00:00Z"],
    ];
    for (const [id, createdAt, closing, importedAt] of statements)
      await db.transaction((tx) =>
        recordClosingBalances(
          tx,
          id,
          [{ account, amount: balance(closing), currency: "EUR", date: "2026-11-12", statementCreatedAt: createdAt }],
          "cash:collection",
          at(importedAt),
        ),
      );
    const report = (await dailyReconciliation(db, at("2026-11-14T10:00:00Z"))).filter((l) => l.statementId.startsWith("STMT36-"));
    assert.deepEqual(
      report.map((l) => [l.statementId, l.status, l.supersededBy, l.statementMinor - ledger, l.statementCreatedAt?.toISOString()]),
      [
        ["STMT36-2200", "MATCHED", null, 0n, "2026-11-12T22:00:00.000Z"],
        ["STMT36-2000", "SUPERSEDED", "STMT36-2200", -200n, "2026-11-12T20:00:00.000Z"],
        ["STMT36-1800", "SUPERSEDED", "STMT36-2200", -500n, "2026-11-12T18:00:00.000Z"],
      ],
    );
    assert.deepEqual(
      report.map((l) => l.ageDays),
      [null, null, null],
      "no open difference: the day's last statement agrees",
    );
  });

  test("a conversion sent then returned, with a rate change between, shows no FX result", async () => {
    const sent = at("2026-12-05T12:00:00Z");
    const returned = at("2026-12-20T12:00:00Z");
    const id = (await newTransfer(db, owner, { pair: ["USD", "MXN"], origin: 10000n, principalFee: 299n, partnerFee: 0n, destination: 185_000n }, sent)).id;
    const steps: [Step, Date][] = [
      [{ t: "fastCheck", outcome: "passed" }, sent],
      [{ t: "confirm" }, sent],
      [{ t: "fund", how: "CARD" }, sent],
      [{ t: "network", to: "topay" }, sent],
      [{ t: "networkRejected" }, returned],
    ];
    for (const [step, when] of steps) assert.equal((await runStep(db, owner, id, step, false, when)).outcome, "done", JSON.stringify(step));
    // 18.5 MXN per USD when it was sent, 20 when it came back.
    const moving = { rate: (_: unknown, now: Date) => new Decimal(now.getTime() < at("2026-12-15T00:00:00Z").getTime() ? "18.5" : "20") };
    const december = await profitAndLoss(db, { from: at("2026-12-01T00:00:00Z"), to: at("2027-01-01T00:00:00Z") }, moving);
    assert.deepEqual(december.fxPairs, [{ originCurrency: "USD", destinationCurrency: "MXN", originMinor: 0n, destinationMinor: 0n, resultMinor: 0n }]);
    // The return alone (December's second half) undoes the conversion at the rate it was made at.
    const secondHalf = await profitAndLoss(db, { from: at("2026-12-15T00:00:00Z"), to: at("2027-01-01T00:00:00Z") }, moving);
    assert.deepEqual(secondHalf.fxPairs, [
      { originCurrency: "USD", destinationCurrency: "MXN", originMinor: -10000n, destinationMinor: -185_000n, resultMinor: 0n },
    ]);
  });
});
