import { and, asc, eq, inArray, sql } from "drizzle-orm";
import countries from "@/lib/platform/i18n/iso-countries";
import { z } from "zod";
import type { Db, Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customers, journalLines, ledgerAccounts, payoutMethods, payoutProviderAttempts, transfers } from "@/db/schema";
import { corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { refreshForTransfers } from "@/lib/payments/corridors/versions";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import type { ProfileInput } from "@/lib/identity";
import { DomainError } from "@/lib/platform/errors";
import { defineJob } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { postEntry, prefundingAccount, toMinor } from "@/lib/finance";
import { logger } from "@/lib/platform/log";
import { effectsOf, inUnit } from "@/lib/platform/unit-of-work";
import { providers } from "@/lib/payments/providers";
import {
  AGGREGATOR_STATUSES,
  AggregatorUnavailable,
  payoutAggregator,
  type AggregatorStatusValue,
  type AggregatorPayoutRequest,
  type AggregatorSubmitAnswer,
  type StructuredAddress,
} from "@/lib/payments/providers/payout-aggregator";
import { confirmPaid, handToNetwork, markInProgress } from "@/lib/payments/transfers/network";
import { lockTransfer, type TransferRow } from "@/lib/payments/transfers/records";
import { generatePayoutFiles } from "./generate";
import { IN_FLIGHT_STATES, providerAttemptMachine, type ProviderAttemptState, type ProviderAttemptTrigger } from "./provider-attempt-state-machine";
import { payoutRejection, REPAIRABLE_REASONS } from "./reject-reasons";
import { providerHealth, rankRoutes } from "./routing";

/**
 * The routed payout (PAYOUT_PROVIDER=routed): each funded transfer goes to the provider the
 * routing table ranks first among those with prefunding cover (lib/payments/payouts/routing.ts). Every try
 * is a payout_provider_attempts row; this is the one module that moves its state. A retryable
 * failure goes to the next provider without a human; a rejection of the beneficiary's data waits
 * for the repair; a payout with no provider covered waits (WAITING_COVER) for a top-up. Provider
 * calls run in jobs outside any transaction (payouts.submitAttempt, payouts.reverseLate). The
 * operator's refund of a returned payout (RETURNED → RETURN_REFUNDED) is ./returned.ts's.
 */
export type ProviderAttemptRow = typeof payoutProviderAttempts.$inferSelect;

export const isRouted = () => providers().payout === "routed";

const PAYABLE = new Set(["funded", "topay", "reqpay"]);
/** A try that still answers for the transfer: while one exists the router adds none. */
const OPEN: readonly ProviderAttemptState[] = ["WAITING_COVER", "QUEUED", "SUBMITTED", "REJECTED", "PAID"];

export async function attemptsOf(db: Executor, transferId: string): Promise<ProviderAttemptRow[]> {
  return db.select().from(payoutProviderAttempts).where(eq(payoutProviderAttempts.transferId, transferId)).orderBy(asc(payoutProviderAttempts.seq));
}

/** Where a try keeps a return reported before its success (`answer`): what the provider sent, applied when the success arrives. */
const EARLY_RETURN = "returnedBeforeCompleted";

interface EarlyReturn {
  raw: Record<string, unknown>;
  reference: string | null;
  reasonCode: string | null;
}

function earlyReturnOf(attempt: ProviderAttemptRow): EarlyReturn | null {
  const parked = attempt.answer?.[EARLY_RETURN] as Record<string, unknown> | undefined;
  if (!parked) return null;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return { raw: parked, reference: text(parked.id), reasonCode: text(parked.status_reason_code) };
}

async function lockAttempt(tx: Tx, id: string): Promise<ProviderAttemptRow | undefined> {
  const [row] = await tx.select().from(payoutProviderAttempts).where(eq(payoutProviderAttempts.id, id)).for("update");
  return row;
}

async function move(
  tx: Tx,
  row: ProviderAttemptRow,
  trigger: ProviderAttemptTrigger,
  now: Date,
  set: { answer?: Record<string, unknown>; outcomeCode?: string | null; providerReference?: string | null } = {},
): Promise<ProviderAttemptRow> {
  const to = providerAttemptMachine.next(row.state, trigger).to;
  // A return parked on the try outlives the answers recorded over it, until the success applies it.
  const parked = row.answer?.[EARLY_RETURN];
  if (set.answer && parked !== undefined) set = { ...set, answer: { ...set.answer, [EARLY_RETURN]: parked } };
  const [moved] = await tx
    .update(payoutProviderAttempts)
    .set({ state: to, stateChangedAt: now, ...set })
    .where(eq(payoutProviderAttempts.id, row.id))
    .returning();
  return moved;
}

/**
 * The prefunding a provider has left in a currency: its account's balance less what its tries in
 * flight will draw. The account row is locked so two routers never spend the same cover, and so a
 * top-up (whose journal lines take a key-share lock on it) and a router are serialized: a held try
 * committed by the router is seen by the top-up's release, or the router sees the top-up's money.
 * A provider never topped up has its account created here first (empty): with no row there was
 * nothing to lock, and a router that read no cover committed its held try after the first top-up's
 * release had looked, so the try waited for a second top-up.
 */
export async function availableCover(tx: Tx, provider: string, currency: string, now: Date): Promise<bigint> {
  const code = prefundingAccount(provider);
  // A top-up creating the account meanwhile makes this wait on the key until it commits.
  await tx
    .insert(ledgerAccounts)
    .values({ id: newId("la"), code, currency, transferId: null, partnerId: null, createdAt: now })
    .onConflictDoNothing();
  const [account] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.code, code),
        eq(ledgerAccounts.currency, currency),
        sql`${ledgerAccounts.transferId} is null`,
        sql`${ledgerAccounts.partnerId} is null`,
      ),
    )
    .for("update");
  if (!account) return 0n;
  const [balance] = await tx
    .select({ value: sql<string>`coalesce(sum(${journalLines.debitMinor} - ${journalLines.creditMinor}), 0)::text` })
    .from(journalLines)
    .where(eq(journalLines.accountId, account.id));
  return BigInt(balance.value) - (await inFlightMinor(tx, provider, currency));
}

