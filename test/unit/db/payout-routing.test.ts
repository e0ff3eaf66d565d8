/**
 * The routed payout on a real database (PGlite; PostgreSQL with TEST_DB_URL): the aggregator's
 * sandbox answers by test destinations; a timeout fails over to the bank file and the transfer is
 * paid once; the aggregator's late success after that is refused and a reversal asked; an AC01
 * waits for the repair, and the repaired payout is paid; a payout without cover waits and a
 * top-up releases it, with the liquidity forecast showing the shortfall meanwhile.
 */
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customers, events, jobs, journalEntries, journalLines, ledgerAccounts, payoutMethods, refunds, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { JobDefinition } from "@/lib/platform/jobs/define";
import type { JobKind } from "@/lib/platform/jobs/kinds";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner, insertBeneficiary } from "../../support/fixtures";
import { pain002 } from "../../support/iso20022";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  process.env.PAYOUT_PROVIDER = "routed";
  process.env.PAYOUT_BANKS = JSON.stringify([
    {
      id: "mxbank",
      name: "MX Payout Bank",
      bic: "BNMXMXMMXXX",
      debtorAccount: { scheme: "CLABE", id: "002010077777777771" },
      debtorName: "Remit Ltd",
      currencies: ["MXN"],
    },
  ]);
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(async () => {
  await close();
  delete process.env.PAYOUT_PROVIDER;
  delete process.env.PAYOUT_BANKS;
});

/** A valid CLABE whose account digits carry a sandbox marker ("99901": timeout, ...) or none. */
function clabe(marker = ""): string {
  const body = ("002010" + marker + Array.from({ length: 11 }, () => randomInt(10)).join("")).slice(0, 17);
  const sum = [...body].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
  return body + String((10 - (sum % 10)) % 10);
}

const PROFILE = {
  firstName: "John",
  lastName: "Public",
  dateOfBirth: "1980-02-29",
  nationality: "USA",
  residenceCountry: "USA",
  residenceAddress: { addressLine1: "1 Main Street", city: "Springfield", postalCode: "12345", region: "IL", country: "USA" },
};

async function addMethod(beneficiaryId: string, identifier: string) {
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  const id = newId("pm");
  await db.insert(payoutMethods).values({
    id,
    beneficiaryId,
    methodType: "BANK_TRANSFER",
    corridor: "US-MX",
    destinationIdentifierEncrypted: (await destinationCipher(db)).encrypt(identifier, id),
    destinationIdentifierMasked: `****${identifier.slice(-4)}`,
    addedAt: clock.now(),
  });
  return id;
}

/** A funded (by card) MXN 1875 transfer to a beneficiary paid at `identifier`, routed at once (what funding's startPayout enqueues). */
async function fundedTransfer(owner: Owner, identifier: string) {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { routePayout } = await import("@/lib/payments/payouts/routed");
  const created = await registeredTransfer(db, owner);
  const now = clock.now();
  await db.update(customers).set({ profile: PROFILE }).where(eq(customers.id, owner.customerId));
  const beneficiaryId = await insertBeneficiary(db, owner, now, { lastName: "Ruiz", countryOfResidence: "MEX" });
  const methodId = await addMethod(beneficiaryId, identifier);
  await db.update(transfers).set({ beneficiaryId, payoutMethodId: methodId }).where(eq(transfers.id, created.id));
  return db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, created.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    const funded = await transitionTransfer(tx, funding, "funding.succeeded", now, { fundedFrom: "cash:card-clearing" });
    await routePayout(tx, funded, now);
    return funded;
  });
}

const ran = new Set<string>();
/** Runs every job of `kind` written so far and not run yet, as the worker would (each once). */
async function runJobs(kind: JobKind): Promise<number> {
  const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
  const pending = await db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(jobs.createdAt);
  let n = 0;
  for (const job of pending.filter((j) => !ran.has(j.id))) {
    ran.add(job.id);
    const def = jobRegistry[kind] as JobDefinition<unknown>;
    const run = { payload: def.schema.parse(job.payload), jobId: job.id, attempt: 1, now: clock.now(), signal: new AbortController().signal };
    if (def.run) await db.transaction((tx) => def.run!(tx, run));
    else await def.perform!(db, run);
    n++;
  }
  return n;
}

const stateOf = async (id: string) => (await db.select().from(transfers).where(eq(transfers.id, id)))[0];
const triesOf = async (id: string) => (await import("@/lib/payments/payouts/routed")).attemptsOf(db, id);
const confirmedEntries = async (transferId: string) =>
  db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(and(eq(journalEntries.transferId, transferId), eq(journalEntries.kind, "payout.confirmed")));
