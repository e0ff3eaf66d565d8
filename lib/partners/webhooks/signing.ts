import { Webhook } from "standardwebhooks";

interface PartnerSecrets {
  webhookSecret: string | null;
  webhookPreviousSecret: string | null;
  webhookPreviousSecretExpiresAt: Date | null;
}

/** The secrets a delivery is signed with: the current one, and the previous one during its rotation window. */
export function signingSecrets(partner: PartnerSecrets, now: Date): string[] {
  const out = partner.webhookSecret ? [partner.webhookSecret] : [];
  if (partner.webhookPreviousSecret && partner.webhookPreviousSecretExpiresAt && partner.webhookPreviousSecretExpiresAt > now) {
    out.push(partner.webhookPreviousSecret);
  }
  return out;
}

/**
 * The `webhook-signature` header: one `v1,<base64>` per secret, space-separated (Standard
 * Webhooks), so a receiver holding either secret verifies during a rotation.
 */
export function signWebhook(secrets: string[], eventId: string, signedAt: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, signedAt, body)).join(" ");
}
