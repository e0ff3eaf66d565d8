import { config } from "@/lib/platform/config";

/**
 * KYC_DECISION_PROVIDER (lib/payments/providers table, kind kycDecision): "sandbox" lets the hosted page's outcome buttons decide (sandbox only);
 * "operator" sends every captured session to the console's KYC review queue.
 */
export function kycDecidedByOperators(): boolean {
  return config().providers.kycDecision === "operator";
}

/** The hosted page shows its outcome buttons only in sandbox with the sandbox decision provider. */
export function kycSandboxButtons(): boolean {
  return config().sandbox && !kycDecidedByOperators();
}
