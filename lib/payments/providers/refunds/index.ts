import { config } from "@/lib/platform/config";
import { chooseProvider } from "@/lib/platform/providers/choose";

/**
 * Who pays refunds back: the domain (lib/payments/transfers/refunds.ts) asks the provider
 * for its next automatic step and schedules it; it never names one.
 */
export interface RefundProvider {
  readonly name: string;
  /** The step the provider takes by itself from this refund status, and when; null: an operator records it. */
  nextStep(status: string): { trigger: "provider.submitted" | "provider.succeeded"; afterSeconds: number } | null;
}

/** Production: the refund waits in the console's "Refunds due" queue until an operator pays it from the bank and records it. */
const operator: RefundProvider = { name: "operator", nextStep: () => null };

/** Sandbox: submitted, then settled, one second each. */
const sandbox: RefundProvider = {
  name: "sandbox",
  nextStep: (status) =>
    status === "PENDING"
      ? { trigger: "provider.submitted", afterSeconds: 1 }
      : status === "PROCESSING"
        ? { trigger: "provider.succeeded", afterSeconds: 1 }
        : null,
};

export const PRODUCTION_REFUND_PROVIDERS: Record<string, RefundProvider> = { operator };
export const SANDBOX_REFUND_PROVIDERS: Record<string, RefundProvider> = { sandbox };

export function refundProviderFor(name: string, sandboxMode: boolean): RefundProvider {
  return chooseProvider("refunds", name, sandboxMode, PRODUCTION_REFUND_PROVIDERS, SANDBOX_REFUND_PROVIDERS);
}

/** The refund provider this service is configured with. */
export function refundProvider(): RefundProvider {
  const c = config();
  return refundProviderFor(c.providers.refunds, c.sandbox);
}