const prefunding = async (code: "cash:payout-bank" | "cash:payout-aggregator") => {
  const { accountBalances } = await import("@/lib/finance/ledger");
  return (await accountBalances(db, { code, currency: "MXN" }))[0]?.balance ?? 0n;
};
const owedBack = async () => {
  const { accountBalances } = await import("@/lib/finance/ledger");
  return (await accountBalances(db, { code: "receivable:payout-reversals", currency: "MXN" }))[0]?.balance ?? 0n;
};
const topUp = async (provider: string, amount: string) => {
  const { topUpPrefunding } = await import("@/lib/payments/payouts/prefunding");
  return db.transaction((tx) => topUpPrefunding(tx, { provider, currency: "MXN", amount, bankReference: newId("ref") }, clock.now()));
};
const suspense = async () => {
  const { accountBalances } = await import("@/lib/finance/ledger");
  return (await accountBalances(db, { code: "suspense:returned-payouts", currency: "MXN" }))[0]?.balance ?? 0n;
};
const entriesOfKind = async (transferId: string, kind: string) =>
  db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(and(eq(journalEntries.transferId, transferId), eq(journalEntries.kind, kind)));
/** Each line of a transfer's entries of `kind`: account, debit, credit. */
const linesOfKind = async (transferId: string, kind: string) =>
  (
    await db
      .select({ account: ledgerAccounts.code, debit: journalLines.debitMinor, credit: journalLines.creditMinor })
      .from(journalLines)
      .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
      .where(and(eq(journalEntries.transferId, transferId), eq(journalEntries.kind, kind)))
  )
    .map((l) => [l.account, String(l.debit), String(l.credit)])
    .sort();
const balanced = async () => {
  const { trialBalance } = await import("@/lib/finance/ledger");
  for (const t of await trialBalance(db)) assert.equal(t.debit, t.credit, `balanced in ${t.currency}`);
};
const returnedAlerts = async () => {
  const { readOperations } = await import("@/lib/operations/observability/readings");
  const { firing } = await import("@/lib/operations/observability/alert-conditions");
  return firing(await readOperations(db, clock.now()), { refreshHours: 24 }).filter((f) => f.condition === "payout.returned");
};
const eventsOf = async (transferId: string, eventType: string) =>
  (
    await db
      .select()
      .from(events)
      .where(and(sql`${events.body}->'data'->>'transferId' = ${transferId}`, sql`${events.body}->>'eventType' = ${eventType}`))
  ).map((e) => e.body.data);

