import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { fundingSessions } from "@/db/schema";
import { config } from "@/lib/config";
import { DomainError } from "@/lib/errors";
import { minorUnitExponent } from "@/lib/money/currency";
import { Decimal } from "@/lib/money/decimal";
import { newCreditorReference } from "@/lib/reconciliation/creditor-reference";
import { expireIfOverdue } from "./deadline";
import type { FundingSessionRow } from "./funding-session-expiry";
import type { TransferRow } from "./records";

/** What the customer needs to pay by bank transfer (spec of issue 12 item 5: the sandbox endpoint's body). */
export interface BankTransferInstructions {
  reference: string;
  /** The exact sum, in the currency's minor units ("102.99" for EUR). */
  amount: string;
  currency: string;
  collectionAccount: { iban: string; bic: string; name: string };
}

/** The transfer's total in its currency's minor units: what a matching credit must carry. */
export function amountDue(transfer: Pick<TransferRow, "totalCustomerCost" | "originCurrency">): string {
  return new Decimal(transfer.totalCustomerCost).toFixed(minorUnitExponent(transfer.originCurrency));
}

/**
 * The customer chooses bank transfer (funding page or sandbox endpoint): the session gets its
 * ISO 11649 reference once (the same one on every later call) and the transfer stays in funding
 * until a statement shows the money (lib/reconciliation). Locked rows in; the deadline applies.
 */
export async function chooseBankTransfer(tx: Tx, locked: { session: FundingSessionRow; transfer: TransferRow }, now: Date): Promise<BankTransferInstructions> {
  const account = config().collectionAccount;
  if (!account) throw new DomainError("internal.unavailable", { message: "Bank transfer is not configured on this service." });
  const transfer = await expireIfOverdue(tx, locked.transfer, now);
  const { session } = locked;
  if (transfer.state !== "funding" || session.state !== "OPEN" || session.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError("funding.sessionExpired", {
      message: "The funding session is no longer open. Confirm the transfer again to get a new one.",
      keepChanges: transfer.state !== locked.transfer.state,
    });
  }
  if (!account.currencies.includes(transfer.originCurrency)) {
    throw new DomainError("funding.methodUnavailable", {
      message: `Bank transfer is not available for ${transfer.originCurrency} (the collection account takes ${account.currencies.join(", ")}).`,
      details: { currency: transfer.originCurrency },
    });
  }
  let reference = session.creditorReference;
  if (!reference) {
    reference = await unusedReference(tx);
    await tx.update(fundingSessions).set({ creditorReference: reference }).where(eq(fundingSessions.id, session.id));
  }
  return {
    reference,
    amount: amountDue(transfer),
    currency: transfer.originCurrency,
    collectionAccount: { iban: account.iban, bic: account.bic, name: account.name },
  };
}

/** 10^18 random bodies: a clash is checked first (the unique index is the last word). */
async function unusedReference(tx: Tx): Promise<string> {
  for (;;) {
    const candidate = newCreditorReference();
    const [taken] = await tx.select({ id: fundingSessions.id }).from(fundingSessions).where(eq(fundingSessions.creditorReference, candidate));
    if (!taken) return candidate;
  }
}
