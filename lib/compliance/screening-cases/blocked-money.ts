/**
 * Money a screening case stops moves only through the case (docs/decisions.md
 * "Blocked money moves only through its case").
 *
 * - A transfer held for screening (an open case holds it, or is open on its customer or
 *   beneficiary) is not resolved from the Holds queue: neither rejected (which refunds) nor
 *   restored (which pays out). The case's decision restores it (false positive) or blocks its
 *   money (true match).
 * - Money in blocked:sanctions leaves it only by a release under licence on its confirmed case:
 *   a licence or authority reference (an OFAC specific licence number), dual-controlled
 *   (`screeningCase.releaseUnderLicence`, lib/operations/dual-control: always a second operator), audited by
 *   the approval. What a licence usually authorises is returning the funds to the payer, so the
 *   release owes the blocked amount back as the transfer's refund (Dr blocked:sanctions /
 *   Cr transfer:refund-due, in the transaction that creates the refund), paid as any refund.
 * - Manual journals never touch blocked:sanctions (lib/finance/books/journals.ts).
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { journalEntries, journalLines, ledgerAccounts, screeningCases } from "@/db/schema";
import { DomainError, notFound } from "@/lib/platform/errors";
import { fromMinor, posting } from "@/lib/finance";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { releaseTransfer, lockTransfer, type TransferRow, startRefund, type RefundRow } from "@/lib/payments";
import { lockCase, type ScreeningCaseRow } from "./cases";

type Held = Pick<TransferRow, "id" | "customerId" | "beneficiaryId">;

/** The ledger entry kind of a release under licence (the case page lists them). */
export const RELEASED_KIND = "funds.releasedUnderLicence";

/**
 * The open screening case holding each of these transfers: one whose held transfers include it,
 * or one open on its customer or beneficiary (their transfers stop while it is open). Transfers
 * no open case concerns are absent from the map.
 */
