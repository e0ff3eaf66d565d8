/**
 * Webhook verification (Standard Webhooks, as the service signs: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature` = space-separated `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`). During a secret rotation the service signs with both secrets, so either
 * the new or the previous secret verifies. The timestamp must be within 5 minutes of now.
 */
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { components } from "./schema";

export type WebhookEvent = components["schemas"]["Event"];
export { WebhookVerificationError };

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  const one = Array.isArray(value) ? value[0] : value;
  if (!one) throw new WebhookVerificationError(`Missing ${name} header`);
  return one;
}

/**
 * Verifies a delivery and returns its event. `body` must be the raw request body (the exact bytes
 * signed), not a re-serialised object; `secret` is the partner's `whsec_...` secret.
 */
export function verifyWebhook(headers: HeaderBag, body: string | Uint8Array, secret: string): WebhookEvent {
  const raw = typeof body === "string" ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(raw, {
    "webhook-id": header(headers, "webhook-id"),
    "webhook-timestamp": header(headers, "webhook-timestamp"),
    "webhook-signature": header(headers, "webhook-signature"),
  }) as WebhookEvent;
}
