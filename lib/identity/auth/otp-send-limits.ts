import type { Tx } from "@/db";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { admitEvent } from "@/lib/identity/lockouts/failure-counter";
import type { OtpPurpose } from "./otp-notifier";

/**
 * Limits on OTP messages (numbers in docs/decisions.md): per identifier and purpose, and
 * per client address. Called before anything looks the identifier up, so an unknown identifier is
 * counted and refused exactly like a registered one; per purpose, so a registration's message
 * never shortens a password reset's allowance (which would hint that someone registered).
 */
export async function admitOtpSend(
  tx: Tx,
  input: { partnerId: string; identifier: string; purpose: OtpPurpose; clientAddress: string; now: Date },
): Promise<void> {
  const c = config();
  const wait = await admitEvent(
    tx,
    [
      // Always this order (identifier, then address): see admitEvent.
      {
        scope: `otp-send:${input.partnerId}:${input.purpose}:${input.identifier}`,
        limit: c.OTP_SEND_MAX_PER_IDENTIFIER,
        windowSeconds: c.OTP_SEND_IDENTIFIER_WINDOW_SECONDS,
      },
      {
        scope: `otp-send-address:${input.partnerId}:${input.clientAddress}`,
        limit: c.OTP_SEND_MAX_PER_ADDRESS,
        windowSeconds: c.OTP_SEND_ADDRESS_WINDOW_SECONDS,
      },
    ],
    input.now,
  );
  if (wait > 0) {
    throw new DomainError("auth.rateLimited", {
      message: "Too many codes requested. Try again later.",
      retryAfterSeconds: wait,
      details: { retryAfterSeconds: wait },
      remediation: "retry_later",
    });
  }
}
