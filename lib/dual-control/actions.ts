/**
 * What each action under dual control does (issue 23 item 5): its input, who may propose and
 * approve it, when an instance needs a second operator, the line the queue shows, and the domain
 * call run (by the proposer at once, or by the approver on approval). The console's server actions
 * hand their input here through `act` (./proposals.ts); nothing here knows of HTTP or forms.
 *
 * To put another action under dual control: add its name to ./kinds.ts and an entry below (the
 * type checks that every kind has one).
 */
import { and, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { bankCredits, partners, payoutMethods, screeningCases, transfers } from "@/db/schema";
import {
  checkPartnerFeePayment,
  discardJournal,
  journalSummary,
  lockJournal,
  lockProposedJournal,
  postJournal,
  recordPartnerFeePayment,
} from "@/lib/books/journals";
import { lockClaimRefund, payClaimRefund } from "@/lib/claims/claim-refunds";
import { clock } from "@/lib/clock";
import { config } from "@/lib/config";
import { money } from "@/lib/console/format";
import { DomainError, notFound } from "@/lib/errors";
import { fromMinor } from "@/lib/ledger";
import { minorUnitExponent } from "@/lib/money/currency";
import { Decimal } from "@/lib/money/decimal";
import type { Operator, OperatorRole } from "@/lib/operators/records";
import { checkPartnerLimits, PartnerLimitsChange, setPartnerLimits } from "@/lib/limits/partner-limits";
import { LIMIT_WINDOWS, tierLimitsOf, VERIFICATION_TIERS } from "@/lib/limits/tiers";
import { issueApiKey, revokeApiKey } from "@/lib/partners/admin";
import { applyPartnerSettings } from "@/lib/partners/settings";
import { repairPayoutByOperator } from "@/lib/payouts/repair";
import { referenceRates } from "@/lib/pricing/rate-store";
import { amountToReturn, matchBankCredit, returnBankCredit } from "@/lib/reconciliation/resolve";
import { decideCase, lockCase } from "@/lib/screening-cases/cases";
import { checkRelease, refuseIfHeldForScreening, releaseUnderLicence } from "@/lib/screening-cases/blocked-money";
import { releaseTransfer, reviewTransfer } from "@/lib/transfers/compliance";
import { lockTransfer, type TransferRow } from "@/lib/transfers/records";
import { lockRefund, moveRefund } from "@/lib/transfers/refunds";
import { transferMachine } from "@/lib/transfers/state-machine";
import type { ControlledActionKind } from "./kinds";

/** What an action did: its audit entry's target and before/after, the operator's notice, and what is shown once. */
export interface Performed {
  targetType: string;
  targetId: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  notice: string;
  /**
   * A credential the action created (a partner key, a first webhook secret): shown once to the
   * operator who asked for it: whoever ran it at once, or the proposer after approval (kept
   * encrypted on the proposal until they reveal it, never shown to the approver).
   */
  once?: Record<string, string>;
}

export interface By {
  operator: Operator;
  reason: string;
  now: Date;
}

export interface ControlledAction<P> {
  /** The role needed to propose and to approve. */
  role: OperatorRole;
  input: z.ZodType<P>;
  subject(p: P): { type: string; id: string };
  /** Whether this instance waits for a second operator when the action is under dual control (default: always). */
  needsSecondOperator?(tx: Tx, p: P, now: Date): Promise<boolean>;
  /**
   * The queue's line, the subject as the proposer saw it and what the action would make of it (the
   * approver sees both before deciding, issue 36 item 13); refuses what could not be approved anyway.
   */
  describe(tx: Tx, p: P): Promise<{ summary: string; before: Record<string, unknown>; after: Record<string, unknown> }>;
  /** The action (its caller records the audit entry, with the proposal when there is one). */
  perform(tx: Tx, p: P, by: By): Promise<Performed>;
  /** What a declined (or withdrawn) proposal undoes in its subject, in the same transaction (default: nothing). */
  onDecline?(tx: Tx, p: P, by: By): Promise<void>;
}

const define = <P>(a: ControlledAction<P>) => a as ControlledAction<unknown>;

const transferInput = z.object({ transferId: z.string().min(1) });
const creditInput = z.object({ creditId: z.string().min(1) });

async function transferOf(tx: Tx, transferId: string): Promise<TransferRow> {
  const [row] = await tx.select().from(transfers).where(eq(transfers.id, transferId));
  if (!row) throw notFound("transfer");
  return row;
}

/**
 * A transfer's origin amount in the dual-control currency at today's reference rate, or null
 * when no rate converts it (then a second operator is asked: the safe side).
 */
async function inControlCurrency(tx: Tx, row: TransferRow, now: Date): Promise<Decimal | null> {
  const to = config().DUAL_CONTROL_CURRENCY;
  const amount = new Decimal(row.originAmount);
  if (row.originCurrency === to) return amount;
  const rates = await referenceRates(tx);
  try {
    return amount.times(rates.rate({ from: row.originCurrency, to }, now));
  } catch {
    try {
      return amount.dividedBy(rates.rate({ from: to, to: row.originCurrency }, now));
    } catch {
      return null;
    }
  }
}

/** An open screening case on the transfer's customer or beneficiary: its release is never one operator's. */
async function inScreeningCase(tx: Tx, row: TransferRow): Promise<boolean> {
  const [open] = await tx
    .select({ id: screeningCases.id })
    .from(screeningCases)
    .where(
      and(
        eq(screeningCases.state, "OPEN"),
        or(
          and(eq(screeningCases.subjectType, "customer"), eq(screeningCases.subjectId, row.customerId)),
          and(eq(screeningCases.subjectType, "beneficiary"), eq(screeningCases.subjectId, row.beneficiaryId)),
          sql`${screeningCases.heldTransferIds} @> ${JSON.stringify([row.id])}::jsonb`,
        ),
      ),
    )
    .limit(1);
  return !!open;
}

/** A release at or above the threshold, or inside a screening case, waits for a second operator. */
async function releaseNeedsSecond(tx: Tx, p: { transferId: string }, now: Date): Promise<boolean> {
  const row = await transferOf(tx, p.transferId);
  if (await inScreeningCase(tx, row)) return true;
  const amount = await inControlCurrency(tx, row, now);
  return amount === null || amount.gte(config().DUAL_CONTROL_TRANSFER_THRESHOLD);
}

/** The transfer, refused now (as the machine refuses it) rather than at approval when it cannot take the move. */
async function transferFor(tx: Tx, transferId: string, trigger: "review.approved" | "compliance.restore") {
  const row = await transferOf(tx, transferId);
  if (!transferMachine.can(row.state, trigger)) transferMachine.next(row.state, trigger, { prior: row.priorState ?? undefined });
  return row;
}

async function lockedTransfer(tx: Tx, transferId: string): Promise<TransferRow> {
  const row = await lockTransfer(tx, transferId);
  if (!row) throw notFound("transfer");
  return row;
}

export const ACTIONS: Record<ControlledActionKind, ControlledAction<unknown>> = {
  "transfer.review.approve": define({
    role: "reviewer",
    input: transferInput,
    subject: (p) => ({ type: "transfer", id: p.transferId }),
    needsSecondOperator: releaseNeedsSecond,
    describe: async (tx, p) => {
      const row = await transferFor(tx, p.transferId, "review.approved");
      return {
        summary: `Approve transfer ${row.id} (${money(row.originAmount, row.originCurrency)}) out of review`,
        before: { state: row.state },
        after: { state: transferMachine.next(row.state, "review.approved").to },
      };
    },
    perform: async (tx, p, { now }) => {
      const row = await lockedTransfer(tx, p.transferId);
      const after = await reviewTransfer(tx, row, "APPROVE", now);
      return {
        targetType: "transfer",
        targetId: row.id,
        before: { state: row.state },
        after: { state: after.state },
        notice: `Transfer ${row.id} is now ${after.state}.`,
      };
    },
  }),
  "transfer.hold.restore": define({
    role: "reviewer",
    input: transferInput,
    subject: (p) => ({ type: "transfer", id: p.transferId }),
    needsSecondOperator: releaseNeedsSecond,
    describe: async (tx, p) => {
      const row = await transferFor(tx, p.transferId, "compliance.restore");
      // A hold a screening case owns is resolved by the case's decision only (issue 35).
      await refuseIfHeldForScreening(tx, row);
      return {
        summary: `Release transfer ${row.id} (${money(row.originAmount, row.originCurrency)}) from hold back to ${row.priorState}`,
        before: { state: row.state, priorState: row.priorState },
        after: { state: row.priorState },
      };
    },
    perform: async (tx, p, { now }) => {
      const row = await lockedTransfer(tx, p.transferId);
      await refuseIfHeldForScreening(tx, row); // a case opened since it was proposed
      const after = await releaseTransfer(tx, row, "RESTORE", now);
      return {
        targetType: "transfer",
        targetId: row.id,
        before: { state: row.state, priorState: row.priorState },
        after: { state: after.state },
        notice: `Transfer ${row.id} is now ${after.state}.`,
      };
    },
  }),
  "screeningCase.falsePositive": define({
    role: "reviewer",
    input: z.object({ caseId: z.string().min(1) }),
    subject: (p) => ({ type: "screeningCase", id: p.caseId }),
    // A case that held no transfer releases no money: one operator clears it.
    needsSecondOperator: async (tx, p) => (await lockCase(tx, p.caseId)).heldTransferIds.length > 0,
    describe: async (tx, p) => {
      const c = await lockCase(tx, p.caseId);
      if (c.state !== "OPEN") throw new DomainError("screeningCase.stateInvalid", { details: { currentState: c.state } });
      return {
        summary: `Clear screening case ${c.id} (${c.subjectType} ${c.subjectId}) as a false positive, releasing ${c.heldTransferIds.length} held transfer(s)`,
        before: { state: c.state, heldTransferIds: c.heldTransferIds },
        after: { decision: "FALSE_POSITIVE", releasedTransferIds: c.heldTransferIds },
      };
    },
    perform: async (tx, p, { operator, reason, now }) => {
      const done = await decideCase(tx, { caseId: p.caseId, decision: "FALSE_POSITIVE", operator, reason, now });
      const c = done.case;
      return {
        targetType: c.subjectType,
        targetId: c.subjectId,
        before: { caseId: c.id, state: "OPEN" },
        after: {
          caseId: c.id,
          state: c.state,
          entries: c.entries.map((e) => ({ list: e.list, entryId: e.entryId, listVersionId: e.listVersionId })),
          subjectState: done.subjectState,
          transfers: done.transfers,
        },
        notice: `Case ${c.id} cleared as a false positive; ${Object.keys(done.transfers).length} held transfer(s) restored.`,
      };
    },
  }),
  // Issue 35: money leaves blocked:sanctions only here, under a licence or authority reference,
  // always with a second operator (ALWAYS_CONTROLLED), back to the payer as the transfer's refund.
  "screeningCase.releaseUnderLicence": define({
    role: "reviewer",
    input: z.object({
      caseId: z.string().min(1),
      transferId: z.string().min(1),
      licenceReference: z.string().trim().min(3, "a licence or authority reference (e.g. an OFAC specific licence number)").max(140),
    }),
    subject: (p) => ({ type: "transfer", id: p.transferId }),
    describe: async (tx, p) => {
      const c = await lockCase(tx, p.caseId);
      const blocked = await checkRelease(tx, c, await transferOf(tx, p.transferId).catch(() => undefined));
      return {
        summary: `Release ${money(fromMinor(blocked.blockedMinor, blocked.currency), blocked.currency)} of transfer ${p.transferId} blocked under screening case ${c.id} under licence ${p.licenceReference}, refunding the payer`,
        before: { caseId: c.id, blockedMinor: blocked.blockedMinor.toString(), currency: blocked.currency },
        after: { caseId: c.id, blockedMinor: "0", licenceReference: p.licenceReference, refund: "to the payer" },
      };
    },
    perform: async (tx, p, { now }) => {
      const done = await releaseUnderLicence(tx, { ...p, now });
      return {
        targetType: "transfer",
        targetId: p.transferId,
        before: { caseId: done.case.id, blocked: done.released, currency: done.currency },
        after: { caseId: done.case.id, blocked: "0", released: done.released, licenceReference: p.licenceReference, refundStatus: done.refund?.state ?? null },
        notice: `Released ${done.released} ${done.currency} of ${p.transferId} under licence ${p.licenceReference}: ${done.refund ? `its refund is ${done.refund.state}` : "nothing is left to refund (claim refunds gave it back already)"}.`,
      };
    },
  }),
  "bankCredit.match": define({
    role: "reviewer",
    input: creditInput.extend({ transferId: z.string().trim().min(1).max(64) }),
    subject: (p) => ({ type: "bankCredit", id: p.creditId }),
    describe: async (tx, p) => {
      const credit = await creditOf(tx, p.creditId);
      return {
        summary: `Match bank credit ${credit.bankReference} (${money(credit.amount, credit.currency)}) to transfer ${p.transferId}`,
        before: { state: credit.state, reason: credit.reason },
        after: { transferId: p.transferId, funds: money(credit.amount, credit.currency) },
      };
    },
    perform: async (tx, p, { operator, now }) => {
      const done = await matchBankCredit(tx, { creditId: p.creditId, transferId: p.transferId, operatorId: operator.id }, now);
      const excess = done.after.state === "EXCESS" ? ` ${done.excess} ${done.after.currency} over-paid stays to return.` : "";
      return {
        targetType: "bankCredit",
        targetId: p.creditId,
        before: { state: done.before.state, reason: done.before.reason },
        after: { state: done.after.state, transferId: p.transferId, transferStatus: done.transferStatus, excess: done.excess },
        notice: `Credit ${done.after.bankReference} funded transfer ${p.transferId} (now ${done.transferStatus}).${excess}`,
      };
    },
  }),
  "bankCredit.return": define({
    role: "reviewer",
    input: creditInput,
    subject: (p) => ({ type: "bankCredit", id: p.creditId }),
    describe: async (tx, p) => {
      const credit = await creditOf(tx, p.creditId);
      // What goes back (an over-payment's excess, not the whole credit: issue 36 item 15), as the return will record it.
      const returned = amountToReturn(credit);
      const whole = returned === new Decimal(credit.amount).toFixed(minorUnitExponent(credit.currency));
      const what = whole
        ? `bank credit ${credit.bankReference}`
        : `the excess of bank credit ${credit.bankReference} (${money(credit.amount, credit.currency)})`;
      return {
        summary: `Return ${money(returned, credit.currency)} to the payer: ${what}`,
        before: { state: credit.state, amount: credit.amount, toReturn: returned },
        after: { state: "RETURN_REQUESTED", returned },
      };
    },
    perform: async (tx, p, { operator, now }) => {
      const done = await returnBankCredit(tx, { creditId: p.creditId, operatorId: operator.id }, now);
      return {
        targetType: "bankCredit",
        targetId: p.creditId,
        before: { state: done.before.state, reason: done.before.reason },
        after: { state: done.after.state, returned: done.returned },
        notice: `Credit ${done.after.bankReference}: ${done.returned} ${done.after.currency} to return to the payer.`,
      };
    },
  }),
  // Issue 24 item 3: a manual journal is posted by a second operator (the proposer made the journal row).
  "ledger.journal.post": define({
    role: "admin",
    input: z.object({ journalId: z.string().min(1) }),
    subject: (p) => ({ type: "manualJournal", id: p.journalId }),
    describe: async (tx, p) => {
      const journal = await lockProposedJournal(tx, p.journalId);
      return {
        summary: `Post manual journal ${journal.id}, "${journal.memo}": ${journalSummary(journal)}`,
        before: { state: journal.state },
        after: { state: "POSTED", lines: journal.lines },
      };
    },
    perform: async (tx, p, { operator, now }) => {
      const posted = await postJournal(tx, { id: p.journalId, operator, now });
      return {
        targetType: "manualJournal",
        targetId: posted.id,
        before: { state: "PROPOSED" },
        after: { state: posted.state, lines: posted.lines, reference: posted.reference },
        notice: `Journal ${posted.id} posted to the ledger.`,
      };
    },
    // A journal whose posting was declined is never posted: it is discarded with its proposal.
    onDecline: async (tx, p, { operator, now }) => {
      const journal = await lockJournal(tx, p.journalId);
      if (journal.state === "PROPOSED") await discardJournal(tx, { id: journal.id, operator, now });
    },
  }),
  // Issue 24 item 2 (review): cash leaves the collection account only with a second admin, and
  // never above what the partner is owed in that currency (checked when proposed and again, with
  // the partner's account locked, when approved).
  "ledger.partnerFees.pay": define({
    role: "admin",
    input: z.object({
      partnerId: z.string().trim().min(1),
      currency: z.string().trim().toUpperCase().length(3),
      amount: z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?$/, "a plain decimal (25.00)"),
      bankReference: z.string().trim().min(1).max(140),
    }),
    subject: (p) => ({ type: "partner", id: p.partnerId }),
    describe: async (tx, p) => {
      const { owed } = await checkPartnerFeePayment(tx, p);
      return {
        summary: `Pay ${money(p.amount, p.currency)} of partner fees to ${(await partnerOf(tx, p.partnerId)).name} from the collection account, bank reference ${p.bankReference}`,
        before: { owedMinor: owed.toString(), currency: p.currency },
        after: { paid: money(p.amount, p.currency), bankReference: p.bankReference },
      };
    },
    perform: async (tx, p, { now }) => {
      const done = await recordPartnerFeePayment(tx, { ...p, now });
      return {
        targetType: "partner",
        targetId: p.partnerId,
        before: { owedMinor: done.owedBefore.toString(), currency: p.currency },
        after: { owedMinor: (done.owedBefore - done.paid).toString(), currency: p.currency, amount: p.amount, bankReference: p.bankReference },
        notice: `Payment of ${p.amount} ${p.currency} to ${p.partnerId} recorded.`,
      };
    },
  }),
  // Issue 24 item 8 (review): a new payout destination is never one operator's; the proposer
  // staged it as an encrypted payout method (lib/payouts/repair.ts), so no identifier sits here.
  "transfer.payout.repair": define({
    role: "admin",
    input: transferInput.extend({ payoutMethodId: z.string().min(1) }),
    subject: (p) => ({ type: "transfer", id: p.transferId }),
    describe: async (tx, p) => {
      const row = await transferOf(tx, p.transferId);
      const [method] = await tx
        .select({ masked: payoutMethods.destinationIdentifierMasked })
        .from(payoutMethods)
        .where(and(eq(payoutMethods.id, p.payoutMethodId), eq(payoutMethods.beneficiaryId, row.beneficiaryId)));
      if (!method) throw notFound("transfer");
      return {
        summary: `Pay transfer ${row.id} to a new destination ${method.masked} (the bank rejected the previous one)`,
        before: { payoutMethodId: row.payoutMethodId },
        after: { payoutMethodId: p.payoutMethodId, destinationIdentifierMasked: method.masked },
      };
    },
    perform: async (tx, p, { now }) => {
      const before = await transferOf(tx, p.transferId);
      const repaired = await repairPayoutByOperator(tx, { transferId: p.transferId, payoutMethodId: p.payoutMethodId, now });
      return {
        targetType: "transfer",
        targetId: p.transferId,
        before: { payoutMethodId: before.payoutMethodId },
        // The new destination masked only: the full identifier stays encrypted.
        after: { payoutMethodId: repaired.payoutMethod.payoutMethodId, destinationIdentifierMasked: repaired.payoutMethod.destinationIdentifierMasked },
        notice: `Transfer ${p.transferId}: new destination ${repaired.payoutMethod.destinationIdentifierMasked}; it goes into the next payout file.`,
      };
    },
  }),
  // The transfer's refund, or (claimRefundId) a claim refund of the transfer (lib/claims/claim-refunds.ts).
  "transfer.refund.paid": define({
    role: "admin",
    input: transferInput.extend({ bankReference: z.string().trim().min(1).max(140), claimRefundId: z.string().min(1).optional() }),
    // A claim refund is its own subject: it may wait for approval beside the transfer's refund.
    subject: (p) => (p.claimRefundId ? { type: "claimRefund", id: p.claimRefundId } : { type: "transfer", id: p.transferId }),
    describe: async (tx, p) => {
      const row = await transferOf(tx, p.transferId);
      if (p.claimRefundId) {
        const owed = await lockClaimRefund(tx, p.claimRefundId);
        if (!owed || owed.transferId !== row.id)
          throw new DomainError("refund.stateInvalid", { message: "This transfer has no such claim refund.", details: { claimRefundId: p.claimRefundId } });
        return {
          summary: `Record the claim refund ${owed.id} of transfer ${row.id} (${money(owed.amount, owed.currency)}) as paid, bank reference ${p.bankReference}`,
          before: { claimRefundStatus: owed.state },
          after: { claimRefundStatus: "PAID", bankReference: p.bankReference },
        };
      }
      const refund = await lockRefund(tx, row.id);
      if (!refund) throw new DomainError("refund.stateInvalid", { message: "This transfer has no refund.", details: { currentState: row.state } });
      return {
        summary: `Record the refund of transfer ${row.id} (${money(row.totalCustomerCost, row.originCurrency)}) as paid, bank reference ${p.bankReference}`,
        before: { refundStatus: refund.state },
        after: { refundStatus: "PAID", bankReference: p.bankReference },
      };
    },
    perform: async (tx, p, { now }) => {
      const row = await lockedTransfer(tx, p.transferId);
      if (p.claimRefundId) {
        const paid = await payClaimRefund(tx, { transfer: row, claimRefundId: p.claimRefundId, bankReference: p.bankReference, now });
        return {
          targetType: "transfer",
          targetId: row.id,
          before: { claimRefundId: paid.id, claimRefundStatus: "OWED" },
          after: { claimRefundId: paid.id, claimRefundStatus: paid.state, bankReference: p.bankReference },
          notice: `Claim refund ${paid.id} of ${row.id} is now ${paid.state}.`,
        };
      }
      const before = await lockRefund(tx, row.id);
      const after = await moveRefund(tx, row, "operator.paid", now, { bankReference: p.bankReference });
      return {
        targetType: "transfer",
        targetId: row.id,
        before: { refundStatus: before?.state ?? null },
        after: { refundStatus: after.state, bankReference: p.bankReference },
        notice: `Refund of ${row.id} is now ${after.state}.`,
      };
    },
  }),
  "partner.update": define({
    role: "admin",
    input: z.object({
      partnerId: z.string().min(1),
      pricingMode: z.enum(["SERVICE_PRICED", "PARTNER_SIGNED"]),
      webhookUrl: z.string().nullable(),
      returnOrigins: z.array(z.string()),
      jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
    }),
    subject: (p) => ({ type: "partner", id: p.partnerId }),
    // Pricing and keys need a second operator; the webhook URL and the webview origins do not.
    needsSecondOperator: async (tx, p) => {
      const partner = await partnerOf(tx, p.partnerId);
      return p.pricingMode !== partner.pricingMode || (!!p.jwks && JSON.stringify(p.jwks) !== JSON.stringify(partner.jwks));
    },
    describe: async (tx, p) => {
      const partner = await partnerOf(tx, p.partnerId);
      const before = partnerSettingsView(partner);
      const changed = [p.pricingMode !== partner.pricingMode ? `pricing mode to ${p.pricingMode}` : "", p.jwks ? "its JWKS" : ""].filter(Boolean);
      // What the approver compares: the JWKS's key ids, the webhook URL and the origins, as they would be.
      const after = partnerSettingsView({ pricingMode: p.pricingMode, webhookUrl: p.webhookUrl, returnOrigins: p.returnOrigins, jwks: p.jwks ?? partner.jwks });
      return { summary: `Change the settings of partner ${partner.name} (${changed.join(", ") || "webhook, origins"})`, before, after };
    },
    perform: async (tx, p, { now }) => {
      const before = partnerSettingsView(await partnerOf(tx, p.partnerId));
      const { settings: after, firstWebhookSecret } = await applyPartnerSettings(
        tx,
        p.partnerId,
        { pricingMode: p.pricingMode, webhookUrl: p.webhookUrl, returnOrigins: p.returnOrigins, ...(p.jwks ? { jwks: p.jwks } : {}) },
        now,
      );
      return {
        targetType: "partner",
        targetId: p.partnerId,
        before,
        after: { ...partnerSettingsView(after), ...(firstWebhookSecret ? { webhookSecretIssued: true } : {}) },
        notice: firstWebhookSecret ? "Partner settings saved; the endpoint's first webhook secret was issued." : "Partner settings saved.",
        ...(firstWebhookSecret && after.webhookSecret ? { once: { webhookSecret: after.webhookSecret } } : {}),
      };
    },
  }),
  "partner.apiKey.issue": define({
    role: "admin",
    input: z.object({ partnerId: z.string().min(1) }),
    subject: (p) => ({ type: "partner", id: p.partnerId }),
    describe: async (tx, p) => ({
      summary: `Issue a new API key to partner ${(await partnerOf(tx, p.partnerId)).name}`,
      before: {},
      after: { apiKey: "a new key, revealed once to the proposer after approval" },
    }),
    perform: async (tx, p, { now }) => {
      const { keyId, apiKey } = await issueApiKey(tx, p.partnerId, now);
      return { targetType: "partner", targetId: p.partnerId, before: {}, after: { keyId }, notice: `Key ${keyId} issued.`, once: { apiKey, keyId } };
    },
  }),
  "partner.apiKey.revoke": define({
    role: "admin",
    input: z.object({ partnerId: z.string().min(1), keyId: z.string().min(1) }),
    subject: (p) => ({ type: "partnerApiKey", id: p.keyId }),
    describe: async (tx, p) => ({
      summary: `Revoke API key ${p.keyId} of partner ${(await partnerOf(tx, p.partnerId)).name}`,
      before: { keyId: p.keyId },
      after: { revoked: p.keyId },
    }),
    perform: async (tx, p, { now }) => {
      await revokeApiKey(tx, p.partnerId, p.keyId, now);
      return { targetType: "partner", targetId: p.partnerId, before: { keyId: p.keyId }, after: { revoked: p.keyId }, notice: `Key ${p.keyId} revoked.` };
    },
  }),
  // Issue 23 item 1: a partner's limits by verification tier (lib/limits/partner-limits.ts checks them).
  "partner.limits.update": define({
    role: "admin",
    input: PartnerLimitsChange.extend({ partnerId: z.string().min(1) }),
    subject: (p) => ({ type: "partner", id: p.partnerId }),
    describe: async (tx, p) => {
      const partner = await partnerOf(tx, p.partnerId);
      checkPartnerLimits(p, { rates: await referenceRates(tx), now: clock.now() });
      const line = (l: Record<string, Record<string, string>>) =>
        VERIFICATION_TIERS.map((t) => `tier ${t} ${LIMIT_WINDOWS.map((w) => l[`${t}`][w]).join("/")}`).join(", ");
      return {
        summary: `Change the limits of partner ${partner.name} to ${p.currency} ${line(p.limits)}`,
        before: { currency: partner.limitCurrency, limits: tierLimitsOf(partner) },
        after: { currency: p.currency, limits: p.limits },
      };
    },
    perform: async (tx, p, { now }) => {
      const { before, after } = await setPartnerLimits(tx, p.partnerId, { currency: p.currency, limits: p.limits }, { rates: await referenceRates(tx), now });
      return {
        targetType: "partner",
        targetId: p.partnerId,
        before: { ...before },
        after: { ...after },
        notice: `Limits of ${p.partnerId} saved (${after.currency}).`,
      };
    },
  }),
};

async function creditOf(tx: Tx, creditId: string) {
  const [credit] = await tx.select().from(bankCredits).where(eq(bankCredits.id, creditId));
  if (!credit) throw notFound("bankCredit");
  return credit;
}

async function partnerOf(tx: Tx, partnerId: string) {
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId));
  if (!partner) throw notFound("partner");
  return partner;
}

function partnerSettingsView(s: { pricingMode: string; webhookUrl: string | null; returnOrigins: string[]; jwks: { keys: Record<string, unknown>[] } }) {
  return { pricingMode: s.pricingMode, webhookUrl: s.webhookUrl, returnOrigins: s.returnOrigins, jwksKids: s.jwks.keys.map((k) => k.kid) };
}
