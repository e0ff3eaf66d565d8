import type { Config } from "@/lib/platform/config";
import { providerProblems, unusedProviderKinds } from "@/lib/platform/providers/table";

/**
 * The start-up check on a parsed configuration: one line per provider setting production refuses
 * (unset, sandbox, or a real implementation missing a setting it needs). loadConfig runs the same
 * rules while loading and refuses to start with these lines.
 */
export function assertProductionProviders(c: Config): string[] {
  return providerProblems(c, !c.sandbox, unusedProviderKinds(c, !c.sandbox, c.LOGIN_IDENTIFIER_TYPES.includes("PHONE")));
}
