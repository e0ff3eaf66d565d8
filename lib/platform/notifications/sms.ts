import { Webhook } from "standardwebhooks";
import { newId } from "@/db/ids";
import { config } from "@/lib/platform/config";

/** An SMS gateway: delivers one text to one phone number, or throws (the job retries). */
export interface SmsSender {
  send(message: { to: string; text: string; purpose: string; language: string }, signal: AbortSignal): Promise<void>;
}

/**
 * The generic gateway: POSTs {type, to, text, purpose, language} as JSON to SMS_WEBHOOK_URL,
 * signed with SMS_WEBHOOK_SECRET the Standard Webhooks way (webhook-id, webhook-timestamp,
 * webhook-signature), so any SMS service can be put behind a small adapter. A 2xx is delivered.
 */
export const smsWebhookSender: SmsSender = {
  async send(message, signal) {
    const c = config();
    if (!c.SMS_WEBHOOK_URL || !c.SMS_WEBHOOK_SECRET) throw new Error("SMS_WEBHOOK_URL and SMS_WEBHOOK_SECRET are required");
    const id = newId("sms");
    const timestamp = new Date();
    const body = JSON.stringify({ type: "otp.sms", ...message });
    const signature = new Webhook(c.SMS_WEBHOOK_SECRET).sign(id, timestamp, body);
    const res = await fetch(c.SMS_WEBHOOK_URL, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
      signal,
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
  },
};