describe("routed payouts: providers, failover, prefunding", () => {
  let owner: Owner;
  const ids: Record<string, string> = {};

  before(async () => {
    owner = await newSubscription(db);
  });

  test("a payout without cover is held (not failed); the forecast shows it short; a top-up releases it and the aggregator pays it", async () => {
    const { liquidityForecast } = await import("@/lib/payments/payouts/prefunding");
    const t = await fundedTransfer(owner, clabe());
    ids.held = t.id;
    assert.deepEqual(
      (await triesOf(t.id)).map((a) => [a.seq, a.provider, a.state]),
      [[1, "aggregator", "WAITING_COVER"]],
      "the cheapest route, held",
    );
    assert.equal((await stateOf(t.id)).state, "funded");
    assert.equal(await runJobs("payouts.submitAttempt"), 0, "nothing is sent without cover");
    const row = (await liquidityForecast(db, clock.now())).find((r) => r.provider === "aggregator" && r.currency === "MXN")!;
    assert.deepEqual([row.heldCount, row.held, row.short], [1, "1875.00", true]);
    // The operations alert holds for it.
    const { readOperations } = await import("@/lib/operations/observability/readings");
    const { firing } = await import("@/lib/operations/observability/alert-conditions");
    const alerts = async () =>
      firing(await readOperations(db, clock.now()), { refreshHours: 24 })
        .filter((f) => f.condition === "prefunding.low")
        .map((f) => f.subject);
    assert.deepEqual(await alerts(), ["aggregator:MXN"]);

    // Less than the payout: still held.
    assert.deepEqual(await topUp("aggregator", "1000.00"), { released: 0 });
    assert.equal((await triesOf(t.id))[0].state, "WAITING_COVER");
    assert.deepEqual(await topUp("aggregator", "100000.00"), { released: 1 });
    assert.equal((await triesOf(t.id))[0].state, "QUEUED");
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    assert.equal((await triesOf(t.id))[0].state, "SUBMITTED");
    assert.equal((await stateOf(t.id)).state, "topay");
    // The sandbox aggregator's status webhook: paid.
    assert.equal(await runJobs("payouts.providerStatus"), 1);
    assert.equal((await triesOf(t.id))[0].state, "PAID");
    const paid = await stateOf(t.id);
    assert.equal(paid.state, "paid");
    assert.equal(paid.payoutProvider, "aggregator");
    assert.equal(await prefunding("cash:payout-aggregator"), 101_000_00n - 1875_00n, "the payout drew the aggregator's prefunding");
    const after = (await liquidityForecast(db, clock.now())).find((r) => r.provider === "aggregator" && r.currency === "MXN")!;
    assert.equal(after.heldCount, 0);
    assert.equal(after.balance, "99125.00");
    // Paid today: the forecast is 1875 / 5 per business day, three days' worth; the cover is ample, the alert resolved.
    assert.equal(after.forecast3Days, "1125.00");
    assert.deepEqual(await alerts(), []);
  });

  test("a timeout at the aggregator fails over to the bank file without a human; the transfer is paid once", async () => {
    await topUp("bank-file", "50000.00");
    const t = await fundedTransfer(owner, clabe("99901"));
    ids.failedOver = t.id;
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    let tries = await triesOf(t.id);
    assert.deepEqual(
      tries.map((a) => [a.seq, a.provider, a.state, a.outcomeCode]),
      [
        [1, "aggregator", "FAILED", "TIMEOUT"],
        [2, "bank-file", "QUEUED", null],
      ],
    );
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    tries = await triesOf(t.id);
    assert.equal(tries[1].state, "SUBMITTED");
    assert.match(tries[1].providerReference ?? "", /^pof_/, "the bank file's try names its pain.001 file");
    assert.equal((await stateOf(t.id)).state, "topay");
    const { importPaymentStatusReport } = await import("@/lib/payments/payouts/status-import");
    const counts = await db.transaction((tx) =>
      importPaymentStatusReport(tx, { xml: pain002("RTE-1", tries[1].providerReference!, [{ endToEndId: t.id, status: "ACSC" }]), now: clock.now() }),
    );
    assert.equal(counts.applied, 1);
    assert.equal((await stateOf(t.id)).state, "paid");
    assert.deepEqual(
      (await triesOf(t.id)).map((a) => a.state),
      ["FAILED", "PAID"],
    );
    assert.equal((await confirmedEntries(t.id)).length, 1);
    assert.equal(await prefunding("cash:payout-bank"), 50_000_00n - 1875_00n, "the bank file's prefunding paid it");
  });

  test("the aggregator's late success after the failover is refused and reversed: not paid twice", async () => {
    const { applyProviderStatus } = await import("@/lib/payments/payouts/routed");
    const [first] = await triesOf(ids.failedOver);
    const aggregatorBefore = await prefunding("cash:payout-aggregator");
    await db.transaction((tx) =>
      applyProviderStatus(tx, { externalId: first.id, status: "COMPLETED", reasonCode: null, reference: `sbx_${first.id}` }, clock.now()),
    );
    const tries = await triesOf(ids.failedOver);
    assert.deepEqual(
      tries.map((a) => [a.state, a.outcomeCode]),
      [
        ["LATE_PAID", "LATE_SUCCESS_REFUSED"],
        ["PAID", null],
      ],
    );
    assert.equal((await stateOf(ids.failedOver)).state, "paid");
    assert.equal((await confirmedEntries(ids.failedOver)).length, 1, "one payout on the books");
    // The aggregator paid from our prefunding: in the same transaction the money leaves it and is owed back.
    assert.equal(await prefunding("cash:payout-aggregator"), aggregatorBefore - 1875_00n, "the late payment drew the aggregator's prefunding");
    assert.equal(await owedBack(), 1875_00n, "and is owed back by the aggregator");
    const late = await db
      .select({ id: journalEntries.id })
      .from(journalEntries)
      .where(and(eq(journalEntries.transferId, ids.failedOver), eq(journalEntries.kind, "payout.lateSuccess")));
    assert.equal(late.length, 1);
    const { trialBalance } = await import("@/lib/finance/ledger");
    for (const t of await trialBalance(db)) assert.equal(t.debit, t.credit, `balanced in ${t.currency}`);
    // The reversal is asked of the aggregator, and its answer kept on the try.
    assert.equal(await runJobs("payouts.reverseLate"), 1);
    assert.equal((await triesOf(ids.failedOver))[0].answer?.reversalStatus, "REVERSAL_REQUESTED");
    // The same webhook again changes nothing.
    await db.transaction((tx) => applyProviderStatus(tx, { externalId: first.id, status: "COMPLETED", reasonCode: null, reference: null }, clock.now()));
    assert.equal(await runJobs("payouts.reverseLate"), 0);
    assert.equal(await owedBack(), 1875_00n, "posted once");
  });

  test("the aggregator returns the reversed late payment: REVERSED, the receivable cleared into its prefunding in the same transaction; the cycle nets to zero", async () => {
    const { applyProviderStatus } = await import("@/lib/payments/payouts/routed");
    const [first] = await triesOf(ids.failedOver);
    assert.equal(first.state, "LATE_PAID");
    const aggregatorBefore = await prefunding("cash:payout-aggregator");
    const reversed = { externalId: first.id, status: "REVERSED" as const, reasonCode: null, reference: `sbx_rev_${first.id}` };
    await db.transaction((tx) => applyProviderStatus(tx, reversed, clock.now()));
    assert.deepEqual(
      (await triesOf(ids.failedOver)).map((a) => a.state),
      ["REVERSED", "PAID"],
    );
    assert.equal(await owedBack(), 0n, "nothing owed back any more");
    assert.equal(await prefunding("cash:payout-aggregator"), aggregatorBefore + 1875_00n, "the money is back in the aggregator's prefunding");
    const entriesOf = async (kind: string) =>
      db
        .select({ id: journalEntries.id })
        .from(journalEntries)
        .where(and(eq(journalEntries.transferId, ids.failedOver), eq(journalEntries.kind, kind)));
    assert.equal((await entriesOf("payout.reversalReturned")).length, 1);
    assert.equal((await entriesOf("payout.confirmed")).length, 1, "still paid once");
    assert.equal((await stateOf(ids.failedOver)).state, "paid");
    // Late success and its return together move nothing: the receivable's and the prefunding's lines of the pair cancel out.
    const { accountBalances, trialBalance } = await import("@/lib/finance/ledger");
    const net = await db
      .select({ account: ledgerAccounts.code, sum: sql<string>`sum(${journalLines.debitMinor} - ${journalLines.creditMinor})::text` })
      .from(journalLines)
      .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
      .where(and(eq(journalEntries.transferId, ids.failedOver), inArray(journalEntries.kind, ["payout.lateSuccess", "payout.reversalReturned"])))
      .groupBy(ledgerAccounts.code);
    assert.deepEqual(net.map((r) => [r.account, r.sum]).sort(), [
      ["cash:payout-aggregator", "0"],
      ["receivable:payout-reversals", "0"],
    ]);
    assert.equal(
      (await accountBalances(db, { code: "receivable:payout-reversals" })).reduce((t, b) => t + b.balance, 0n),
      0n,
    );
    for (const t of await trialBalance(db)) assert.equal(t.debit, t.credit, `balanced in ${t.currency}`);
    // The same return again: nothing booked.
    await db.transaction((tx) => applyProviderStatus(tx, reversed, clock.now()));
    assert.equal((await entriesOf("payout.reversalReturned")).length, 1);
    assert.equal(await prefunding("cash:payout-aggregator"), aggregatorBefore + 1875_00n);
  });

  test("an AC01 from the aggregator waits for the repair (no failover, no refund); the repaired payout is routed and paid", async () => {
    const t = await fundedTransfer(owner, clabe("99903"));
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    assert.deepEqual(
      (await triesOf(t.id)).map((a) => [a.provider, a.state, a.outcomeCode]),
      [["aggregator", "REJECTED", "AC01"]],
    );
    const waiting = await stateOf(t.id);
    assert.equal(waiting.state, "funded");
    assert.equal(waiting.rejectionReason, "PAYOUT_ACCOUNT_INVALID");
    assert.equal((await eventsOf(t.id, "payout.repair.required")).length, 1);
    const { transferDetail } = await import("@/lib/payments/transfers/view");
    const detail = await transferDetail(db, waiting);
    assert.equal(detail.customerActionExpected, "REPAIR_PAYOUT");
    assert.equal(detail.payoutRepair?.rejectionReason.isoReasonCode, "AC01");

    // The name on the refused destination was checked (as at submit).
    const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
    const verify = () =>
      jobRegistry["payouts.verifyPayee"].perform!(db, {
        payload: { transferId: t.id },
        jobId: "v",
        attempt: 1,
        now: clock.now(),
        signal: new AbortController().signal,
      });
    await verify();
    const refusedMethod = waiting.payoutMethodId;
    assert.equal((await stateOf(t.id)).payeeVerification?.payoutMethodId, refusedMethod);

    const { repairPayoutForCustomer } = await import("@/lib/payments/payouts/repair");
    await db.transaction((tx) =>
      repairPayoutForCustomer(tx, {
        subscriptionId: owner.subscriptionId,
        transferId: t.id,
        payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: clabe() },
        now: clock.now(),
      }),
    );
    assert.equal((await triesOf(t.id))[0].state, "REPAIRED");
    // The new payout method is verified in its turn: its answer replaces the old destination's.
    const repairedMethod = (await stateOf(t.id)).payoutMethodId;
    assert.notEqual(repairedMethod, refusedMethod);
    assert.equal(await runJobs("payouts.verifyPayee"), 1, "verification asked for the new payout method");
    const verified = (await stateOf(t.id)).payeeVerification!;
    assert.deepEqual([verified.result, verified.payoutMethodId], ["MATCH", repairedMethod]);
    // The partner sees the answer only: no provider, no method id, nothing of compliance.
    const afterRepair = await transferDetail(db, await stateOf(t.id));
    assert.deepEqual(Object.keys(afterRepair.payeeVerification ?? {}).sort(), ["checkedAt", "result"]);
    // A retried job changes nothing.
    const checkedAt = verified.checkedAt;
    await verify();
    assert.equal((await stateOf(t.id)).payeeVerification?.checkedAt, checkedAt);
    assert.equal(await runJobs("payouts.route"), 1);
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    assert.equal(await runJobs("payouts.providerStatus"), 1);
    assert.deepEqual(
      (await triesOf(t.id)).map((a) => [a.seq, a.provider, a.state]),
      [
        [1, "aggregator", "REPAIRED"],
        [2, "aggregator", "PAID"],
      ],
    );
    assert.equal((await stateOf(t.id)).state, "paid");
    assert.equal((await eventsOf(t.id, "payout.repaired")).length, 1);
  });

  test("provider down fails over too; the aggregator's 24 h success (4 of 5) then ranks it after the bank file", async () => {
    const { providerHealth, rankRoutes } = await import("@/lib/payments/payouts/routing");
    const t = await fundedTransfer(owner, clabe("99902"));
    // The aggregator's try, then the bank file's it failed over to.
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    const tries = await triesOf(t.id);
    assert.deepEqual(
      tries.map((a) => [a.provider, a.state, a.outcomeCode]),
      [
        ["aggregator", "FAILED", "PROVIDER_DOWN"],
        ["bank-file", "SUBMITTED", null],
      ],
    );
    const health = await providerHealth(db, clock.now());
    assert.deepEqual(
      health.filter((h) => h.provider === "aggregator").map((h) => [h.tries24h, h.succeeded24h, h.recentFailures]),
      [[5, 4, 1]],
    );
    const ranked = rankRoutes({ corridor: "US-MX", method: "bank_account", amount: "1875.000000", exclude: [], health, now: clock.now() });
    assert.deepEqual(
      ranked.map((r) => r.provider),
      ["bank-file", "aggregator"],
    );
    const next = await fundedTransfer(owner, clabe());
    ids.bankFirst = next.id;
    assert.deepEqual(
      (await triesOf(next.id)).map((a) => [a.provider, a.state]),
      [["bank-file", "QUEUED"]],
    );
  });

  test("the bank's technical rejection (pain.002 RJCT MS03) of a routed file fails over to the aggregator, which pays", async () => {
    const id = ids.bankFirst;
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    const [fileTry] = await triesOf(id);
    assert.equal(fileTry.state, "SUBMITTED");
    const { importPaymentStatusReport } = await import("@/lib/payments/payouts/status-import");
    const counts = await db.transaction((tx) =>
      importPaymentStatusReport(tx, {
        xml: pain002("RTE-2", fileTry.providerReference!, [{ endToEndId: id, status: "RJCT", reason: "MS03" }]),
        now: clock.now(),
      }),
    );
    assert.equal(counts.applied, 1);
    assert.deepEqual(
      (await triesOf(id)).map((a) => [a.provider, a.state, a.outcomeCode]),
      [
        ["bank-file", "FAILED", "MS03"],
        ["aggregator", "QUEUED", null],
      ],
    );
    assert.equal((await stateOf(id)).state, "topay", "still with the network: not rejected, not refunded");
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    assert.equal(await runJobs("payouts.providerStatus"), 1);
    const paid = await stateOf(id);
    assert.equal(paid.state, "paid");
    assert.equal(paid.payoutProvider, "aggregator");
    assert.equal((await confirmedEntries(id)).length, 1);
  });

  test("every provider fails (timeout at the aggregator, MS03 from the bank): no route is left, the transfer waits and the payout.noRoute alert names it", async () => {
    const { readOperations } = await import("@/lib/operations/observability/readings");
    const { firing } = await import("@/lib/operations/observability/alert-conditions");
    const { payoutsWithoutRoute } = await import("@/lib/payments");
    const noRoute = async () => firing(await readOperations(db, clock.now()), { refreshHours: 24 }).filter((f) => f.condition === "payout.noRoute");
    assert.deepEqual(await noRoute(), [], "paid, held and routed payouts are not stranded");
    const t = await fundedTransfer(owner, clabe("99901"));
    // Whichever provider ranks first, each try fails in turn and the router moves to the next.
    for (let i = 0; i < 2; i++) {
      assert.equal(await runJobs("payouts.submitAttempt"), 1);
      const last = (await triesOf(t.id)).at(-1)!;
      if (last.provider !== "bank-file") continue;
      const { importPaymentStatusReport } = await import("@/lib/payments/payouts/status-import");
      await db.transaction((tx) =>
        importPaymentStatusReport(tx, {
          xml: pain002(`RTE-NR-${i}`, last.providerReference!, [{ endToEndId: t.id, status: "RJCT", reason: "MS03" }]),
          now: clock.now(),
        }),
      );
    }
    const tries = await triesOf(t.id);
    assert.deepEqual(
      tries.map((a) => a.state),
      ["FAILED", "FAILED"],
    );
    assert.deepEqual(tries.map((a) => a.provider).sort(), ["aggregator", "bank-file"]);
    assert.equal(await runJobs("payouts.submitAttempt"), 0, "nothing left to send");
    assert.ok(["funded", "topay"].includes((await stateOf(t.id)).state), "waiting, not refunded without a human");
    assert.deepEqual(
      (await payoutsWithoutRoute(db, clock.now())).map((p) => p.transferId),
      [t.id],
    );
    const alerts = await noRoute();
    assert.deepEqual(
      alerts.map((f) => f.subject),
      ["US-MX"],
    );
    assert.match(alerts[0].summary, new RegExp(`^1 payouts with no provider left .*${t.id}$`));
    ids.noRoute = t.id;
  });

  test("the beneficiary's bank returns a paid payout: RETURNED, one balanced entry into suspense, a replay books nothing more; the alert and the console queue name it; the operator refunds it", async () => {
    const { applyProviderStatus } = await import("@/lib/payments/payouts/routed");
    const { returnedPayouts } = await import("@/lib/payments/payouts/returned");
    const [paidTry] = await triesOf(ids.held);
    assert.deepEqual([paidTry.provider, paidTry.state], ["aggregator", "PAID"]);
    assert.deepEqual(await returnedAlerts(), []);
    const aggregatorBefore = await prefunding("cash:payout-aggregator");
    const suspenseBefore = await suspense();
    const returned = { externalId: paidTry.id, status: "REVERSED" as const, reasonCode: "AC04", reference: `sbx_ret_${paidTry.id}` };
    await db.transaction((tx) => applyProviderStatus(tx, returned, clock.now()));
    const [after] = await triesOf(ids.held);
    assert.deepEqual([after.state, after.outcomeCode], ["RETURNED", "AC04"]);
    assert.equal((await stateOf(ids.held)).state, "paid", "paid is terminal (spec 3.1): the transfer stays paid");
    assert.deepEqual(await linesOfKind(ids.held, "payout.providerReturned"), [
      ["cash:payout-aggregator", "187500", "0"],
      ["suspense:returned-payouts", "0", "187500"],
    ]);
    assert.equal(await prefunding("cash:payout-aggregator"), aggregatorBefore + 1875_00n, "the money is back in the aggregator's prefunding");
    assert.equal(await suspense(), suspenseBefore - 1875_00n, "held for the customer (a credit balance)");
    await balanced();
    // The same webhook again: nothing more.
    await db.transaction((tx) => applyProviderStatus(tx, returned, clock.now()));
    await db.transaction((tx) => applyProviderStatus(tx, { ...returned, status: "COMPLETED", reasonCode: null }, clock.now()));
    assert.equal((await triesOf(ids.held))[0].state, "RETURNED");
    assert.equal((await entriesOfKind(ids.held, "payout.providerReturned")).length, 1);
    assert.equal(await prefunding("cash:payout-aggregator"), aggregatorBefore + 1875_00n);

    // The operator is told: the console's queue and the operations alert name the transfer.
    assert.deepEqual(
      (await returnedPayouts(db)).map((r) => [r.transferId, r.provider, r.amount, r.currency, r.reasonCode]),
      [[ids.held, "aggregator", paidTry.amount, "MXN", "AC04"]],
    );
    const alerts = await returnedAlerts();
    assert.deepEqual(
      alerts.map((f) => f.subject),
      ["aggregator:MXN"],
    );
    assert.match(alerts[0].summary, new RegExp(`^1 paid payouts returned .*${ids.held} \\(AC04\\)$`));

    // The operator refunds the customer: the money leaves suspense for the refund owed, the refund starts.
    const { runCommand } = await import("@/lib/operations/commands/run");
    const { refundReturnedPayout } = await import("@/lib/operations/commands/payouts");
    const admin = { id: "op_returns_test", email: "returns@example.test", name: "Returns", role: "admin" as const };
    const done = await runCommand(refundReturnedPayout, { transferId: ids.held }, { operator: admin, reason: "Account closed, customer informed" });
    assert.equal(done.ok, true);
    assert.equal((await triesOf(ids.held))[0].state, "RETURN_REFUNDED");
    const transfer = await stateOf(ids.held);
    assert.equal(transfer.state, "paid");
    const [refund] = await db.select().from(refunds).where(eq(refunds.transferId, ids.held));
    const { toMinor } = await import("@/lib/finance");
    const total = toMinor(transfer.totalCustomerCost, transfer.originCurrency);
    assert.deepEqual([refund.state, toMinor(refund.amount!, transfer.originCurrency)], ["PENDING", total], "everything the customer paid");
    assert.equal(await suspense(), suspenseBefore, "suspense cleared");
    assert.equal((await entriesOfKind(ids.held, "payout.returnRefunded")).length, 1);
    const refundDue = (await linesOfKind(ids.held, "payout.returnRefunded")).find((l) => l[0] === "transfer:refund-due")!;
    assert.equal(refundDue[2], String(total), "the total owed back");
    await balanced();
    assert.deepEqual(await returnedPayouts(db), []);
    assert.deepEqual(await returnedAlerts(), [], "the alert resolves");
    // Twice: refused, nothing more.
    const again = await runCommand(refundReturnedPayout, { transferId: ids.held }, { operator: admin, reason: "again" });
    assert.equal(again.ok, false);
    if (!again.ok) assert.equal(again.error.code, "transfer.stateInvalid");
    assert.equal((await entriesOfKind(ids.held, "payout.returnRefunded")).length, 1);
  });

  test("a return delivered before its payment's success: nothing booked, the try kept; the success then pays and returns it in one transaction", async () => {
    const { applyProviderStatus } = await import("@/lib/payments/payouts/routed");
    const t = await fundedTransfer(owner, clabe());
    assert.equal(await runJobs("payouts.submitAttempt"), 1);
    const [queued] = await triesOf(t.id);
    assert.equal(queued.state, "SUBMITTED");
    const account = queued.provider === "bank-file" ? "cash:payout-bank" : "cash:payout-aggregator";
    const prefundingBefore = await prefunding(account);
    const suspenseBefore = await suspense();
    const returned = { externalId: queued.id, status: "REVERSED" as const, reasonCode: "AC04", reference: `ret_${queued.id}` };
    await db.transaction((tx) => applyProviderStatus(tx, returned, clock.now()));
    await db.transaction((tx) => applyProviderStatus(tx, returned, clock.now()));
    const [kept] = await triesOf(t.id);
    assert.equal(kept.state, "SUBMITTED", "never paid from our side: not returned");
    assert.equal((await stateOf(t.id)).state, "topay");
    assert.equal((await entriesOfKind(t.id, "payout.providerReturned")).length, 0);
    assert.equal(await prefunding(account), prefundingBefore);
    // The success arrives (the sandbox's own webhook for an aggregator's try, delivered here either way).
    await db.transaction((tx) => applyProviderStatus(tx, { ...returned, status: "COMPLETED", reasonCode: null, reference: `pay_${queued.id}` }, clock.now()));
    await runJobs("payouts.providerStatus");
    const [done] = await triesOf(t.id);
    assert.deepEqual([done.state, done.outcomeCode], ["RETURNED", "AC04"]);
    assert.equal((await stateOf(t.id)).state, "paid");
    assert.equal((await confirmedEntries(t.id)).length, 1);
    assert.equal((await entriesOfKind(t.id, "payout.providerReturned")).length, 1);
    assert.equal(await prefunding(account), prefundingBefore, "drawn by the payment, back by its return");
    assert.equal(await suspense(), suspenseBefore - 1875_00n);
    await balanced();
    const { returnedPayouts } = await import("@/lib/payments/payouts/returned");
    assert.deepEqual(
      (await returnedPayouts(db)).map((r) => r.transferId),
      [t.id],
    );
  });
});