/** What a provider's queued and submitted tries will draw, in minor units. */
async function inFlightMinor(db: Executor, provider: string, currency: string): Promise<bigint> {
  const a = payoutProviderAttempts;
  const rows = await db
    .select({ amount: a.amount })
    .from(a)
    .where(and(inArray(a.state, [...IN_FLIGHT_STATES]), eq(a.provider, provider), eq(a.currency, currency)));
  return rows.reduce((sum, r) => sum + toMinor(r.amount, currency), 0n);
}

/** What the attempt row keeps of the request: the destination masked (the full one stays encrypted). */
function requestRecord(transfer: TransferRow, provider: string, masked: string | null): Record<string, unknown> {
  return {
    provider,
    amount: transfer.destinationAmount,
    currency: transfer.destinationCurrency,
    corridor: transfer.corridor,
    method: transfer.payoutMethod,
    destination: masked,
    purpose: transfer.purposeOfTransfer,
  };
}

/**
 * Chooses the provider of a funded (or failed-over) transfer's next try: the best-ranked route
 * with cover gets a QUEUED try and its submit job; with none covered, the best is held
 * WAITING_COVER. Nothing when a try is open, the transfer is not payable, or no route is left (the
 * transfer waits for an operator; logged).
 */
export async function routePayout(tx: Tx, transfer: TransferRow, now: Date): Promise<ProviderAttemptRow | undefined> {
  if (!PAYABLE.has(transfer.state)) return undefined;
  const tries = await attemptsOf(tx, transfer.id);
  if (tries.some((t) => OPEN.includes(t.state))) return undefined;
  const lastRepair = Math.max(0, ...tries.filter((t) => t.state === "REPAIRED").map((t) => t.seq));
  const exclude = tries.filter((t) => t.seq > lastRepair && (t.state === "FAILED" || t.state === "LATE_PAID" || t.state === "REVERSED")).map((t) => t.provider);
  const ranked = rankRoutes({
    corridor: transfer.corridor,
    method: transfer.payoutMethod,
    amount: transfer.destinationAmount,
    exclude,
    health: await providerHealth(tx, now),
    now,
  });
  if (ranked.length === 0) {
    // The operations alert payout.noRoute reads these transfers (./without-route.ts).
    logger().warn({ transferId: transfer.id, exclude }, "no payout provider left for this transfer");
    return undefined;
  }
  const currency = transfer.destinationCurrency;
  const amount = toMinor(transfer.destinationAmount, currency);
  let chosen = ranked[0];
  let covered = false;
  for (const route of ranked) {
    if ((await availableCover(tx, route.provider, currency, now)) >= amount) {
      chosen = route;
      covered = true;
      break;
    }
  }
  const [method] = transfer.payoutMethodId
    ? await tx.select({ masked: payoutMethods.destinationIdentifierMasked }).from(payoutMethods).where(eq(payoutMethods.id, transfer.payoutMethodId))
    : [];
  const id = newId("ppa");
  const state = providerAttemptMachine.next("none", covered ? "route.chosen" : "route.noCover").to;
  const [row] = await tx
    .insert(payoutProviderAttempts)
    .values({
      id,
      transferId: transfer.id,
      seq: (tries.at(-1)?.seq ?? 0) + 1,
      provider: chosen.provider,
      state,
      amount: transfer.destinationAmount,
      currency,
      request: requestRecord(transfer, chosen.provider, method?.masked ?? null),
      createdAt: now,
      stateChangedAt: now,
    })
    .returning();
  if (covered) await enqueueSubmit(tx, id, now);
  else logger().info({ transferId: transfer.id, provider: chosen.provider, currency }, "payout held: no provider has cover");
  return row;
}

