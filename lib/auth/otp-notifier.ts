import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { otpOutbox } from "@/db/schema";
import { config } from "@/lib/config";
import { logger } from "@/lib/log";

export type OtpPurpose = "REGISTRATION" | "PASSWORD_RESET";

export interface OtpMessage {
  partnerId: string;
  identifier: string;
  purpose: OtpPurpose;
  /** Null: the message carries no code (the identifier is already registered). */
  code: string | null;
  now: Date;
}

function textOf(m: OtpMessage): string {
  if (m.code === null) {
    return "Someone tried to register with this identifier, which already has an account. Log in or reset your password instead.";
  }
  return `Your verification code is ${m.code}. It expires in ${Math.round(config().OTP_TTL_SECONDS / 60)} minutes.`;
}

/**
 * Hands an OTP message to the messaging provider. The sandbox provider is an outbox table read by
 * GET /v1/sandbox/otp; a production deployment plugs in an SMS/email provider here. The code is
 * never logged.
 */
export async function sendOtpMessage(tx: Tx, m: OtpMessage): Promise<void> {
  if (config().sandbox) {
    await tx.insert(otpOutbox).values({
      id: newId("msg"),
      partnerId: m.partnerId,
      identifier: m.identifier,
      purpose: m.purpose,
      otp: m.code,
      message: textOf(m),
      createdAt: m.now,
    });
    return;
  }
  logger().warn({ purpose: m.purpose }, "no messaging provider configured: OTP message not sent");
}
