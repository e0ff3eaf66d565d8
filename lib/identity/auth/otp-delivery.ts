import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Executor } from "@/db";
import { newId } from "@/db/ids";
import { otpDeliveries } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import type { Language } from "@/lib/platform/i18n/language";
import { defineJob } from "@/lib/platform/jobs/define";
import { backoffWithJitter } from "@/lib/partners";
import { sendEmail } from "@/lib/platform/notifications/email";
import { otpMessageText, type OtpPurpose } from "./otp-messages";
import { smsWebhookSender } from "@/lib/platform/notifications/sms";
import { effectsOf } from "@/lib/platform/unit-of-work";

export type OtpChannel = "EMAIL" | "SMS";

/** Attempts before a delivery is given up (about 20 minutes of backoff: longer than a code lives). */
const MAX_ATTEMPTS = 6;
const codeContext = (deliveryId: string) => `otp-delivery:${deliveryId}`;

/**
 * Records an OTP message for a real channel and enqueues its sending, in the caller's
 * transaction: the request never waits on SMTP or the SMS gateway.
 */
export async function queueOtpDelivery(
  tx: Executor,
  m: { partnerId: string; channel: OtpChannel; provider: string; recipient: string; purpose: OtpPurpose; language: Language; code: string | null; now: Date },
): Promise<void> {
  const id = newId("dlv");
  const codeEncrypted = m.code === null ? null : (await destinationCipher(tx)).encrypt(m.code, codeContext(id));
  await tx.insert(otpDeliveries).values({
    id,
    partnerId: m.partnerId,
    channel: m.channel,
    provider: m.provider,
    recipient: m.recipient,
    purpose: m.purpose,
    language: m.language,
    codeEncrypted,
    state: "PENDING",
    createdAt: m.now,
  });
  await effectsOf(tx).jobs.schedule("notifications.otpDelivery", { deliveryId: id }, { runAt: m.now, maxAttempts: MAX_ATTEMPTS });
}

/** Sends one queued OTP message; a failure throws so the worker retries it with backoff. */
export const deliverOtp = defineJob({
  kind: "notifications.otpDelivery",
  schema: z.object({ deliveryId: z.string() }),
  backoff: (failures) => Math.min(backoffWithJitter(failures), 600),
  perform: async (db, { payload, signal, now }) => {
    const [row] = await db.select().from(otpDeliveries).where(eq(otpDeliveries.id, payload.deliveryId));
    if (!row || row.state !== "PENDING") return;
    await db
      .update(otpDeliveries)
      .set({ attempts: row.attempts + 1 })
      .where(eq(otpDeliveries.id, row.id));
    const code = row.codeEncrypted === null ? null : (await destinationCipher(db)).decrypt(row.codeEncrypted, codeContext(row.id));
    const message = otpMessageText({ language: row.language as Language, purpose: row.purpose as OtpPurpose, code, ttlSeconds: config().OTP_TTL_SECONDS });
    try {
      if (row.channel === "EMAIL") await sendEmail(row.recipient, message);
      else await smsWebhookSender.send({ to: row.recipient, text: message.text.trim(), purpose: row.purpose, language: row.language }, signal);
    } catch (err) {
      // The error text comes from the transport (never holds the code); kept for the console.
      await db
        .update(otpDeliveries)
        .set({ lastError: String((err as Error).message ?? err).slice(0, 500) })
        .where(eq(otpDeliveries.id, row.id));
      throw err;
    }
    await db.update(otpDeliveries).set({ state: "SENT", sentAt: now, codeEncrypted: null, lastError: null }).where(eq(otpDeliveries.id, row.id));
  },
  onDead: async (db: Db, { payload, now }, error) => {
    await db
      .update(otpDeliveries)
      .set({ state: "FAILED", failedAt: now, codeEncrypted: null, lastError: error.slice(0, 500) })
      .where(eq(otpDeliveries.id, payload.deliveryId));
  },
});