async function enqueueSubmit(tx: Tx, attemptId: string, now: Date) {
  await effectsOf(tx).jobs.schedule("payouts.submitAttempt", { attemptId }, { runAt: now, dedupeKey: dedupeKey("payouts.submitAttempt", attemptId) });
}

/** Funded in routed mode: the first route (lib/payments/transfers/network.ts startPayout calls this through the job). */
export async function startRoutedPayout(tx: Tx, transferId: string, now: Date): Promise<void> {
  await effectsOf(tx).jobs.schedule("payouts.route", { transferId }, { runAt: now, dedupeKey: dedupeKey("payouts.route", transferId, String(now.getTime())) });
}

/** A try the router gave up or that failed: the transfer's next route, in the same transaction. */
async function failOver(tx: Tx, transfer: TransferRow, now: Date) {
  const fresh = (await lockTransfer(tx, transfer.id))!;
  await routePayout(tx, fresh, now);
}

function address(
  a: { addressLine1?: string; addressLine2?: string; city: string; postalCode?: string; region?: string; country: string } | undefined | null,
): StructuredAddress | undefined {
  const country = a && countries.alpha3ToAlpha2(a.country);
  if (!a || !country) return undefined;
  return {
    ...(a.addressLine1 ? { streetName: a.addressLine1 } : {}),
    ...(a.postalCode ? { postCode: a.postalCode } : {}),
    townName: a.city,
    ...(a.region ? { countrySubDivision: a.region } : {}),
    country,
    ...(a.addressLine2 ? { addressLines: [a.addressLine2] } : {}),
  };
}

/** The aggregator's request for a try: the destination decrypted here, to travel in the call only. */
async function aggregatorRequest(tx: Tx, transfer: TransferRow, attempt: ProviderAttemptRow): Promise<AggregatorPayoutRequest> {
  const [row] = await tx
    .select({ beneficiary: beneficiaries, method: payoutMethods, profile: customers.profile })
    .from(transfers)
    .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
    .innerJoin(customers, eq(customers.id, transfers.customerId))
    .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .where(eq(transfers.id, transfer.id));
  const identifier = row.method ? (await destinationCipher(tx)).decrypt(row.method.destinationIdentifierEncrypted, row.method.id).replace(/\s+/g, "") : "";
  // The corridor as the transfer's own configuration version defined it (its account format).
  await refreshForTransfers(tx, [transfer]);
  const corridor = corridorOfTransfer(transfer);
  const scheme =
    row.method?.methodType === "MOBILE_MONEY" || row.method?.methodType === "CASH_PICKUP"
      ? "MSISDN"
      : row.method?.methodType === "WALLET_TRANSFER"
        ? "WALLET"
        : (corridor?.bankAccount.format ?? "BBAN");
  const p = (row.profile ?? {}) as unknown as Partial<ProfileInput>;
  const originatorAddress = address(p.residenceAddress);
  const beneficiaryAddress = address(row.beneficiary.address);
  return {
    externalId: attempt.id,
    amount: attempt.amount,
    currency: attempt.currency,
    country: corridor?.destinationCountry.alpha2 ?? "",
    method: transfer.payoutMethod,
    beneficiary: {
      name: `${row.beneficiary.firstName} ${row.beneficiary.lastName}`.trim(),
      account: { scheme, id: identifier },
      ...(beneficiaryAddress ? { address: beneficiaryAddress } : {}),
    },
    originator: {
      name: [p.firstName, ...(p.middleNames ?? []), p.lastName].filter(Boolean).join(" "),
      customerId: transfer.customerId,
      ...(p.dateOfBirth ? { dateOfBirth: p.dateOfBirth } : {}),
      ...(originatorAddress ? { address: originatorAddress } : {}),
    },
    purpose: transfer.purposeOfTransfer,
  };
}

