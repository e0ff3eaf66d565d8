/**
 * Error claims (Regulation E 1005.33): the one module that writes claims.state.
 * A customer reports from funding on until 180 days after the date available; the provider has
 * 90 days (dueBy) to resolve. Every move is one claim.status.changed event (webhook) and one
 * history row; operators' moves are audited by the console action that calls them.
 */
import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { claims, claimStateHistory } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { dateAvailable } from "@/lib/payments/delivery/transfer-delivery";
import { DomainError, notFound, validationError } from "@/lib/platform/errors";
import { toMinor } from "@/lib/finance";
import { parseMoneyAmount } from "@/lib/platform/money/amount";
import { toWireAmount } from "@/lib/platform/money/format";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { fundedAtOf } from "@/lib/payments/transfers/funded-at";
import { lockTransfer, transferInScope } from "@/lib/payments/transfers/records";
import { refundableOf, refundableWords } from "@/lib/payments/transfers/refundable";
import { oweClaimRefund } from "./claim-refunds";
import { queueClaimResolutionEmail } from "./resolution-email-job";
import { claimMachine, type ClaimOutcome, type ClaimStatus, type ClaimTrigger, type ClaimType } from "./state-machine";

export type ClaimRow = typeof claims.$inferSelect;

const DAY = 86_400;
/** Regulation E 1005.33(b): a notice of error within 180 days of the date available. */
export const CLAIM_WINDOW_DAYS = 180;
/** Regulation E 1005.33(c): the provider resolves within 90 days of the notice. */
export const CLAIM_DUE_DAYS = 90;

/** A claim still to be answered: at most one per transfer and type. */
export const UNRESOLVED: ClaimStatus[] = ["OPEN", "INVESTIGATING"];

/** A claim as the customer and the partner see it (API and events). */
export function claimView(c: ClaimRow) {
  return {
    claimId: c.id,
    transferId: c.transferId,
    type: c.type,
    description: c.description,
    status: c.state,
    dueBy: c.dueBy.toISOString(),
    createdAt: c.createdAt.toISOString(),
    outcome: c.outcome,
    resolutionAmount: c.resolutionAmount,
    resolutionCurrency: c.resolutionCurrency,
    resolutionNotice: c.resolutionNotice,
    resolvedAt: c.resolvedAt?.toISOString() ?? null,
  };
}

async function recordMove(tx: Tx, claim: ClaimRow, trigger: ClaimTrigger, previous: ClaimStatus | null, now: Date): Promise<void> {
  const h = claimStateHistory;
  await tx.insert(h).values({
    id: newId("clh"),
    claimId: claim.id,
    seq: sql`(select coalesce(max(${h.seq}), 0) + 1 from ${h} where ${h.claimId} = ${claim.id})`,
    state: claim.state,
    trigger,
    transitionedAt: now,
  });
  const { claimId, transferId, type, status, dueBy, outcome, resolutionAmount, resolutionCurrency } = claimView(claim);
  await effectsOf(tx).events.emit({
    subscriptionId: claim.subscriptionId,
    eventType: "claim.status.changed",
    data: {
      claimId,
      transferId,
      type,
      status,
      previousStatus: previous,
      dueBy,
      ...(outcome ? { outcome, resolutionAmount, resolutionCurrency } : {}),
    },
    now,
  });
}

/** POST /v1/core/transfers/{id}/claims: 201 OPEN with dueBy; 409 before funding; 422 claim.windowClosed after the window. */
export async function reportClaim(tx: Tx, input: { subscriptionId: string; transferId: string; type: ClaimType; description: string; now: Date }) {
  const { now } = input;
  const transfer = await transferInScope(tx, input.subscriptionId, input.transferId, true);
  const funded = await fundedAtOf(tx, transfer.id);
  if (!funded)
    throw new DomainError("transfer.stateInvalid", {
      message: "A claim can be made once the transfer is funded.",
      details: { currentState: transfer.state },
    });
  const available = dateAvailable(transfer, funded);
  const windowEnds = addSeconds(available, CLAIM_WINDOW_DAYS * DAY);
  if (now.getTime() > windowEnds.getTime())
    throw new DomainError("claim.windowClosed", {
      message: `Errors can be reported until ${CLAIM_WINDOW_DAYS} days after the date the money was available.`,
      details: { dateAvailable: available.toISOString(), claimWindowEndedAt: windowEnds.toISOString() },
    });
  // One unresolved claim per transfer and type: the transfer's lock above
  // serialises reports (no unique index: databases from before may hold several, docs/decisions.md).
  const [open] = await tx
    .select({ id: claims.id, state: claims.state })
    .from(claims)
    .where(and(eq(claims.transferId, transfer.id), eq(claims.type, input.type), inArray(claims.state, UNRESOLVED)))
    .limit(1);
  if (open)
    throw new DomainError("claim.alreadyOpen", {
      message: "A claim of this type is already open on this transfer; it will be answered by its dueBy.",
      details: { claimId: open.id, status: open.state },
    });
  const step = claimMachine.next("none", "customer.report");
  const [claim] = await tx
    .insert(claims)
    .values({
      id: newId("clm"),
      transferId: transfer.id,
      subscriptionId: transfer.subscriptionId,
      type: input.type,
      description: input.description,
      state: step.to,
      dueBy: addSeconds(now, CLAIM_DUE_DAYS * DAY),
      stateChangedAt: now,
      createdAt: now,
    })
    .returning();
  await recordMove(tx, claim, step.trigger, null, now);
  return claimView(claim);
}

