import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "@/db";
import { fundingSessions, transfers, webviewTokens } from "@/db/schema";
import type { CollectionAccount } from "@/lib/platform/config";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { DomainError } from "@/lib/platform/errors";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal } from "@/lib/platform/money/decimal";
import { newCreditorReference } from "../reconciliation/creditor-reference";
import { checkFundingMethod, corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { bankTransferBusinessDays, collectionAccountsAt } from "@/lib/payments/corridors/funding-terms";
import { refreshVersions } from "@/lib/payments/corridors/versions";
import { expireIfOverdue } from "./deadline";
import type { FundingSessionRow } from "./funding-session-expiry";
import { bankTransferDeadline, fundingDeadline } from "./funding-window";
import type { TransferRow } from "./records";

/** What the customer needs to pay by bank transfer (the sandbox endpoint's body). */
export interface BankTransferInstructions {
  reference: string;
  /** The exact sum, in the currency's minor units ("102.99" for EUR). */
  amount: string;
  currency: string;
  collectionAccount: { iban: string; bic: string; name: string };
  /** The deadline: a credit imported after it no longer funds the transfer (./funding-window.ts). */
  payBy: string;
}

/** The transfer's total in its currency's minor units: what a matching credit must carry. */
export function amountDue(transfer: Pick<TransferRow, "totalCustomerCost" | "originCurrency">): string {
  return new Decimal(transfer.totalCustomerCost).toFixed(minorUnitExponent(transfer.originCurrency));
}

/**
 * The customer chooses bank transfer (funding page or sandbox endpoint): the session gets its
 * ISO 11649 reference once (the same one on every later call) and the transfer stays in funding
 * until a statement shows the money (lib/payments/reconciliation). Locked rows in; the deadline applies.
 */
export async function chooseBankTransfer(tx: Tx, locked: { session: FundingSessionRow; transfer: TransferRow }, now: Date): Promise<BankTransferInstructions> {
  // The accounts and the window in force now (a version newer than this process's copy loaded first),
  // and the transfer's own version's methods: refreshVersions loads both.
  await refreshVersions(tx);
  await refreshVersions(tx, locked.transfer.configurationVersion ?? 0);
  const accounts = collectionAccountsAt(now);
  if (accounts.length === 0) throw new DomainError("internal.unavailable", { message: "Bank transfer is not configured on this service." });
  const transfer = await expireIfOverdue(tx, locked.transfer, now);
  const { session } = locked;
  if (transfer.state !== "funding" || session.state !== "OPEN" || session.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError("funding.sessionExpired", {
      message: "The funding session is no longer open. Confirm the transfer again to get a new one.",
      keepChanges: transfer.state !== locked.transfer.state,
    });
  }
  // Offered on the corridor as the transfer's own configuration version defines it.
  checkFundingMethod(corridorOfTransfer(transfer), "BANK_TRANSFER");
  const account = accounts.find((a) => a.currencies.includes(transfer.originCurrency));
  if (!account) {
    throw new DomainError("funding.methodUnavailable", {
      message: `Bank transfer is not available for ${transfer.originCurrency} (the collection accounts take ${accounts.flatMap((a) => a.currencies).join(", ")}).`,
      details: { currency: transfer.originCurrency },
    });
  }
  let reference = session.creditorReference;
  let payBy = fundingDeadline(session, transfer);
  if (!reference) {
    reference = await unusedReference(tx);
    payBy = await giveBankTransferWindow(tx, { session, transfer, reference }, account, now);
  }
  return {
    reference,
    amount: amountDue(transfer),
    currency: transfer.originCurrency,
    collectionAccount: { iban: account.iban, bic: account.bic, name: account.name },
    payBy: payBy.toISOString(),
  };
}

/**
 * Choosing bank transfer (the reference bound once) gives the session its method's window, and
 * the transfer's expiry follows it (./funding-window.ts): business days of the
 * collection account's calendar instead of minutes. The page's URL lives as long; the expiry jobs
 * already scheduled find nothing due (they check the rows) and new ones run at the new end.
 */
async function giveBankTransferWindow(
  tx: Tx,
  input: { session: FundingSessionRow; transfer: TransferRow; reference: string },
  account: CollectionAccount,
  now: Date,
): Promise<Date> {
  const { session, transfer } = input;
  const windowEnd = bankTransferDeadline(account, now, bankTransferBusinessDays(now));
  const transferEnd = windowEnd.getTime() > transfer.expiresAt.getTime() ? windowEnd : transfer.expiresAt;
  await tx.update(fundingSessions).set({ creditorReference: input.reference, expiresAt: windowEnd }).where(eq(fundingSessions.id, session.id));
  await tx.update(transfers).set({ expiresAt: transferEnd }).where(eq(transfers.id, transfer.id));
  await tx
    .update(webviewTokens)
    .set({ expiresAt: windowEnd })
    .where(and(eq(webviewTokens.sessionId, session.id), isNull(webviewTokens.usedAt)));
  const { jobs } = effectsOf(tx);
  await jobs.schedule("funding.expire", { fundingSessionId: session.id }, { runAt: windowEnd, dedupeKey: dedupeKey("funding.expire", session.id, "bank") });
  await jobs.schedule("transfers.expire", { transferId: transfer.id }, { runAt: transferEnd, dedupeKey: dedupeKey("transfers.expire", transfer.id, "bank") });
  return fundingDeadline({ expiresAt: windowEnd }, { expiresAt: transferEnd });
}

/** 10^18 random bodies: a clash is checked first (the unique index is the last word). */
async function unusedReference(tx: Tx): Promise<string> {
  for (;;) {
    const candidate = newCreditorReference();
    const [taken] = await tx.select({ id: fundingSessions.id }).from(fundingSessions).where(eq(fundingSessions.creditorReference, candidate));
    if (!taken) return candidate;
  }
}
