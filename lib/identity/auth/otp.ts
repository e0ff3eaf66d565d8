import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { otps } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { constantTimeEqual, sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import { lockScope, lockedForSeconds, recordFailure } from "@/lib/identity/lockouts/failure-counter";
import type { Language } from "@/lib/platform/i18n/language";
import type { LoginIdentifier } from "./identifiers";
import { sendOtpMessage, type OtpPurpose } from "./otp-notifier";

/**
 * One-time passcodes (decisions section 3): 6 digits, 10 minutes, 5 wrong tries then
 * auth.rateLimited. Stored hashed. When `deliverCode` is false (the identifier is already
 * registered) the message says so and carries no code, so verification can only fail.
 */
export async function issueOtp(
  tx: Tx,
  input: { partnerId: string; identifier: LoginIdentifier; language: Language; purpose: OtpPurpose; deliverCode: boolean; now: Date },
): Promise<{ otpId: string; expiresAt: Date }> {
  const code = input.deliverCode ? String(randomInt(0, 1_000_000)).padStart(6, "0") : null;
  const otpId = newId("otp");
  const expiresAt = addSeconds(input.now, config().OTP_TTL_SECONDS);
  await tx.insert(otps).values({
    id: otpId,
    partnerId: input.partnerId,
    identifier: input.identifier.value,
    purpose: input.purpose,
    codeHash: code ? sha256Hex(`${otpId}:${code}`) : null,
    expiresAt,
    createdAt: input.now,
  });
  await sendOtpMessage(tx, {
    partnerId: input.partnerId,
    identifier: input.identifier.value,
    identifierType: input.identifier.type,
    purpose: input.purpose,
    code,
    language: input.language,
    now: input.now,
  });
  return { otpId, expiresAt };
}

/**
 * Checks a code and consumes it. A wrong code is counted and committed (keepChanges) so the
 * fifth wrong try locks the code even though the answer is an error.
 */
export async function verifyOtp(tx: Tx, otpId: string, code: string, now: Date): Promise<void> {
  const [otp] = await tx.select().from(otps).where(eq(otps.id, otpId)).for("update");
  if (!otp || otp.consumedAt) throw new DomainError("auth.otpInvalid", { message: "The code is not valid. Request a new one.", hint: "restart_flow" });
  // Wrong codes also count per identifier across fresh codes: asking for a new code must not
  // buy five more guesses forever.
  const scope = `otp:${otp.partnerId}:${otp.identifier}:${otp.purpose}`;
  const c = config();
  const window = { limit: c.OTP_VERIFY_MAX_FAILURES_PER_IDENTIFIER, windowSeconds: c.OTP_VERIFY_IDENTIFIER_WINDOW_SECONDS };
  // Like login: one check-verify-count at a time per identifier, or parallel guesses on several
  // codes all read the count below the cap (19 were counted against 15 on PostgreSQL).
  await lockScope(tx, scope);
  const locked = await lockedForSeconds(tx, scope, window, now);
  if (locked > 0) {
    throw new DomainError("auth.rateLimited", {
      message: "Too many wrong codes for this identifier. Try again later.",
      retryAfterSeconds: locked,
      details: { retryAfterSeconds: locked },
      remediation: "retry_later",
    });
  }
  if (otp.failedAttempts >= c.OTP_MAX_ATTEMPTS) {
    throw new DomainError("auth.rateLimited", { message: "Too many wrong codes. Request a new one.", hint: "restart_flow", remediation: "retry_later" });
  }
  if (otp.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError("auth.otpExpired", { message: "The code has expired. Request a new one.", hint: "restart_flow" });
  }
  const ok = otp.codeHash !== null && /^\d{6}$/.test(code) && constantTimeEqual(otp.codeHash, sha256Hex(`${otp.id}:${code}`));
  if (!ok) {
    await tx
      .update(otps)
      .set({ failedAttempts: otp.failedAttempts + 1 })
      .where(eq(otps.id, otp.id));
    await recordFailure(tx, scope, now);
    throw new DomainError("auth.otpInvalid", { message: "The code is not valid.", hint: "check_code", keepChanges: true });
  }
  await tx.update(otps).set({ consumedAt: now }).where(eq(otps.id, otp.id));
}
