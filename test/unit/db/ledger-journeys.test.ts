/**
 * Ledger invariants over random transfer journeys, with fast-check, on a real
 * database (PGlite, or PostgreSQL with TEST_DB_URL): every entry sums to zero per currency; each
 * transfer's accounts hold what its state says (zero once terminal with its refund settled);
 * every money-moving history row has exactly one entry and every entry its history row (or the
 * refund it pays); replaying a job or crashing a step posts nothing.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { asc, eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { journalEntries, transfers, transferStateHistory } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { accountBalances, trialBalance, type AccountCode } from "@/lib/finance/ledger";
import type { TransferState } from "@/lib/payments/transfers/state-machine";
import { freshDb } from "../../support/db";
import { refundOf } from "../../support/refunds";
import { newSubscription, type Owner } from "../../support/fixtures";
import { newTransfer, replayJob, runStep, stepArb, termsArb, type Step, type Terms } from "./support/ledger-journey";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

type Place = "none" | "customerFunds" | "inFlight" | "paidOut" | "refundDue";
const TERMINAL = new Set<TransferState>(["paid", "aborted", "rejected", "expired", "canceled"]);

/** Where the money is after entering `state` from `current` (written apart from the postings table). */
function placeAfter(state: TransferState, current: Place): Place {
  if (state === "spended") return current;
  if (state === "funded") return "customerFunds";
  if (state === "topay" || state === "reqpay") return "inFlight";
  if (state === "paid") return "paidOut";
  if (state === "canceled" || state === "rejected") return current === "none" ? "none" : "refundDue";
  return "none";
}

async function entriesOf(transferId: string) {
  return db.select().from(journalEntries).where(eq(journalEntries.transferId, transferId));
}

async function snapshot(transferId: string) {
  const [row] = await db.select().from(transfers).where(eq(transfers.id, transferId));
  return { state: row.state, refund: (await refundOf(db, transferId))?.state ?? null, entries: (await entriesOf(transferId)).length };
}

async function unbalancedEntries(): Promise<unknown[]> {
  return [
    ...rowsOf(
      await db.execute(sql`
      select l.entry_id, a.currency from journal_lines l join ledger_accounts a on a.id = l.account_id
      group by l.entry_id, a.currency having sum(l.debit_minor) <> sum(l.credit_minor)`),
    ),
  ];
}

async function checkTransfer(transferId: string) {
  const [found] = await db.select().from(transfers).where(eq(transfers.id, transferId));
  const row = { ...found, refund: await refundOf(db, transferId) };
  const history = await db.select().from(transferStateHistory).where(eq(transferStateHistory.transferId, transferId)).orderBy(asc(transferStateHistory.seq));
  const entries = await entriesOf(transferId);
  // History and entries pair up one to one where the money moved, and nowhere else.
  let place: Place = "none";
  const moving = new Set<string>();
  for (const h of history) {
    const next = placeAfter(h.state, place);
    if (next !== place) moving.add(h.id);
    place = next;
  }
  const byHistory = entries.filter((e) => e.transferStateHistoryId !== null);
  assert.deepEqual(byHistory.map((e) => e.transferStateHistoryId).sort(), [...moving].sort(), `history ${history.map((h) => h.state).join(">")}`);
  const others = entries.filter((e) => e.transferStateHistoryId === null);
  const refundPaid = row.refund?.state === "COMPLETED";
  assert.deepEqual(
    others.map((e) => e.sourceKey),
    refundPaid ? [`refund-paid:${transferId}`] : [],
  );
  // The transfer's accounts hold what its place says; a paid refund empties refund-due.
  const holds: Partial<Record<AccountCode, bigint>> = {};
  const { toMinor } = await import("@/lib/finance/ledger");
  const total = toMinor(row.totalCustomerCost, row.originCurrency);
  if (place === "customerFunds") holds["transfer:customer-funds"] = -total;
  if (place === "inFlight") holds["transfer:payout-in-flight"] = -toMinor(row.destinationAmount, row.destinationCurrency);
  if (place === "refundDue" && !refundPaid) holds["transfer:refund-due"] = -total;
  const balances = Object.fromEntries((await accountBalances(db, { transferId })).filter((b) => b.balance !== 0n).map((b) => [b.code, b.balance]));
  assert.deepEqual(balances, holds, `state ${row.state}, refund ${row.refund?.state}`);
  if (TERMINAL.has(row.state) && (!row.refund || refundPaid)) assert.deepEqual(balances, {});
  // A refund exists exactly when money was owed back.
  assert.equal(row.refund !== null, place === "refundDue", `refund for ${row.state}`);
  return row;
}

/** Settles what a journey left owed: a failed refund is retried, then recorded paid. */
async function settleRefund(transferId: string) {
  const { moveRefund } = await import("@/lib/payments/transfers/refunds");
  const { lockTransfer } = await import("@/lib/payments/transfers/records");
  await db.transaction(async (tx) => {
    let row = (await lockTransfer(tx, transferId))!;
    const refund = await refundOf(tx, transferId);
    if (!refund || refund.state === "COMPLETED") return;
    if (refund.state === "FAILED") {
      await moveRefund(tx, row, "operator.retry", clock.now());
      row = (await lockTransfer(tx, transferId))!;
    }
    await moveRefund(tx, row, "operator.paid", clock.now(), { bankReference: "SETTLE" });
  });
}