/**
 * The first half of a submit, in a transaction: the try still QUEUED and its transfer payable. The
 * bank file is submitted right here (its file is made in this transaction, written by its own
 * job); the aggregator's request is returned for the call outside. Null: nothing to call.
 */
export async function prepareSubmit(tx: Tx, attemptId: string, now: Date): Promise<AggregatorPayoutRequest | null> {
  const [peek] = await tx
    .select({ transferId: payoutProviderAttempts.transferId })
    .from(payoutProviderAttempts)
    .where(eq(payoutProviderAttempts.id, attemptId));
  if (!peek) return null;
  const transfer = await lockTransfer(tx, peek.transferId);
  const attempt = await lockAttempt(tx, attemptId);
  if (!transfer || !attempt || attempt.state !== "QUEUED") return null;
  if (!PAYABLE.has(transfer.state)) {
    await move(tx, attempt, "transfer.left", now, { outcomeCode: `TRANSFER_${transfer.state.toUpperCase()}` });
    return null;
  }
  if (attempt.provider === "bank-file") {
    const [file] = await generatePayoutFiles(tx, { now, transferIds: [transfer.id] });
    if (!file) {
      await move(tx, attempt, "provider.failed", now, { outcomeCode: "NO_PAYOUT_BANK", answer: { error: "no payout bank pays this currency" } });
      await failOver(tx, transfer, now);
      return null;
    }
    await tx.update(transfers).set({ payoutProvider: "bank-file" }).where(eq(transfers.id, transfer.id));
    await move(tx, attempt, "provider.accepted", now, { providerReference: file.id, answer: { payoutFileId: file.id, fileName: file.fileName } });
    return null;
  }
  return aggregatorRequest(tx, transfer, attempt);
}

export type SubmitResult = AggregatorSubmitAnswer | { status: "UNAVAILABLE"; kind: "TIMEOUT" | "PROVIDER_DOWN"; message: string };

/** The aggregator's answer to a submit, recorded: accepted (the transfer goes to the network), refused, or no answer (failover). */
export async function recordSubmitAnswer(tx: Tx, attemptId: string, answer: SubmitResult, now: Date): Promise<ProviderAttemptRow | undefined> {
  const [peek] = await tx
    .select({ transferId: payoutProviderAttempts.transferId })
    .from(payoutProviderAttempts)
    .where(eq(payoutProviderAttempts.id, attemptId));
  if (!peek) return undefined;
  const transfer = (await lockTransfer(tx, peek.transferId))!;
  const attempt = (await lockAttempt(tx, attemptId))!;
  if (attempt.state !== "QUEUED") return attempt;
  if (answer.status === "UNAVAILABLE") {
    const moved = await move(tx, attempt, "provider.failed", now, { outcomeCode: answer.kind, answer: { error: answer.message } });
    await failOver(tx, transfer, now);
    return moved;
  }
  if (answer.status === "REJECTED") return rejected(tx, transfer, attempt, answer.reasonCode, answer.raw, now, answer.reference);
  const moved = await move(tx, attempt, "provider.accepted", now, { providerReference: answer.reference, answer: answer.raw });
  await tx.update(transfers).set({ payoutProvider: attempt.provider }).where(eq(transfers.id, transfer.id));
  if (transfer.state === "funded") await handToNetwork(tx, transfer, now);
  if (providers().payoutAggregator === "sandbox") {
    // The sandbox aggregator pays what it accepts: its status webhook, one step later.
    await effectsOf(tx).jobs.schedule(
      "payouts.providerStatus",
      { externalId: attempt.id, status: "COMPLETED", reasonCode: null, reference: answer.reference },
      { runAt: now },
    );
  }
  return moved;
}

