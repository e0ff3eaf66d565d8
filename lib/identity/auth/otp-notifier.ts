import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { otpOutbox } from "@/db/schema";
import { config } from "@/lib/platform/config";
import type { Language } from "@/lib/platform/i18n/language";
import { queueOtpDelivery } from "./otp-delivery";
import { otpMessageText, type OtpPurpose } from "./otp-messages";
import type { IdentifierType } from "./identifiers";

export type { OtpPurpose };

export interface OtpMessage {
  partnerId: string;
  identifier: string;
  identifierType: IdentifierType;
  purpose: OtpPurpose;
  /** Null: the message carries no code (the identifier is already registered). */
  code: string | null;
  /** From Accept-Language at the start of the flow. */
  language: Language;
  now: Date;
}

/**
 * Hands an OTP message to the configured channel (the configured providers: otpEmail, otpSms). In sandbox
 * the message also goes to the outbox table read by GET /v1/sandbox/otp; a real channel (smtp,
 * sms-webhook) gets a durable delivery job, so the request never waits on it. The code is never
 * logged.
 */
export async function sendOtpMessage(tx: Tx, m: OtpMessage): Promise<void> {
  if (config().sandbox) {
    await tx.insert(otpOutbox).values({
      id: newId("msg"),
      partnerId: m.partnerId,
      identifier: m.identifier,
      purpose: m.purpose,
      otp: m.code,
      message: otpMessageText({ language: "en", purpose: m.purpose, code: m.code, ttlSeconds: config().OTP_TTL_SECONDS }).text.trim(),
      createdAt: m.now,
    });
  }
  const channel = m.identifierType === "EMAIL" ? "EMAIL" : "SMS";
  const provider = channel === "EMAIL" ? config().providers.otpEmail : config().providers.otpSms;
  // "sandbox" is the outbox above; production never resolves to it (the providers' start-up check, lib/payments/providers/check.ts).
  if (provider === "sandbox") return;
  await queueOtpDelivery(tx, { ...m, channel, provider, recipient: m.identifier, code: m.code });
}