export async function openCasesHolding(db: Executor, rows: readonly Held[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (rows.length === 0) return out;
  const cases = await db
    .select({ id: screeningCases.id, subjectType: screeningCases.subjectType, subjectId: screeningCases.subjectId, held: screeningCases.heldTransferIds })
    .from(screeningCases)
    .where(
      and(
        eq(screeningCases.state, "OPEN"),
        or(
          and(eq(screeningCases.subjectType, "customer"), inArray(screeningCases.subjectId, [...new Set(rows.map((r) => r.customerId))])),
          and(eq(screeningCases.subjectType, "beneficiary"), inArray(screeningCases.subjectId, [...new Set(rows.map((r) => r.beneficiaryId))])),
          ...rows.map((r) => sql`${screeningCases.heldTransferIds} @> ${JSON.stringify([r.id])}::jsonb`),
        ),
      ),
    )
    .orderBy(screeningCases.createdAt);
  for (const r of rows) {
    const c = cases.find((k) => k.held.includes(r.id)) ?? cases.find((k) => k.subjectId === (k.subjectType === "customer" ? r.customerId : r.beneficiaryId));
    if (c) out.set(r.id, c.id);
  }
  return out;
}

/** Refuses (409 screeningCase.holdsTransfer) to resolve a hold outside the open case that holds the transfer. */
export async function refuseIfHeldForScreening(db: Executor, row: Held): Promise<void> {
  const caseId = (await openCasesHolding(db, [row])).get(row.id);
  if (!caseId) return;
  throw new DomainError("screeningCase.holdsTransfer", {
    message: `Screening case ${caseId} holds transfer ${row.id}: its money moves only through that case (decide it on the Screening cases page).`,
    details: { caseId, transferId: row.id },
  });
}

/**
 * A compliance hold rejected by an operator (the Holds queue): refused while a screening case
 * holds the transfer; otherwise rejected, and refunded when it was funded (releaseTransfer).
 */
export async function rejectHold(tx: Tx, row: TransferRow, now: Date): Promise<TransferRow> {
  await refuseIfHeldForScreening(tx, row);
  return releaseTransfer(tx, row, "REJECT", now);
}

export interface BlockedMoney {
  currency: string;
  /** Still in blocked:sanctions for the transfer, in minor units. */
  blockedMinor: bigint;
  /** Releases under licence already posted for it. */
  releases: { reference: string | null; at: Date }[];
}

/** What blocked:sanctions holds for each of these transfers (entries carry the transfer id), and its releases. */
export async function blockedMoneyOf(db: Executor, transferIds: readonly string[]): Promise<Map<string, BlockedMoney>> {
  const out = new Map<string, BlockedMoney>();
  if (transferIds.length === 0) return out;
  const lines = await db
    .select({
      transferId: journalEntries.transferId,
      kind: journalEntries.kind,
      reference: journalEntries.reference,
      at: journalEntries.createdAt,
      currency: ledgerAccounts.currency,
      debit: journalLines.debitMinor,
      credit: journalLines.creditMinor,
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(and(eq(ledgerAccounts.code, "blocked:sanctions"), inArray(journalEntries.transferId, [...transferIds])))
    .orderBy(journalEntries.createdAt);
  for (const l of lines) {
    const held = out.get(l.transferId!) ?? { currency: l.currency, blockedMinor: 0n, releases: [] };
    held.blockedMinor += BigInt(l.credit) - BigInt(l.debit);
    if (l.kind === RELEASED_KIND) held.releases.push({ reference: l.reference, at: l.at });
    out.set(l.transferId!, held);
  }
  return out;
}

/**
 * Refuses (409 screeningCase.nothingBlocked) a release that has nothing to release: the case is
 * not a confirmed true match, the transfer is not its subject's, or blocked:sanctions holds
 * nothing for it (never blocked, or released already). Answers what it holds.
 */
export async function checkRelease(db: Executor, c: ScreeningCaseRow, transfer: Held | undefined): Promise<BlockedMoney> {
  if (c.state !== "TRUE_MATCH") {
    throw new DomainError("screeningCase.nothingBlocked", {
      message: `Screening case ${c.id} is ${c.state}: only a confirmed true match blocks money, and only its money is released under licence.`,
      details: { caseId: c.id, currentState: c.state },
    });
  }
  const own = transfer && (c.subjectType === "customer" ? transfer.customerId : transfer.beneficiaryId) === c.subjectId;
  const blocked = own ? (await blockedMoneyOf(db, [transfer.id])).get(transfer.id) : undefined;
  if (!blocked || blocked.blockedMinor <= 0n) {
    throw new DomainError("screeningCase.nothingBlocked", {
      message: `Nothing of transfer ${transfer?.id ?? "(unknown)"} is blocked under screening case ${c.id}.`,
      details: { caseId: c.id, transferId: transfer?.id ?? null },
    });
  }
  return blocked;
}

/**
 * Releases a transfer's blocked money under a licence (see the module comment): called by the
 * dual-control action when the second operator approves, which writes the audit entry (proposer,
 * approver, licence reference). The transfer stays rejected; its refund starts (PENDING) with the
 * posting that owes it, in this transaction.
 */
export async function releaseUnderLicence(
  tx: Tx,
  input: { caseId: string; transferId: string; licenceReference: string; now: Date },
): Promise<{ case: ScreeningCaseRow; transfer: TransferRow; released: string; currency: string; refund: RefundRow | null }> {
  const { now } = input;
  // The case, then the transfer: the order a case decision locks them in.
  const c = await lockCase(tx, input.caseId);
  const transfer = await lockTransfer(tx, input.transferId);
  if (!transfer) throw notFound("transfer");
  const blocked = await checkRelease(tx, c, transfer);
  await effectsOf(tx).ledger.post(
    posting({
      sourceKey: `blocked-released:${transfer.id}`,
      kind: RELEASED_KIND,
      memo: `Blocked funds released under licence ${input.licenceReference} (screening case ${c.id}): refund owed to the payer`,
      transferId: transfer.id,
      reference: input.licenceReference,
      lines: [
        { account: "blocked:sanctions", currency: blocked.currency, debit: blocked.blockedMinor },
        { account: "transfer:refund-due", currency: blocked.currency, transferId: transfer.id, credit: blocked.blockedMinor },
      ],
      now,
    }),
  );
  // Null when claim refunds already gave back all the customer paid (lib/payments/transfers/refundable.ts).
  const refund = await startRefund(tx, transfer, now);
  return { case: c, transfer, released: fromMinor(blocked.blockedMinor, blocked.currency), currency: blocked.currency, refund };
}