/** A refusal: the beneficiary's data waits for the repair; any other reason is retried elsewhere. */
async function rejected(
  tx: Tx,
  transfer: TransferRow,
  attempt: ProviderAttemptRow,
  reasonCode: string | null,
  raw: Record<string, unknown>,
  now: Date,
  reference: string | null = null,
): Promise<ProviderAttemptRow> {
  if (reasonCode && REPAIRABLE_REASONS.has(reasonCode)) {
    const moved = await move(tx, attempt, "provider.rejected", now, {
      outcomeCode: reasonCode,
      answer: raw,
      providerReference: reference ?? attempt.providerReference,
    });
    const rejection = payoutRejection(reasonCode);
    await tx.update(transfers).set({ rejectionReason: rejection.code }).where(eq(transfers.id, transfer.id));
    await effectsOf(tx).events.emit({
      subscriptionId: transfer.subscriptionId,
      eventType: "payout.repair.required",
      data: { transferId: transfer.id, attempt: attempt.seq, rejectionReason: rejection, customerActionExpected: "REPAIR_PAYOUT" },
      now,
    });
    return moved;
  }
  const moved = await move(tx, attempt, "provider.failed", now, {
    outcomeCode: reasonCode ?? "TECHNICAL",
    answer: raw,
    providerReference: reference ?? attempt.providerReference,
  });
  await failOver(tx, transfer, now);
  return moved;
}

/**
 * A provider's status for one of our tries (the aggregator's webhook, the sandbox's stand-in; the
 * bank file's pain.002 through status-import): paid, refused, cancelled, or reversed. A success for
 * a try that is no longer the transfer's (it failed over) is refused: LATE_PAID, and the provider
 * is asked to reverse it; the transfer is paid once, by the try that holds it. A REVERSED books
 * the money back into the provider's prefunding (reversalReported says how, by the try's state).
 */
export async function applyProviderStatus(
  tx: Tx,
  input: {
    externalId: string;
    status: AggregatorStatusValue;
    reasonCode: string | null;
    reference: string | null;
    raw?: Record<string, unknown>;
  },
  now: Date,
): Promise<ProviderAttemptRow | undefined> {
  const [peek] = await tx
    .select({ transferId: payoutProviderAttempts.transferId })
    .from(payoutProviderAttempts)
    .where(eq(payoutProviderAttempts.id, input.externalId));
  if (!peek) return undefined;
  const transfer = (await lockTransfer(tx, peek.transferId))!;
  const attempt = (await lockAttempt(tx, input.externalId))!;
  const raw = input.raw ?? { status: input.status, status_reason_code: input.reasonCode, id: input.reference };
  if (input.status === "REVERSED") return reversalReported(tx, transfer, attempt, raw, input.reference, input.reasonCode, now);
  if (input.status === "COMPLETED") {
    // A return the provider's webhooks delivered before this success (parked on the try).
    const early = earlyReturnOf(attempt);
    if (attempt.state === "FAILED" || attempt.state === "ABANDONED") {
      const moved = await move(tx, attempt, "provider.paidLate", now, {
        outcomeCode: "LATE_SUCCESS_REFUSED",
        answer: raw,
      });
      // The provider paid from our prefunding: the money left it, and is owed back until the reversal returns it.
      const minor = toMinor(attempt.amount, attempt.currency);
      await postEntry(tx, {
        sourceKey: `payout-late:${attempt.id}`,
        kind: "payout.lateSuccess",
        memo: `Late payout by ${attempt.provider} after failover: refused, reversal asked`,
        transferId: transfer.id,
        reference: input.reference ?? attempt.providerReference,
        lines: [
          { account: "receivable:payout-reversals", currency: attempt.currency, debit: minor },
          { account: prefundingAccount(attempt.provider), currency: attempt.currency, credit: minor },
        ],
        now,
      });
      // Its reversal came first: the money is back already, nothing to ask of the provider.
      if (early) return reversalReturned(tx, transfer, moved, early.raw, early.reference, now);
      await effectsOf(tx).jobs.schedule(
        "payouts.reverseLate",
        { attemptId: attempt.id },
        { runAt: now, dedupeKey: dedupeKey("payouts.reverseLate", attempt.id) },
      );
      logger().warn(
        { transferId: transfer.id, attemptId: attempt.id, provider: attempt.provider },
        "late payout success after failover refused; reversal asked",
      );
      return moved;
    }
    if (attempt.state !== "QUEUED" && attempt.state !== "SUBMITTED") return attempt;
    const moved = await move(tx, attempt, "provider.paid", now, { answer: raw, providerReference: input.reference ?? attempt.providerReference });
    let current = transfer;
    if (current.state === "funded") current = await handToNetwork(tx, current, now);
    if (current.state === "topay") current = await markInProgress(tx, current, now);
    if (current.state === "reqpay" || current.state === "spended") current = await confirmPaid(tx, current, now);
    // Paid, and already returned by the beneficiary's bank: booked as the return it is.
    if (early) return payoutReturned(tx, current, moved, early.raw, early.reference, early.reasonCode, now);
    return moved;
  }
  if (attempt.state !== "QUEUED" && attempt.state !== "SUBMITTED") return attempt;
  if (input.status === "CANCELLED") {
    const moved = await move(tx, attempt, "provider.failed", now, { outcomeCode: "CANCELLED", answer: raw });
    await failOver(tx, transfer, now);
    return moved;
  }
  return rejected(tx, transfer, attempt, input.reasonCode, raw, now, input.reference);
}