type Move = { step: Step; crash: boolean; replay: boolean };
const go = (...steps: Step[]): Move[] => steps.map((step) => ({ step, crash: false, replay: true }));
const PASSED: Step = { t: "fastCheck", outcome: "passed" };
const CONFIRM: Step = { t: "confirm" };
const TERMS: Terms = { pair: ["USD", "MXN"], origin: 10000n, principalFee: 299n, partnerFee: 50n, destination: 187500n };

/** Journeys every run includes, so each kind of entry is posted whatever the random seed. */
const EXAMPLES: [Terms, Move[]][] = [
  [TERMS, go(PASSED, CONFIRM, { t: "fund", how: "CARD" }, { t: "network", to: "topay" }, { t: "network", to: "reqpay" }, { t: "networkJob" })],
  [TERMS, go(PASSED, CONFIRM, { t: "fund", how: "statement" }, { t: "cancel" }, { t: "refundJob" }, { t: "refundJob" })],
  [
    { ...TERMS, pair: ["EUR", "JPY"] as const },
    go(
      PASSED,
      CONFIRM,
      { t: "fund", how: "BANK_TRANSFER" },
      { t: "networkJob" },
      { t: "cancel" },
      { t: "networkCancel", outcome: "NETWORK_CANCELLATION_SUCCESS" },
      { t: "refundOperator", how: "operator.paid" },
    ),
  ],
  [
    TERMS,
    go(
      PASSED,
      CONFIRM,
      { t: "fund", how: "CARD" },
      { t: "networkJob" },
      { t: "networkRejected" },
      { t: "refundOperator", how: "operator.failed" },
      { t: "refundOperator", how: "operator.retry" },
      { t: "refundJob" },
      { t: "refundJob" },
    ),
  ],
  [
    { ...TERMS, pair: ["GBP", "KWD"] as const },
    go(PASSED, CONFIRM, { t: "fund", how: "CARD" }, { t: "network", to: "topay" }, { t: "hold" }, { t: "release", resolution: "REJECT" }),
  ],
  [TERMS, go(PASSED, CONFIRM, { t: "fund", how: "statement" }, { t: "hold" }, { t: "release", resolution: "REJECT" }, { t: "refundJob" })],
  [
    TERMS,
    go(
      PASSED,
      CONFIRM,
      { t: "fund", how: "CARD" },
      { t: "hold" },
      { t: "release", resolution: "RESTORE" },
      { t: "network", to: "topay" },
      { t: "cancel" },
      { t: "networkCancel", outcome: "NETWORK_ALREADY_PAID" },
    ),
  ],
  [TERMS, [...go(PASSED, CONFIRM), { step: { t: "fund", how: "CARD" }, crash: true, replay: false }, ...go({ t: "fund", how: "CARD" }, { t: "cancel" })]],
];

test("ledger invariants hold over random journeys, crashes and replays", async () => {
  const kinds = new Set<string>();
  let crashes = 0;
  const move: fc.Arbitrary<Move> = fc.record({ step: stepArb, crash: fc.integer({ min: 0, max: 9 }).map((n) => n < 2), replay: fc.boolean() });
  const journey = fc.array(move, { minLength: 4, maxLength: 24 });
  await fc.assert(
    fc.asyncProperty(termsArb, journey, async (terms, steps) => {
      const now = clock.now();
      const transfer = await newTransfer(db, owner, terms, now);
      for (const { step, crash, replay } of steps) {
        const before = await snapshot(transfer.id);
        const { outcome, job } = await runStep(db, owner, transfer.id, step, crash, now);
        if (outcome === "crashed") crashes++;
        if (outcome !== "done") assert.deepEqual(await snapshot(transfer.id), before, `${outcome} ${JSON.stringify(step)} changed something`);
        if (outcome === "done" && replay && job) {
          // The same job again (a duplicate enqueue, a retry after a lost answer): nothing changes.
          const once = await snapshot(transfer.id);
          await replayJob(db, step, job, now);
          assert.deepEqual(await snapshot(transfer.id), once, `replayed ${step.t} changed something`);
        }
        await checkTransfer(transfer.id);
      }
      const row = await checkTransfer(transfer.id);
      if (TERMINAL.has(row.state)) {
        await settleRefund(transfer.id);
        await checkTransfer(transfer.id);
        assert.deepEqual(
          (await accountBalances(db, { transferId: transfer.id })).filter((b) => b.balance !== 0n),
          [],
        );
      }
      assert.deepEqual(await unbalancedEntries(), []);
      for (const e of await entriesOf(transfer.id)) kinds.add(e.kind);
    }),
    { numRuns: EXAMPLES.length + Number(process.env.LEDGER_RUNS ?? 40), examples: EXAMPLES, includeErrorInReport: true },
  );
  // The journeys did move money every way the postings table knows, and crashed some steps.
  assert.deepEqual([...kinds].sort(), ["funding.received", "payout.confirmed", "payout.returned", "payout.sent", "refund.owed", "refund.paid"]);
  assert.ok(crashes > 0);
  for (const t of await trialBalance(db)) assert.equal(t.debit, t.credit, t.currency);
});
