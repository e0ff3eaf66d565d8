import { config } from "@/lib/platform/config";

/**
 * KYC_DECISION_PROVIDER (lib/payments/providers table, kind kycDecision): "sandbox" lets the hosted page's
 * outcome buttons decide (sandbox only); every other provider (operator, automatic, onfido) keeps
 * the pictures and submits the session: to the console's review queue at once (operator), or
 * after the machine's verification (lib/identity/kyc/verification), which sends only its exceptions there.
 */
export function kycDecidedByOperators(): boolean {
  return config().providers.kycDecision !== "sandbox";
}

/** The hosted page shows its outcome buttons only in sandbox with the sandbox decision provider. */
export function kycSandboxButtons(): boolean {
  return config().sandbox && !kycDecidedByOperators();
}
