import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { partners } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { randomToken } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";

/** A Standard Webhooks secret: whsec_ followed by base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${Buffer.from(randomToken(24), "base64url").toString("base64")}`;
}

export interface RotatedSecret {
  /** The new secret, in full: the caller shows it once (console) or returns it (sandbox API). */
  webhookSecret: string;
  /** Until when the previous secret still signs deliveries, or null when there was none. */
  previousValidUntil: Date | null;
}

/**
 * Replaces a partner's webhook secret. The previous one keeps signing next to the new one for
 * WEBHOOK_SECRET_ROTATION_WINDOW_SECONDS, so retries already in flight and a receiver not yet
 * updated still verify; a second rotation within the window drops the oldest secret.
 */
export async function rotateWebhookSecret(tx: Tx, partnerId: string, now: Date): Promise<RotatedSecret> {
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for("update");
  if (!partner) throw new DomainError("partner.notFound", { message: "No such partner." });
  const previousValidUntil = partner.webhookSecret ? new Date(now.getTime() + config().WEBHOOK_SECRET_ROTATION_WINDOW_SECONDS * 1000) : null;
  const webhookSecret = newWebhookSecret();
  await tx
    .update(partners)
    .set({ webhookSecret, webhookPreviousSecret: partner.webhookSecret, webhookPreviousSecretExpiresAt: previousValidUntil, updatedAt: now })
    .where(eq(partners.id, partnerId));
  return { webhookSecret, previousValidUntil };
}
