/** @remit-core/client: a typed client of the Remit Core API and the signing helpers partners need. */
export { createRemitClient, type RemitClient, type RemitClientOptions } from "./client";
export { retryingFetch, retryAfterMs, needsIdempotencyKey, type RetryOptions } from "./retry";
export { signPartnerQuote, type PartnerQuoteClaims } from "./partner-quote";
export { deviceAssertion, type DeviceKey, type ConfirmableTransfer, type DeviceAssertionOptions } from "./device-assertion";
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from "./webhook";
export type { paths, components, operations } from "./schema";
