import { config } from "@/lib/platform/config";
import { chooseProvider } from "@/lib/platform/providers/choose";

/**
 * The payout network: what lib/payments/transfers/network.ts may expect of it, never its
 * name. The file rail itself (pain.001 out, pain.002 in) is lib/payments/payouts.
 */
export interface PayoutProvider {
  readonly name: string;
  /** Milliseconds per step when the network moves funded → topay → reqpay → paid by itself; null: it never does. */
  selfStepMs(): number | null;
  /** POST /v1/sandbox/transfers/{id}/advance and network-cancellation may stand in for the payout bank. */
  readonly sandboxControls: boolean;
  /** Each funded transfer is routed to a provider (bank file, aggregator) by lib/payments/payouts/routed.ts. */
  readonly routed?: boolean;
}

/** Production: ISO 20022 files to the payout banks; their status reports move the transfers. */
const pain001: PayoutProvider = { name: "pain001", selfStepMs: () => null, sandboxControls: false };

/** Sandbox network: steps every NETWORK_STEP_DELAY_MS (0: only the advance endpoint moves it). */
const sandbox: PayoutProvider = {
  name: "sandbox",
  selfStepMs: () => (config().NETWORK_STEP_DELAY_MS > 0 ? config().NETWORK_STEP_DELAY_MS : null),
  sandboxControls: true,
};

/** Sandbox only: no payout at all (funded transfers wait); the sandbox controls are refused. */
const none: PayoutProvider = { name: "none", selfStepMs: () => null, sandboxControls: false };

/** Routing among the payout providers (the bank file, the aggregator's API) with failover and prefunding cover. */
const routed: PayoutProvider = { name: "routed", selfStepMs: () => null, sandboxControls: false, routed: true };

export const PRODUCTION_PAYOUT_PROVIDERS: Record<string, PayoutProvider> = { pain001, routed };
// In sandbox the file rail's transfers may also be moved by the sandbox controls (a stand-in bank).
export const SANDBOX_PAYOUT_PROVIDERS: Record<string, PayoutProvider> = { sandbox, none, pain001: { ...pain001, sandboxControls: true } };

export function payoutProviderFor(name: string, sandboxMode: boolean): PayoutProvider {
  return chooseProvider("payout", name, sandboxMode, PRODUCTION_PAYOUT_PROVIDERS, SANDBOX_PAYOUT_PROVIDERS);
}

/** The payout provider this service is configured with. */
export function payoutProvider(): PayoutProvider {
  const c = config();
  return payoutProviderFor(c.providers.payout, c.sandbox);
}