/**
 * A provider's REVERSED for one of our tries: the money of a payment it made is back in our
 * prefunding with it. What it means depends on the try:
 * - LATE_PAID (a success we refused after failing over): the reversal we asked, booked back
 *   (reversalReturned);
 * - PAID (the try that paid the transfer): the beneficiary's bank returned the payout
 *   (payoutReturned): RETURNED, held for the customer, an operator refunds it;
 * - QUEUED, SUBMITTED, FAILED, ABANDONED: the provider reports the return of a payment whose
 *   success has not reached us (webhooks out of order). From our books the money never left, so
 *   nothing is booked and the state is kept; the return is parked on the try and applied with
 *   the success when it comes (paid then returned, or paid late then reversed), so a late
 *   COMPLETED is never taken for a payment still out;
 * - anything else (a refused or held try, a replay): nothing, logged unless a replay.
 */
async function reversalReported(
  tx: Tx,
  transfer: TransferRow,
  attempt: ProviderAttemptRow,
  raw: Record<string, unknown>,
  reference: string | null,
  reasonCode: string | null,
  now: Date,
): Promise<ProviderAttemptRow> {
  if (attempt.state === "LATE_PAID") return reversalReturned(tx, transfer, attempt, raw, reference, now);
  if (attempt.state === "PAID") return payoutReturned(tx, transfer, attempt, raw, reference, reasonCode, now);
  if (attempt.state === "QUEUED" || attempt.state === "SUBMITTED" || attempt.state === "FAILED" || attempt.state === "ABANDONED") {
    if (earlyReturnOf(attempt)) return attempt;
    const [parked] = await tx
      .update(payoutProviderAttempts)
      .set({ answer: { ...(attempt.answer ?? {}), [EARLY_RETURN]: raw } })
      .where(eq(payoutProviderAttempts.id, attempt.id))
      .returning();
    logger().warn(
      { transferId: transfer.id, attemptId: attempt.id, state: attempt.state },
      "payout reversal reported before the payment's success: kept on the try until the success arrives",
    );
    return parked;
  }
  if (attempt.state !== "REVERSED" && attempt.state !== "RETURNED" && attempt.state !== "RETURN_REFUNDED")
    logger().warn({ transferId: transfer.id, attemptId: attempt.id, state: attempt.state }, "payout reversal reported for a try never paid: not booked");
  return attempt;
}

/**
 * The provider reversed a late payment we refused and the money is back with it: the try is
 * REVERSED and, in the same transaction, `payout.reversalReturned` moves the amount from
 * receivable:payout-reversals back into the provider's prefunding (the mirror of
 * payout.lateSuccess), once per try.
 */
async function reversalReturned(
  tx: Tx,
  transfer: TransferRow,
  attempt: ProviderAttemptRow,
  raw: Record<string, unknown>,
  reference: string | null,
  now: Date,
): Promise<ProviderAttemptRow> {
  const moved = await move(tx, attempt, "provider.reversed", now, { answer: { ...(attempt.answer ?? {}), returned: raw } });
  const minor = toMinor(attempt.amount, attempt.currency);
  await postEntry(tx, {
    sourceKey: `payout-reversal:${attempt.id}`,
    kind: "payout.reversalReturned",
    memo: `Late payout by ${attempt.provider} reversed: the money is back in its prefunding`,
    transferId: transfer.id,
    reference: reference ?? attempt.providerReference,
    lines: [
      { account: prefundingAccount(attempt.provider), currency: attempt.currency, debit: minor },
      { account: "receivable:payout-reversals", currency: attempt.currency, credit: minor },
    ],
    now,
  });
  // Cover came back: payouts held for this provider may go now.
  await releaseHeldPayouts(tx, attempt.provider, attempt.currency, now);
  return moved;
}