/** GET /v1/core/transfers/{id}/claims: the transfer's claims, oldest first. */
export async function listClaims(db: Executor, input: { subscriptionId: string; transferId: string }) {
  const transfer = await transferInScope(db, input.subscriptionId, input.transferId);
  const rows = await db.select().from(claims).where(eq(claims.transferId, transfer.id)).orderBy(asc(claims.createdAt), asc(claims.id));
  return { items: rows.map(claimView) };
}

async function lockClaim(tx: Tx, claimId: string) {
  const [found] = await tx.select({ transferId: claims.transferId }).from(claims).where(eq(claims.id, claimId));
  if (!found) throw notFound("claim");
  // The lock order of every transfer write: the transfer first, then what hangs from it.
  const transfer = await lockTransfer(tx, found.transferId);
  const [claim] = await tx.select().from(claims).where(eq(claims.id, claimId)).for("update");
  if (!transfer || !claim) throw notFound("claim");
  return { claim, transfer };
}

/** Console: an operator starts investigating. */
export async function investigateClaim(tx: Tx, input: { claimId: string; now: Date }): Promise<ClaimRow> {
  const { claim } = await lockClaim(tx, input.claimId);
  const step = claimMachine.next(claim.state, "operator.investigate");
  const [moved] = await tx.update(claims).set({ state: step.to, stateChangedAt: input.now }).where(eq(claims.id, claim.id)).returning();
  await recordMove(tx, moved, step.trigger, claim.state, input.now);
  return moved;
}

/**
 * Console: the outcome, with the notice the customer is sent. REFUND names the amount given back
 * (at most what the customer paid less what is already owed or refunded: lib/payments/transfers/refundable.ts), owed to the customer and posted at once; operations pay it
 * from the bank and record it on the Refunds page (./claim-refunds.ts; docs/decisions.md, "Claim refunds").
 */
export async function resolveClaim(
  tx: Tx,
  input: { claimId: string; outcome: ClaimOutcome; amount?: string; notice: string; operatorEmail: string; now: Date },
): Promise<ClaimRow> {
  const { claim, transfer } = await lockClaim(tx, input.claimId);
  const step = claimMachine.next(claim.state, "operator.resolve");
  let amount: string | null = null;
  if (input.outcome === "REFUND") {
    const value = parseMoneyAmount(input.amount ?? "", transfer.originCurrency, { field: "amount" });
    // What the customer paid less what the transfer's refund and claim refunds owe or gave back
    // already: refused above it, never capped silently.
    const refundable = await refundableOf(tx, transfer);
    if (toMinor(value.toFixed(), transfer.originCurrency) > refundable.left) {
      const w = refundableWords(refundable);
      throw validationError([
        {
          field: "amount",
          code: "validation.fieldInvalid",
          message:
            refundable.left === 0n
              ? `Nothing more can be refunded: the customer paid ${w.paid} ${w.currency} and ${w.alreadyOwedOrRefunded} ${w.currency} is already owed or refunded.`
              : `At most ${w.left} ${w.currency}: the customer paid ${w.paid} ${w.currency} and ${w.alreadyOwedOrRefunded} ${w.currency} is already owed or refunded.`,
        },
      ]);
    }
    amount = toWireAmount(value);
  }
  const [moved] = await tx
    .update(claims)
    .set({
      state: step.to,
      stateChangedAt: input.now,
      outcome: input.outcome,
      resolutionAmount: amount,
      resolutionCurrency: amount ? transfer.originCurrency : null,
      resolutionNotice: input.notice,
      resolvedAt: input.now,
      resolvedByEmail: input.operatorEmail,
    })
    .where(eq(claims.id, claim.id))
    .returning();
  if (amount) await oweClaimRefund(tx, { claimId: moved.id, transfer, amount, now: input.now });
  await recordMove(tx, moved, step.trigger, claim.state, input.now);
  // The customer is told the result in their language (the partner by the event above).
  await queueClaimResolutionEmail(tx, moved.id, input.now);
  return moved;
}

/** Console queue: unresolved claims, the most urgent first, then the latest resolved. */
export async function claimsQueue(db: Executor) {
  const open = await db.select().from(claims).where(inArray(claims.state, UNRESOLVED)).orderBy(asc(claims.dueBy)).limit(200);
  const resolved = await db.select().from(claims).where(eq(claims.state, "RESOLVED")).orderBy(desc(claims.resolvedAt)).limit(20);
  return { open, resolved };
}

/** Unresolved claims past their due date (Overview). */
export async function overdueClaimCount(db: Executor, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(claims)
    .where(and(inArray(claims.state, UNRESOLVED), lt(claims.dueBy, now)));
  return Number(row?.n ?? 0);
}
