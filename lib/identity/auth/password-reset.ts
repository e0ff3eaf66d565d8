import { and, desc, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { loginIdentifiers, otps, subscriptions } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { clearFailures } from "@/lib/identity/lockouts/failure-counter";
import { parseAcceptedIdentifier } from "./identifiers";
import { issueOtp, verifyOtp } from "./otp";
import { admitOtpSend } from "./otp-send-limits";
import { assertPasswordPolicy, hashPassword } from "./passwords";
import { loginScope } from "./login";
import { revokeAllSessions } from "./tokens";
import type { Language } from "@/lib/platform/i18n/language";

async function ownerOf(tx: Tx, partnerId: string, value: string) {
  const [row] = await tx
    .select({ subscriptionId: loginIdentifiers.subscriptionId })
    .from(loginIdentifiers)
    .where(and(eq(loginIdentifiers.partnerId, partnerId), eq(loginIdentifiers.value, value)));
  return row?.subscriptionId;
}

/** POST /v1/auth/password-reset/start: 202 whether or not the identifier exists, and the same limits. */
export async function startPasswordReset(
  tx: Tx,
  input: { partnerId: string; identifier: string; clientAddress: string; language?: Language; now: Date },
): Promise<void> {
  const identifier = parseAcceptedIdentifier(input.identifier);
  await admitOtpSend(tx, {
    partnerId: input.partnerId,
    identifier: identifier.value,
    purpose: "PASSWORD_RESET",
    clientAddress: input.clientAddress,
    now: input.now,
  });
  if (!(await ownerOf(tx, input.partnerId, identifier.value))) return;
  await issueOtp(tx, {
    partnerId: input.partnerId,
    identifier,
    language: input.language ?? "en",
    purpose: "PASSWORD_RESET",
    deliverCode: true,
    now: input.now,
  });
}

/** Sets the new password and ends every session: whoever knew the old one is logged out. */
export async function completePasswordReset(
  tx: Tx,
  input: { partnerId: string; identifier: string; otp: string; newPassword: string; now: Date },
): Promise<void> {
  assertPasswordPolicy(input.newPassword, "newPassword");
  const identifier = parseAcceptedIdentifier(input.identifier);
  const [latest] = await tx
    .select({ id: otps.id })
    .from(otps)
    .where(and(eq(otps.partnerId, input.partnerId), eq(otps.identifier, identifier.value), eq(otps.purpose, "PASSWORD_RESET")))
    .orderBy(desc(otps.createdAt))
    .limit(1);
  const subscriptionId = await ownerOf(tx, input.partnerId, identifier.value);
  if (!latest || !subscriptionId) throw new DomainError("auth.otpInvalid", { message: "The code is not valid.", hint: "check_code" });
  await verifyOtp(tx, latest.id, input.otp, input.now);
  await tx
    .update(subscriptions)
    .set({ passwordHash: await hashPassword(input.newPassword), updatedAt: input.now })
    .where(eq(subscriptions.id, subscriptionId));
  await revokeAllSessions(tx, subscriptionId, input.now);
  await clearFailures(tx, loginScope(input.partnerId, identifier.value));
}
