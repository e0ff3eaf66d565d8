import { DomainError } from "@/lib/platform/errors";
import { PROVIDERS, type ProviderKind } from "./table";

/**
 * The implementation of `kind` named by the configuration, from the implementations this mode may
 * use. Production is handed only `production`: a sandbox implementation is not
 * in its map, so no setting can reach it (lib/platform/config refuses such a setting at start already).
 */
export function chooseProvider<P>(kind: ProviderKind, name: string, sandboxMode: boolean, production: Record<string, P>, sandboxOnly: Record<string, P>): P {
  const available: Record<string, P> = sandboxMode ? { ...production, ...sandboxOnly } : production;
  const chosen = Object.hasOwn(available, name) ? available[name] : undefined;
  if (chosen === undefined) {
    throw new DomainError("internal.unavailable", {
      message: `${PROVIDERS[kind].setting}=${name} is not available on this service (${sandboxMode ? "sandbox" : "production"}).`,
    });
  }
  return chosen;
}
