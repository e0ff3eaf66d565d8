import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { sessions, subscriptions } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { randomToken, sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import { nextStepForSubscription } from "@/lib/identity/customers/next-step";
import { tokenMachine } from "./session-state-machine";

/** Token response of decisions section 3. */
export interface TokenResponse {
  accessToken: string;
  refreshToken: string;
  tokenType: "Bearer";
  expiresIn: number;
  subscriptionId: string;
  nextStep: string;
}

/**
 * Issues a random access/refresh pair; only their SHA-256 hashes are stored, so a database leak
 * reveals no usable token. Tokens are opaque to partners (spec 5.2).
 */
export async function issueTokens(
  tx: Tx,
  input: { subscriptionId: string; partnerId: string; familyId?: string; now: Date; nextStep?: string },
): Promise<TokenResponse> {
  const c = config();
  const accessToken = `at_${randomToken(32)}`;
  const refreshToken = `rt_${randomToken(32)}`;
  await tx.insert(sessions).values({
    id: newId("ses"),
    subscriptionId: input.subscriptionId,
    partnerId: input.partnerId,
    familyId: input.familyId ?? newId("fam"),
    accessTokenHash: sha256Hex(accessToken),
    refreshTokenHash: sha256Hex(refreshToken),
    accessExpiresAt: addSeconds(input.now, c.ACCESS_TOKEN_TTL_SECONDS),
    refreshExpiresAt: addSeconds(input.now, c.REFRESH_TOKEN_TTL_SECONDS),
    state: "active",
    createdAt: input.now,
  });
  return {
    accessToken,
    refreshToken,
    tokenType: "Bearer",
    expiresIn: c.ACCESS_TOKEN_TTL_SECONDS,
    subscriptionId: input.subscriptionId,
    nextStep: input.nextStep ?? (await nextStepForSubscription(tx, input.subscriptionId)),
  };
}

/**
 * Rotates a refresh token (decisions section 3). Presenting one that was already rotated means it
 * leaked or was replayed: the whole family is revoked, and the answer is auth.tokenRevoked.
 */
export async function refreshTokens(tx: Tx, refreshToken: string, partnerId: string, now: Date): Promise<TokenResponse> {
  const [session] = await tx
    .select()
    .from(sessions)
    .where(eq(sessions.refreshTokenHash, sha256Hex(refreshToken)))
    .for("update");
  if (!session || session.partnerId !== partnerId) {
    throw new DomainError("auth.tokenInvalid", { message: "The refresh token is not valid.", hint: "login_again" });
  }
  if (session.refreshExpiresAt.getTime() <= now.getTime()) {
    throw new DomainError("auth.sessionExpired", { message: "The session has expired. Log in again.", hint: "login_again" });
  }
  const step = tokenMachine.next(session.state, "refresh");
  if (step.outcome === "REUSE_DETECTED") {
    await revokeFamily(tx, session.familyId, now);
    throw new DomainError("auth.tokenRevoked", {
      message: "This refresh token was already used; the session is revoked.",
      hint: "login_again",
      keepChanges: true,
    });
  }
  const [sub] = await tx.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, session.subscriptionId));
  if (sub?.status === "closed")
    throw new DomainError("subscription.closed", { message: "This customer relationship is closed.", remediation: "contact_support" });
  await tx.update(sessions).set({ state: step.to }).where(eq(sessions.id, session.id));
  return issueTokens(tx, { subscriptionId: session.subscriptionId, partnerId, familyId: session.familyId, now });
}

/** Revokes every member of a family still active or rotated (the table's logout / reuse rows). */
export async function revokeFamily(tx: Tx, familyId: string, now: Date): Promise<void> {
  await tx
    .update(sessions)
    .set({ state: "revoked", revokedAt: now })
    .where(and(eq(sessions.familyId, familyId), inArray(sessions.state, ["active", "rotated"])));
}

/** Logout revokes the session's access and refresh tokens, and the rest of its family. */
export async function logout(tx: Tx, sessionId: string, now: Date): Promise<void> {
  const [session] = await tx.select().from(sessions).where(eq(sessions.id, sessionId)).for("update");
  if (session) await revokeFamily(tx, session.familyId, now);
}

/** After a password reset every session of the subscription ends. */
export async function revokeAllSessions(tx: Tx, subscriptionId: string, now: Date): Promise<void> {
  await tx
    .update(sessions)
    .set({ state: "revoked", revokedAt: now })
    .where(and(eq(sessions.subscriptionId, subscriptionId), inArray(sessions.state, ["active", "rotated"])));
}
