import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { beneficiaries, customers, partners } from "@/db/schema";
import { residenceAddressOf, timeZoneOfAddress } from "@/lib/identity";
import { DomainError } from "@/lib/platform/errors";
import { fundingProvider, type FundingPayment } from "@/lib/payments/providers/funding";
import { Decimal } from "@/lib/platform/money/decimal";
import { toWireAmount } from "@/lib/platform/money/format";
import { closureCallbackFor, type ClosureCallback } from "@/lib/platform/webviews/closure";
import { resolveWebviewToken } from "@/lib/platform/webviews/tokens";
import { checkFundingMethod, corridorOfTransfer, fundingMethodsOf } from "@/lib/payments/corridors/corridors";
import { FUNDING_METHODS, type FundingMethod } from "@/lib/payments/corridors/funding-methods";
import { refreshForTransfers } from "@/lib/payments/corridors/versions";
import { chooseBankTransfer, type BankTransferInstructions } from "./bank-transfer";
import { completeFunding, lockFundingSession } from "./funding";
import { fundingDeadline } from "./funding-window";
import { maskedPayoutMethod } from "./view";

export interface FundingWebviewModel {
  fundingSessionId: string;
  locale: string | null;
  amounts: { originAmount: string; originCurrency: string; fees: string; total: string; rate: string; destinationAmount: string; destinationCurrency: string };
  recipient: { name: string; destinationMasked: string | null };
  closure: ClosureCallback;
  /**
   * The deadline: the earlier of the session's end and the transfer's, or the
   * bank-transfer window once that is chosen. The customer can pay, and retry after a decline, until then.
   */
  payBy: Date;
  /** The customer's time zone (from the residence address), the one the page writes `payBy` in. */
  timeZone: string;
  /** The sandbox's instant card and bank buttons (never in production). */
  paymentsConfigured: boolean;
  /** The methods the transfer's corridor offers, as its own configuration version defines them (the buttons shown). */
  fundingMethods: readonly FundingMethod[];
  /**
   * Production (FUNDING_PROVIDER=bank-transfer): the bank details, amount and RF reference bound
   * to this session when the page opens; null when the transfer's corridor does not offer bank
   * transfer (`fundingMethods` lacks it), or with `bankTransferCurrency` when the collection
   * account does not take the transfer's currency.
   */
  bankTransfer: BankTransferInstructions | null;
  bankTransferCurrency: string;
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
  const locked = await liveSession(tx, token, now);
  const { session, transfer, partnerId } = locked;
  await refreshForTransfers(tx, [transfer]);
  const corridor = corridorOfTransfer(transfer);
  const fundingMethods: readonly FundingMethod[] = corridor ? fundingMethodsOf(corridor) : FUNDING_METHODS;
  // Production's only method is bank transfer: opening the page is choosing it (the reference is
  // bound once), unless the transfer's corridor does not offer it (the page says so, not "this currency").
  const bankTransfer = fundingProvider().bankTransferOnOpen && fundingMethods.includes("BANK_TRANSFER") ? await bankTransferOrNull(tx, locked, now) : null;
  const [beneficiary] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, transfer.beneficiaryId));
  const [customer] = await tx
    .select({ preferredLanguage: customers.preferredLanguage, profile: customers.profile })
    .from(customers)
    .where(eq(customers.id, transfer.customerId));
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
    payBy: bankTransfer ? new Date(bankTransfer.payBy) : fundingDeadline(session, transfer),
    timeZone: timeZoneOfAddress(residenceAddressOf(customer?.profile)),
    paymentsConfigured: fundingProvider().takesPayments,
    fundingMethods,
    bankTransfer,
    bankTransferCurrency: transfer.originCurrency,
  };
}

async function bankTransferOrNull(tx: Tx, locked: Parameters<typeof chooseBankTransfer>[1], now: Date) {
  try {
    return await chooseBankTransfer(tx, locked, now);
  } catch (err) {
    if (err instanceof DomainError && err.code === "funding.methodUnavailable") return null;
    throw err;
  }
}

export type { FundingPayment };

/** The hosted page's payment: success closes the session; a decline leaves it open for another try (funding.ts). */
export async function payFromWebview(tx: Tx, token: string, payment: FundingPayment, now: Date) {
  // The provider decides the outcome; one that takes no payment on the page refuses here (503).
  const outcome = fundingProvider().pay(payment);
  const locked = await liveSession(tx, token, now);
  await refreshForTransfers(tx, [locked.transfer]);
  checkFundingMethod(corridorOfTransfer(locked.transfer), payment.method);
  return completeFunding(tx, { session: locked.session, transfer: locked.transfer, outcome, method: payment.method, now });
}
