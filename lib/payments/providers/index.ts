import { config } from "@/lib/platform/config";
import type { ProviderKind, ResolvedProviders } from "@/lib/platform/providers/table";

export { PROVIDERS, PROVIDER_KINDS, providerProblems, unusedProviderKinds, type ProviderKind, type ResolvedProviders } from "@/lib/platform/providers/table";

/** The implementation in use for each provider kind, resolved by lib/platform/config once per process. */
export function providers(): ResolvedProviders {
  return config().providers;
}

/** True when `kind` runs its sandbox (simulated) implementation. */
export function isSandboxProvider(kind: ProviderKind): boolean {
  return providers()[kind] === "sandbox";
}

/** Lines naming each provider setting production refuses (empty in sandbox or when all are real). */
export { assertProductionProviders } from "./check";
