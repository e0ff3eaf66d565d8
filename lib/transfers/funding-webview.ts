import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { beneficiaries, customers, partners } from "@/db/schema";
import { DomainError } from "@/lib/errors";
import { isSandboxProvider, requireSandboxRail } from "@/lib/providers";
import { Decimal } from "@/lib/money/decimal";
import { toWireAmount } from "@/lib/money/format";
import { closureCallbackFor, type ClosureCallback } from "@/lib/webviews/closure";
import { resolveWebviewToken } from "@/lib/webviews/tokens";
import { completeFunding, lockFundingSession } from "./funding";
import { maskedPayoutMethod } from "./view";

export interface FundingWebviewModel {
  fundingSessionId: string;
  locale: string | null;
  amounts: { originAmount: string; originCurrency: string; fees: string; total: string; rate: string; destinationAmount: string; destinationCurrency: string };
  recipient: { name: string; destinationMasked: string | null };
  closure: ClosureCallback;
  /** The session's end: the customer can pay, and retry after a decline, until then. */
  sessionExpiresAt: Date;
  /** False in production until a real funding rail exists (issue 12): the page says so and takes no payment. */
  paymentsConfigured: boolean;
}

const expired = () => new DomainError("funding.sessionExpired", { message: "This payment link has expired." });

async function liveSession(tx: Tx, token: string, now: Date) {
  const resolved = await resolveWebviewToken(tx, "FUNDING", token, now);
  const locked = resolved && (await lockFundingSession(tx, resolved.sessionId));
  if (!resolved || !locked || locked.session.state !== "OPEN" || locked.transfer.state !== "funding") throw expired();
  return { ...locked, partnerId: resolved.partnerId };
}

/** What the hosted funding page shows: amount, fees, rate, recipient (masked destination). */
export async function openFundingWebview(tx: Tx, token: string, now: Date): Promise<FundingWebviewModel> {
  const { session, transfer, partnerId } = await liveSession(tx, token, now);
  const [beneficiary] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, transfer.beneficiaryId));
  const [customer] = await tx.select({ preferredLanguage: customers.preferredLanguage }).from(customers).where(eq(customers.id, transfer.customerId));
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId));
  const method = await maskedPayoutMethod(tx, transfer.payoutMethodId);
  return {
    fundingSessionId: session.id,
    locale: customer?.preferredLanguage ?? null,
    amounts: {
      originAmount: transfer.originAmount,
      originCurrency: transfer.originCurrency,
      fees: toWireAmount(new Decimal(transfer.principalFee).plus(transfer.partnerFee)),
      total: transfer.totalCustomerCost,
      rate: transfer.fxRate,
      destinationAmount: transfer.destinationAmount,
      destinationCurrency: transfer.destinationCurrency,
    },
    recipient: { name: `${beneficiary.firstName} ${beneficiary.lastName}`, destinationMasked: method?.destinationIdentifierMasked ?? null },
    closure: closureCallbackFor(partner, "funding"),
    sessionExpiresAt: session.expiresAt,
    paymentsConfigured: isSandboxProvider("funding"),
  };
}

/** Sandbox card outcomes: the well-known test numbers succeed, the named decline number fails. */
export const SANDBOX_CARDS: Record<string, "SUCCEEDED" | "FAILED"> = {
  "4242424242424242": "SUCCEEDED",
  "5555555555554444": "SUCCEEDED",
  "4000000000000002": "FAILED",
};

export type FundingPayment = { method: "CARD"; cardNumber: string } | { method: "BANK_TRANSFER" };

/** The hosted page's payment: success closes the session; a decline leaves it open for another try (funding.ts). */
export async function payFromWebview(tx: Tx, token: string, payment: FundingPayment, now: Date) {
  // The sandbox card table below is the only funding rail: production ("none") refuses here.
  requireSandboxRail("funding");
  const locked = await liveSession(tx, token, now);
  const outcome = payment.method === "BANK_TRANSFER" ? "SUCCEEDED" : (SANDBOX_CARDS[payment.cardNumber.replace(/\s+/g, "")] ?? "FAILED");
  return completeFunding(tx, { session: locked.session, transfer: locked.transfer, outcome, method: payment.method, now });
}
