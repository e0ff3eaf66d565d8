import { config } from "@/lib/config";
import { DomainError } from "@/lib/errors";
import type { ProviderKind, ResolvedProviders } from "./table";

export { PROVIDERS, PROVIDER_KINDS, providerProblems, type ProviderKind, type ResolvedProviders } from "./table";

/** The implementation in use for each provider kind, resolved by lib/config once per process. */
export function providers(): ResolvedProviders {
  return config().providers;
}

/** True when `kind` runs its sandbox (simulated) implementation. */
export function isSandboxProvider(kind: ProviderKind): boolean {
  return providers()[kind] === "sandbox";
}

/** Lines naming each provider setting production refuses (empty in sandbox or when all are real). */
export { assertProductionProviders } from "./check";

const RAIL_LABEL = { funding: "Payment", payout: "Payout" } as const;

/**
 * Guards a money rail that only has a sandbox implementation until issue 12: with "none" (the
 * production default) the operation is refused with a clear "not configured" error (503), so no
 * production path reaches the sandbox rail.
 */
export function requireSandboxRail(kind: "funding" | "payout"): void {
  if (providers()[kind] === "sandbox") return;
  throw new DomainError("internal.unavailable", {
    message: `${RAIL_LABEL[kind]} is not configured on this service (${kind} provider: ${providers()[kind]}).`,
  });
}
