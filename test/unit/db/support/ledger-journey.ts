/**
 * Random transfer journeys for the ledger property test (test/unit/db/ledger-journeys.test.ts):
 * each step calls the same domain function the API, console, sandbox or a job calls, in a
 * transaction of its own; a refused move (DomainError) is part of a random journey and ignored.
 * A "crash" runs the step and then rolls its transaction back.
 */
import fc from "fast-check";
import { and, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { fundingSessions } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { fromMinor, postEntry } from "@/lib/finance/ledger";
import type { RefundStatus } from "@/lib/payments/transfers/refund-state-machine";
import { insertQuoteRows, type Owner } from "../../../support/fixtures";
import { refundOf } from "../../../support/refunds";

export type Step =
  | { t: "fastCheck"; outcome: "passed" | "review" | "failed" }
  | { t: "review"; decision: "APPROVE" | "REJECT" }
  | { t: "confirm" }
  | { t: "fund"; how: "CARD" | "BANK_TRANSFER" | "statement" }
  | { t: "fundFailed" }
  | { t: "cancel" }
  | { t: "network"; to: "topay" | "reqpay" | "paid" }
  | { t: "networkJob" }
  | { t: "networkCancel"; outcome: "NETWORK_CANCELLATION_SUCCESS" | "NETWORK_ALREADY_PAID" | "NETWORK_IN_PROGRESS_RETRY_ALLOWED" }
  | { t: "networkRejected" }
  | { t: "hold" }
  | { t: "release"; resolution: "RESTORE" | "REJECT" }
  | { t: "refundJob" }
  | { t: "refundOperator"; how: "operator.paid" | "operator.failed" | "operator.retry" }
  | { t: "timeout" };

/** The happy path is likelier than the rest, so journeys get far enough to move money. */
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Step>({ t: "fastCheck", outcome: "passed" }, { t: "confirm" }, { t: "networkJob" }) },
  { weight: 3, arbitrary: fc.constantFrom<Step>({ t: "fund", how: "CARD" }, { t: "fund", how: "BANK_TRANSFER" }, { t: "fund", how: "statement" }) },
  { weight: 2, arbitrary: fc.constantFrom<Step>({ t: "network", to: "topay" }, { t: "network", to: "reqpay" }, { t: "network", to: "paid" }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Step>(
      { t: "cancel" },
      { t: "networkRejected" },
      { t: "networkCancel", outcome: "NETWORK_CANCELLATION_SUCCESS" },
      { t: "networkCancel", outcome: "NETWORK_ALREADY_PAID" },
      { t: "networkCancel", outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED" },
      { t: "hold" },
      { t: "release", resolution: "RESTORE" },
      { t: "release", resolution: "REJECT" },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Step>(
      { t: "fastCheck", outcome: "review" },
      { t: "fastCheck", outcome: "failed" },
      { t: "review", decision: "APPROVE" },
      { t: "review", decision: "REJECT" },
      { t: "fundFailed" },
      { t: "timeout" },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Step>(
      { t: "refundJob" },
      { t: "refundOperator", how: "operator.paid" },
      { t: "refundOperator", how: "operator.failed" },
      { t: "refundOperator", how: "operator.retry" },
    ),
  },
);

/** Currency pairs with different minor units (2, 0, 3) on either side. */
const PAIRS = [
  ["USD", "MXN"],
  ["EUR", "JPY"],
  ["GBP", "KWD"],
  ["JPY", "USD"],
] as const;

export const termsArb: fc.Arbitrary<Terms> = fc.record({
  pair: fc.constantFrom(...PAIRS),
  origin: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  principalFee: fc.bigInt({ min: 0n, max: 5000n }),
  partnerFee: fc.bigInt({ min: 0n, max: 5000n }),
  destination: fc.bigInt({ min: 1n, max: 10n ** 14n }),
});
export interface Terms {
  pair: readonly [string, string];
  origin: bigint;
  principalFee: bigint;
  partnerFee: bigint;
  destination: bigint;
}

/** Minor units as a six-place wire amount. */
function wire(minor: bigint, currency: string): string {
  const [int, frac = ""] = fromMinor(minor, currency).split(".");
  return `${int}.${frac.padEnd(6, "0")}`;
}

export async function newTransfer(db: Db, owner: Owner, terms: Terms, now: Date) {
  const { insertRegisteredTransfer } = await import("@/lib/payments/transfers/records");
  const [oc, dc] = terms.pair;
  const priced = {
    originAmount: wire(terms.origin, oc),
    originCurrency: oc,
    destinationAmount: wire(terms.destination, dc),
    destinationCurrency: dc,
    fxRate: "1.000000",
    principalFee: wire(terms.principalFee, oc),
    partnerFee: wire(terms.partnerFee, oc),
    totalCustomerCost: wire(terms.origin + terms.principalFee + terms.partnerFee, oc),
  };
  return db.transaction(async (tx) => {
    const { quoteId, beneficiaryId } = await insertQuoteRows(tx, owner, priced, now);
    return insertRegisteredTransfer(
      tx,
      {
        partnerId: owner.partnerId,
        subscriptionId: owner.subscriptionId,
        customerId: owner.customerId,
        quoteId,
        beneficiaryId,
        ...priced,
        corridor: `${oc}-${dc}`,
        payoutMethod: "bank_account",
        purposeOfTransfer: "FAMILY_SUPPORT",
        expiresAt: addSeconds(now, 7200),
        createdAt: now,
      },
      now,
    );
  });
}

class Crash extends Error {}

export type JobPayload = { transferId: string; from?: string };

/**
 * Runs one step on the transfer; answers "refused" when the domain said no, "crashed" when rolled
 * back, and for a job step the payload it ran with (to replay it).
 */
export async function runStep(
  db: Db,
  owner: Owner,
  transferId: string,
  step: Step,
  crash: boolean,
  now: Date,
): Promise<{ outcome: "done" | "refused" | "crashed"; job?: JobPayload }> {
  let job: JobPayload | undefined;
  try {
    await db.transaction(async (tx) => {
      job = (await apply(tx, owner, transferId, step, now)) ?? undefined;
      if (crash) throw new Crash();
    });
    return { outcome: "done", job };
  } catch (err) {
    if (err instanceof Crash) return { outcome: "crashed" };
    if (err instanceof DomainError) return { outcome: "refused" };
    throw err;
  }
}

/** The same job again, same payload (a duplicate enqueue, a worker retrying after a lost answer). */
export async function replayJob(db: Db, step: Step, payload: JobPayload, now: Date): Promise<void> {
  await db.transaction((tx) => runJob(tx, step.t === "networkJob" ? "network" : "refund", payload, now));
}

async function apply(tx: Tx, owner: Owner, transferId: string, step: Step, now: Date): Promise<JobPayload | void> {
  const records = await import("@/lib/payments/transfers/records");
  const row = (await records.lockTransfer(tx, transferId))!;
  switch (step.t) {
    case "fastCheck":
      return void (await records.transitionTransfer(tx, row, `fastCheck.${step.outcome}`, now));
    case "review":
      return void (await (await import("@/lib/payments/transfers/compliance")).reviewTransfer(tx, row, step.decision, now));
    case "confirm": {
      const confirmed = await records.transitionTransfer(tx, row, "confirm", now, { confirmedAt: now });
      return void (await (await import("@/lib/payments/transfers/funding")).openFundingSession(tx, confirmed, now));
    }
    case "fund":
    case "fundFailed":
      return fund(tx, row, step.t === "fund" ? step.how : null, now);
    case "cancel":
      return void (await (
        await import("@/lib/payments/transfers/cancel")
      ).cancelTransfer(tx, { subscriptionId: owner.subscriptionId, transferId, cancellationReason: "CUSTOMER_REQUEST", now }));
    case "network":
      return void (await (await import("@/lib/payments/transfers/network")).advanceNetwork(tx, row, step.to, now));
    case "networkJob":
      return runJob(tx, "network", { transferId, from: row.state }, now).then(() => ({ transferId, from: row.state }));
    case "networkCancel":
      return void (await (await import("@/lib/payments/transfers/network")).resolveNetworkCancellation(tx, row, step.outcome, now));
    case "networkRejected":
      return void (await (
        await import("@/lib/payments/transfers/network")
      ).rejectPayout(tx, row, (await import("@/lib/payments/payouts/reject-reasons")).payoutRejection("AC04"), now));
    case "hold":
      return void (await (await import("@/lib/compliance/cases/hold")).holdTransfer(tx, row, now));
    case "release":
      return void (await (await import("@/lib/payments/transfers/compliance")).releaseTransfer(tx, row, step.resolution, now));
    case "refundJob": {
      const from = (await refundOf(tx, transferId))?.state;
      return runJob(tx, "refund", { transferId, from }, now).then(() => ({ transferId, from }));
    }
    case "refundOperator":
      return void (await (await import("@/lib/payments/transfers/refunds")).moveRefund(tx, row, step.how, now, { bankReference: "BANKREF-1" }));
    case "timeout":
      return void (await (await import("@/lib/payments/transfers/deadline")).expireIfOverdue(tx, row, addSeconds(now, 7201)));
  }
}

/** The job's own run, as the worker would call it (a replay calls it again with the same payload). */
async function runJob(tx: Tx, which: "network" | "refund", payload: { transferId: string; from?: string }, now: Date) {
  // The payload the step's enqueue wrote: the state (network) or refund status it advances.
  const job = { jobId: newId("job"), attempt: 1, now, signal: new AbortController().signal };
  if (which === "network")
    await (
      await import("@/lib/payments/transfers/network")
    ).networkStep.run!(tx, { ...job, payload: { transferId: payload.transferId, from: payload.from! } });
  else
    await (
      await import("@/lib/payments/transfers/refunds")
    ).advanceRefund.run!(tx, { ...job, payload: { transferId: payload.transferId, from: payload.from as RefundStatus | undefined } });
}

async function fund(
  tx: Tx,
  row: { id: string; totalCustomerCost: string; originCurrency: string },
  how: "CARD" | "BANK_TRANSFER" | "statement" | null,
  now: Date,
) {
  const funding = await import("@/lib/payments/transfers/funding");
  const [open] = await tx
    .select({ id: fundingSessions.id })
    .from(fundingSessions)
    .where(and(eq(fundingSessions.transferId, row.id), eq(fundingSessions.state, "OPEN")))
    .orderBy(desc(fundingSessions.createdAt))
    .limit(1);
  if (!open) throw new DomainError("transfer.stateInvalid", { message: "no open session" });
  const locked = (await funding.lockFundingSession(tx, open.id))!;
  if (how === null) return void (await funding.completeFunding(tx, { ...locked, outcome: "FAILED", method: "CARD", now }));
  if (how === "statement") {
    // What the statement import does first: the credit lands in suspense, then is matched.
    const { toMinor } = await import("@/lib/finance/ledger");
    const amount = toMinor(row.totalCustomerCost, row.originCurrency);
    await postEntry(tx, {
      sourceKey: `bank-credit:${newId("ref")}`,
      kind: "bank.credit",
      memo: "statement credit",
      lines: [
        { account: "cash:collection", currency: row.originCurrency, debit: amount },
        { account: "suspense:unallocated", currency: row.originCurrency, credit: amount },
      ],
      now,
    });
    return void (await funding.completeFunding(tx, { ...locked, outcome: "SUCCEEDED", method: "BANK_TRANSFER", fundedFrom: "suspense:unallocated", now }));
  }
  await funding.completeFunding(tx, { ...locked, outcome: "SUCCEEDED", method: how, now });
}