/**
 * The beneficiary's bank sent back a payout the provider had paid (account closed, a name
 * mismatch found late, an ACH or SEPA return): the try is RETURNED and, in the same transaction,
 * `payout.providerReturned` puts the amount back into the provider's prefunding (it is there
 * again) against suspense:returned-payouts, the customer's money until an operator refunds it
 * (refundReturnedPayout), once per try. The transfer stays paid (terminal, spec 3.1); the
 * operations alert payout.returned and the payouts console list it.
 */
async function payoutReturned(
  tx: Tx,
  transfer: TransferRow,
  attempt: ProviderAttemptRow,
  raw: Record<string, unknown>,
  reference: string | null,
  reasonCode: string | null,
  now: Date,
): Promise<ProviderAttemptRow> {
  const moved = await move(tx, attempt, "provider.returned", now, {
    outcomeCode: reasonCode ?? "RETURNED",
    answer: { ...(attempt.answer ?? {}), returned: raw },
  });
  const minor = toMinor(attempt.amount, attempt.currency);
  await postEntry(tx, {
    sourceKey: `payout-provider-return:${attempt.id}`,
    kind: "payout.providerReturned",
    memo: `Payout by ${attempt.provider} returned by the beneficiary's bank${reasonCode ? ` (${reasonCode})` : ""}: held for the customer`,
    transferId: transfer.id,
    reference: reference ?? attempt.providerReference,
    lines: [
      { account: prefundingAccount(attempt.provider), currency: attempt.currency, debit: minor },
      { account: "suspense:returned-payouts", currency: attempt.currency, credit: minor },
    ],
    now,
  });
  logger().warn(
    { transferId: transfer.id, attemptId: attempt.id, provider: attempt.provider, reasonCode },
    "paid payout returned by the beneficiary's bank: held in suspense for an operator",
  );
  // The money is back in the provider's prefunding: payouts held for its cover may go now.
  await releaseHeldPayouts(tx, attempt.provider, attempt.currency, now);
  return moved;
}

/**
 * The bank file's settlement or rejection (a pain.002, status-import) recorded on its routed try:
 * paid, or refused like the aggregator's refusals (the beneficiary's data waits for the repair,
 * anything else goes to the next provider). False: the transfer has no open bank-file try.
 */
export async function bankFileAnswered(tx: Tx, transfer: TransferRow, outcome: "paid" | "rejected", reasonCode: string | null, now: Date): Promise<boolean> {
  const open = (await attemptsOf(tx, transfer.id)).findLast((t) => t.provider === "bank-file" && (t.state === "SUBMITTED" || t.state === "QUEUED"));
  if (!open) return false;
  const attempt = (await lockAttempt(tx, open.id))!;
  const raw = { pain002: outcome === "paid" ? "ACSC" : "RJCT", reasonCode };
  if (outcome === "paid") await move(tx, attempt, "provider.paid", now, { answer: raw });
  else await rejected(tx, transfer, attempt, reasonCode, raw, now);
  return true;
}

/**
 * The repair of a routed payout refused for its beneficiary's data: the transfer points at the new
 * payout method, the try is REPAIRED and the router chooses again (the repaired destination may
 * go to any provider).
 */
export async function repairRoutedPayout(tx: Tx, input: { transfer: TransferRow; payoutMethodId: string }, now: Date): Promise<ProviderAttemptRow> {
  const last = (await attemptsOf(tx, input.transfer.id)).at(-1);
  if (!last || last.state !== "REJECTED") {
    throw new DomainError("transfer.stateInvalid", {
      message: "This transfer has no payout refused for its destination to repair.",
      details: { currentState: input.transfer.state },
    });
  }
  await tx.update(transfers).set({ payoutMethodId: input.payoutMethodId, rejectionReason: null }).where(eq(transfers.id, input.transfer.id));
  const moved = await move(tx, (await lockAttempt(tx, last.id))!, "destination.repaired", now);
  await effectsOf(tx).events.emit({
    subscriptionId: input.transfer.subscriptionId,
    eventType: "payout.repaired",
    data: { transferId: input.transfer.id, attempt: last.seq, payoutMethodId: input.payoutMethodId, customerActionExpected: "WAIT" },
    now,
  });
  await startRoutedPayout(tx, input.transfer.id, now);
  return moved;
}

