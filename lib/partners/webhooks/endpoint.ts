import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { partners } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";

/**
 * An operator turns a partner's endpoint back on after it answered 410 Gone (and forgets any
 * Retry-After pause). Events settled meanwhile are not resent by themselves: replay them.
 * Returns what was cleared, for the audit entry.
 */
export async function reenableEndpoint(tx: Tx, partnerId: string, now: Date): Promise<{ disabledAt: string; reason: string | null }> {
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for("update");
  if (!partner) throw new DomainError("partner.notFound", { message: "No such partner." });
  if (!partner.webhookDisabledAt) {
    throw new DomainError("webhookEndpoint.stateInvalid", { message: "The webhook endpoint is not disabled.", details: { currentState: "enabled" } });
  }
  await tx
    .update(partners)
    .set({ webhookDisabledAt: null, webhookDisabledReason: null, webhookNotBefore: null, updatedAt: now })
    .where(eq(partners.id, partnerId));
  return { disabledAt: partner.webhookDisabledAt.toISOString(), reason: partner.webhookDisabledReason };
}

export type WebhookEndpointState = "ready" | "noUrl" | "disabled";

/** Whether an event of this partner can be delivered now: a URL and a secret, not disabled after a 410. */
export function webhookEndpointState(partner: {
  webhookUrl: string | null;
  webhookSecret: string | null;
  webhookDisabledAt: Date | null;
}): WebhookEndpointState {
  if (!partner.webhookUrl || !partner.webhookSecret) return "noUrl";
  return partner.webhookDisabledAt ? "disabled" : "ready";
}

/** Replays only where a delivery is possible; otherwise the event would settle undeliverable again. */
export async function requireDeliverableEndpoint(tx: Tx, partnerId: string): Promise<void> {
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId));
  if (!partner) throw new DomainError("partner.notFound", { message: "No such partner." });
  const state = webhookEndpointState(partner);
  if (state === "ready") return;
  const message =
    state === "noUrl" ? "This partner has no webhook URL: set one in the partner's settings first." : "The webhook endpoint is disabled: re-enable it first.";
  throw new DomainError("webhookEndpoint.stateInvalid", { message, details: { currentState: state } });
}
