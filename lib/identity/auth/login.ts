import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { loginAttempts, loginIdentifiers, subscriptions } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { clearFailures, lockScope, lockedForSeconds, recordFailure } from "@/lib/identity/lockouts/failure-counter";
import { parseAcceptedIdentifier } from "./identifiers";
import { verifyPassword } from "./passwords";
import { issueTokens, type TokenResponse } from "./tokens";

/** POST /v1/auth/start: the same answer for known and unknown identifiers (decisions section 3). */
export async function startLogin(tx: Tx, input: { partnerId: string; identifier: string; now: Date }) {
  const identifier = parseAcceptedIdentifier(input.identifier);
  const [owner] = await tx
    .select({ subscriptionId: loginIdentifiers.subscriptionId })
    .from(loginIdentifiers)
    .where(and(eq(loginIdentifiers.partnerId, input.partnerId), eq(loginIdentifiers.value, identifier.value)));
  const loginAttemptId = newId("la");
  await tx.insert(loginAttempts).values({
    id: loginAttemptId,
    partnerId: input.partnerId,
    identifier: identifier.value,
    subscriptionId: owner?.subscriptionId ?? null,
    expiresAt: addSeconds(input.now, config().LOGIN_ATTEMPT_TTL_SECONDS),
    createdAt: input.now,
  });
  return { loginAttemptId, nextStep: "PASSWORD_REQUIRED" as const };
}

export const loginScope = (partnerId: string, identifier: string) => `login:${partnerId}:${identifier}`;

/**
 * POST /v1/auth/login. Five wrong passwords in 15 minutes for one identifier lock it (429 with
 * Retry-After); failures are committed even though the answer is an error.
 */
export async function login(tx: Tx, input: { partnerId: string; loginAttemptId: string; password: string; now: Date }): Promise<TokenResponse> {
  const c = config();
  const [attempt] = await tx.select().from(loginAttempts).where(eq(loginAttempts.id, input.loginAttemptId)).for("update");
  if (!attempt || attempt.partnerId !== input.partnerId) {
    throw new DomainError("auth.sessionExpired", { message: "Unknown login attempt. Start again.", hint: "restart_flow" });
  }
  if (attempt.usedAt || attempt.expiresAt.getTime() <= input.now.getTime()) {
    throw new DomainError("auth.sessionExpired", { message: "This login attempt has expired. Start again.", hint: "restart_flow" });
  }
  const scope = loginScope(input.partnerId, attempt.identifier);
  const window = { limit: c.LOGIN_MAX_FAILURES, windowSeconds: c.LOGIN_FAILURE_WINDOW_SECONDS };
  // One check-verify-count at a time per identifier, so parallel guesses cannot pass the limit.
  await lockScope(tx, scope);
  const locked = await lockedForSeconds(tx, scope, window, input.now);
  if (locked > 0) {
    throw new DomainError("auth.rateLimited", {
      message: "Too many failed logins. Try again later or reset the password.",
      retryAfterSeconds: locked,
      details: { retryAfterSeconds: locked },
      remediation: "retry_later",
    });
  }
  const [sub] = attempt.subscriptionId ? await tx.select().from(subscriptions).where(eq(subscriptions.id, attempt.subscriptionId)) : [];
  const ok = await verifyPassword(sub?.passwordHash ?? null, input.password);
  if (!sub || !ok) {
    await recordFailure(tx, scope, input.now);
    throw new DomainError("auth.credentialMismatch", { message: "The identifier or password is wrong.", hint: "check_credentials", keepChanges: true });
  }
  if (sub.status === "closed")
    throw new DomainError("subscription.closed", { message: "This customer relationship is closed.", remediation: "contact_support" });
  await tx.update(loginAttempts).set({ usedAt: input.now }).where(eq(loginAttempts.id, attempt.id));
  await clearFailures(tx, scope);
  return issueTokens(tx, { subscriptionId: sub.id, partnerId: input.partnerId, now: input.now });
}