/** The latest try of a transfer waiting for a repair (REJECTED by a provider), if any. */
export async function rejectedRoutedAttempt(db: Executor, transferId: string): Promise<ProviderAttemptRow | undefined> {
  const last = (await attemptsOf(db, transferId)).at(-1);
  return last?.state === "REJECTED" ? last : undefined;
}

/**
 * After a top-up: the tries held for this provider and currency move to QUEUED, oldest first,
 * while the cover lasts; each gets its submit job. Returns how many were released.
 */
export async function releaseHeldPayouts(tx: Tx, provider: string, currency: string, now: Date): Promise<number> {
  const a = payoutProviderAttempts;
  const held = await tx
    .select()
    .from(a)
    .where(and(eq(a.state, "WAITING_COVER"), eq(a.provider, provider), eq(a.currency, currency)))
    .orderBy(asc(a.createdAt), asc(a.id));
  let released = 0;
  for (const h of held) {
    const transfer = await lockTransfer(tx, h.transferId);
    const attempt = await lockAttempt(tx, h.id);
    if (!transfer || !attempt || attempt.state !== "WAITING_COVER") continue;
    if (!PAYABLE.has(transfer.state)) {
      await move(tx, attempt, "transfer.left", now, { outcomeCode: `TRANSFER_${transfer.state.toUpperCase()}` });
      continue;
    }
    if ((await availableCover(tx, provider, currency, now)) < toMinor(attempt.amount, currency)) break;
    await move(tx, attempt, "cover.toppedUp", now);
    await enqueueSubmit(tx, attempt.id, now);
    released++;
  }
  return released;
}

/** payouts.route: the router for one transfer (funded, failed over, repaired). */
export const routePayoutJob = defineJob({
  kind: "payouts.route",
  schema: z.object({ transferId: z.string() }),
  run: async (tx, { payload, now }) => {
    const transfer = await lockTransfer(tx, payload.transferId);
    if (transfer) await routePayout(tx, transfer, now);
  },
});

/** payouts.submitAttempt: one try sent to its provider; the aggregator's call runs between two transactions. */
export const submitAttemptJob = defineJob({
  kind: "payouts.submitAttempt",
  schema: z.object({ attemptId: z.string() }),
  perform: async (db: Db, { payload, signal }) => {
    const request = await inUnit(({ tx, now }) => prepareSubmit(tx, payload.attemptId, now), { db, actor: { kind: "system" } });
    if (!request) return;
    let answer: SubmitResult;
    try {
      answer = await payoutAggregator().submit(request, signal);
    } catch (err) {
      if (!(err instanceof AggregatorUnavailable)) throw err;
      answer = { status: "UNAVAILABLE", kind: err.kind, message: err.message };
    }
    await inUnit(({ tx, now }) => recordSubmitAnswer(tx, payload.attemptId, answer, now), { db, actor: { kind: "system" } });
  },
});

/** payouts.providerStatus: a provider's status for one of our tries (the webhook's body, read and verified). */
export const providerStatusJob = defineJob({
  kind: "payouts.providerStatus",
  schema: z.object({
    externalId: z.string(),
    status: z.enum(AGGREGATOR_STATUSES),
    reasonCode: z.string().nullable(),
    reference: z.string().nullable(),
  }),
  run: async (tx, { payload, now }) => {
    await applyProviderStatus(tx, payload, now);
  },
});

/** payouts.reverseLate: asks the aggregator to reverse a payment it made after we failed over; its answer is kept on the try. */
export const reverseLateJob = defineJob({
  kind: "payouts.reverseLate",
  schema: z.object({ attemptId: z.string() }),
  perform: async (db: Db, { payload, signal }) => {
    const answer = await payoutAggregator().cancel(payload.attemptId, signal);
    await inUnit(
      async ({ tx }) => {
        const attempt = await lockAttempt(tx, payload.attemptId);
        if (!attempt) throw new DomainError("transfer.stateInvalid", { message: "No such payout attempt." });
        await tx
          .update(payoutProviderAttempts)
          .set({ answer: { ...(attempt.answer ?? {}), reversal: answer.raw, reversalStatus: answer.status } })
          .where(eq(payoutProviderAttempts.id, attempt.id));
      },
      { db, actor: { kind: "system" } },
    );
  },
});
