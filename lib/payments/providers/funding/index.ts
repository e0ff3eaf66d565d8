import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { chooseProvider } from "@/lib/platform/providers/choose";

export type FundingPayment = { method: "CARD"; cardNumber: string } | { method: "BANK_TRANSFER" };

/**
 * How customers pay for transfers: what the hosted funding page
 * (lib/payments/transfers/funding-webview.ts) may expect, never the provider's name.
 */
export interface FundingProvider {
  readonly name: string;
  /** Opening the hosted page chooses bank transfer and binds its reference (the method has no other form). */
  readonly bankTransferOnOpen: boolean;
  /** The hosted page takes payments itself (card form, simulated bank transfer). */
  readonly takesPayments: boolean;
  /** The outcome of a payment made on the hosted page; a provider that takes none refuses (503). */
  pay(payment: FundingPayment): "SUCCEEDED" | "FAILED";
}

/** Production: bank transfer to the collection account, reconciled from camt.053 statements (lib/payments/reconciliation). */
const bankTransfer: FundingProvider = {
  name: "bank-transfer",
  bankTransferOnOpen: true,
  takesPayments: false,
  pay: () => {
    throw new DomainError("internal.unavailable", { message: "Payment is not configured on this service (funding provider: bank-transfer)." });
  },
};

/** Sandbox card outcomes: the well-known test numbers succeed, the named decline number fails. */
export const SANDBOX_CARDS: Record<string, "SUCCEEDED" | "FAILED"> = {
  "4242424242424242": "SUCCEEDED",
  "5555555555554444": "SUCCEEDED",
  "4000000000000002": "FAILED",
};

/** Sandbox: the card table above; a simulated bank transfer always arrives. */
const sandbox: FundingProvider = {
  name: "sandbox",
  bankTransferOnOpen: false,
  takesPayments: true,
  pay: (payment) => (payment.method === "BANK_TRANSFER" ? "SUCCEEDED" : (SANDBOX_CARDS[payment.cardNumber.replace(/\s+/g, "")] ?? "FAILED")),
};

export const PRODUCTION_FUNDING_PROVIDERS: Record<string, FundingProvider> = { "bank-transfer": bankTransfer };
export const SANDBOX_FUNDING_PROVIDERS: Record<string, FundingProvider> = { sandbox };

export function fundingProviderFor(name: string, sandboxMode: boolean): FundingProvider {
  return chooseProvider("funding", name, sandboxMode, PRODUCTION_FUNDING_PROVIDERS, SANDBOX_FUNDING_PROVIDERS);
}

/** The funding provider this service is configured with. */
export function fundingProvider(): FundingProvider {
  const c = config();
  return fundingProviderFor(c.providers.funding, c.sandbox);
}