describe("routing rules", () => {
  const now = new Date("2026-11-30T12:00:00Z");
  const health = (provider: string, h: Partial<import("@/lib/payments/payouts/routing").ProviderHealth>) => ({
    provider,
    tries24h: 0,
    succeeded24h: 0,
    recentFailures: 0,
    lastFailureAt: null,
    ...h,
  });

  test("cheapest first; a provider's breaker opens after three failures in the window and closes after its open time", async () => {
    const { rankRoutes } = await import("@/lib/payments/payouts/routing");
    const rank = (h: ReturnType<typeof health>[], at = now) =>
      rankRoutes({ corridor: "GB-NG", method: "mobile_money", amount: "50000.00", exclude: [], health: h, now: at }).map((r) => r.provider);
    assert.deepEqual(rank([]), ["aggregator", "bank-file"]);
    const failing = health("aggregator", { recentFailures: 3, lastFailureAt: new Date(now.getTime() - 60_000) });
    assert.deepEqual(rank([failing]), ["bank-file"]);
    assert.deepEqual(rank([failing], new Date(now.getTime() + 10 * 60_000)), ["aggregator", "bank-file"], "half-open after 10 minutes");
    assert.deepEqual(rank([health("aggregator", { recentFailures: 2, lastFailureAt: now })]), ["aggregator", "bank-file"]);
  });

  test("a provider already failed for the payout is excluded; an amount over a route's bound skips it; an unknown corridor has no route", async () => {
    const { rankRoutes, loadRoutingFile, ROUTING } = await import("@/lib/payments/payouts/routing");
    assert.deepEqual(
      rankRoutes({ corridor: "US-PH", method: "wallet_transfer", amount: "10.00", exclude: ["aggregator"], health: [], now }).map((r) => r.provider),
      ["bank-file"],
    );
    const bounded = loadRoutingFile({
      ...ROUTING,
      routes: [{ corridor: "US-MX", method: "bank_account", provider: "aggregator", cost: "0.10", maxAmount: "1000.00" }],
    });
    assert.deepEqual(rankRoutes({ corridor: "US-MX", method: "bank_account", amount: "1000.01", exclude: [], health: [], now }, bounded), []);
    assert.equal(rankRoutes({ corridor: "US-MX", method: "bank_account", amount: "1000.00", exclude: [], health: [], now }, bounded).length, 1);
    assert.deepEqual(rankRoutes({ corridor: "XX-YY", method: "bank_account", amount: "1.00", exclude: [], health: [], now }), []);
    assert.throws(
      () => loadRoutingFile({ ...ROUTING, routes: [{ corridor: "US-MX", method: "bank_account", provider: "carrier-pigeon", cost: "1" }] }),
      /known payout provider/,
    );
  });

  test("every shipped corridor's payout methods have at least two providers", async () => {
    const { ROUTING } = await import("@/lib/payments/payouts/routing");
    const { listCorridors } = await import("@/lib/payments/corridors/corridors");
    for (const c of listCorridors())
      for (const m of c.payoutMethods) {
        const providers = new Set(ROUTING.routes.filter((r) => r.corridor === c.code && r.method === m).map((r) => r.provider));
        assert.ok(providers.size >= 2, `${c.code} ${m}: ${[...providers].join(", ")}`);
      }
  });
});

describe("payee verification through the aggregator", () => {
  test("the four answers, driven by the sandbox's test names, reach the transfer detail", async () => {
    const { lockTransfer } = await import("@/lib/payments/transfers/records");
    const { transferDetail } = await import("@/lib/payments/transfers/view");
    const owner = await newSubscription(db);
    const cases = [
      ["Ruiz", { result: "MATCH" }],
      ["Closematch", { result: "CLOSE_MATCH", nameHeld: "Ana Closematch Ortega" }],
      ["Nomatch", { result: "NO_MATCH" }],
      ["Unverifiable", { result: "NOT_POSSIBLE" }],
    ] as const;
    for (const [lastName, expected] of cases) {
      const created = await registeredTransfer(db, owner);
      const beneficiaryId = newId("ben");
      const now = clock.now();
      await db.insert(beneficiaries).values({
        id: beneficiaryId,
        subscriptionId: owner.subscriptionId,
        firstName: "Ana",
        lastName,
        countryOfResidence: "MEX",
        relationshipToCustomer: "FAMILY",
        state: "VALID",
        createdAt: now,
        updatedAt: now,
      });
      await db
        .update(transfers)
        .set({ beneficiaryId, payoutMethodId: await addMethod(beneficiaryId, clabe()) })
        .where(eq(transfers.id, created.id));
      const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
      await jobRegistry["payouts.verifyPayee"].perform!(db, {
        payload: { transferId: created.id },
        jobId: "t",
        attempt: 1,
        now,
        signal: new AbortController().signal,
      });
      const row = (await db.transaction((tx) => lockTransfer(tx, created.id)))!;
      const { payeeVerification } = await transferDetail(db, row);
      assert.ok(payeeVerification, lastName);
      const { checkedAt, ...rest } = payeeVerification;
      assert.deepEqual(rest, expected, lastName);
      assert.ok(!Number.isNaN(Date.parse(checkedAt)));
      // A second run (a retried job) keeps the first answer.
      await jobRegistry["payouts.verifyPayee"].perform!(db, {
        payload: { transferId: created.id },
        jobId: "t2",
        attempt: 2,
        now,
        signal: new AbortController().signal,
      });
      assert.equal((await transferDetail(db, row)).payeeVerification?.checkedAt, checkedAt);
    }
  });

  test("the detail records a confirmation after a warning", async () => {
    const { payeeVerificationView } = await import("@/lib/payments/transfers/details");
    assert.deepEqual(
      payeeVerificationView({ result: "NO_MATCH", checkedAt: "2026-11-29T10:00:00.000Z", provider: "sandbox", proceededAt: "2026-11-29T10:01:00.000Z" }),
      {
        result: "NO_MATCH",
        checkedAt: "2026-11-29T10:00:00.000Z",
        proceededAfterWarningAt: "2026-11-29T10:01:00.000Z",
      },
    );
    assert.equal(payeeVerificationView(null), undefined);
  });
});
