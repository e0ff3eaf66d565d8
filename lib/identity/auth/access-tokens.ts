import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { sessions, subscriptions } from "@/db/schema";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError, type ErrorCode } from "@/lib/platform/errors";
import type { CustomerContext } from "./customer-context";

export const tokenError = (code: ErrorCode, message: string) =>
  new DomainError(code, { message, hint: code === "auth.tokenExpired" ? "refresh_token" : "login_again" });

/**
 * Resolves a bearer access token to its customer. A token is bound to the partner it was issued
 * through (decisions section 2): presented with another partner's key it is auth.tokenInvalid.
 */
export async function resolveAccessToken(db: Executor, token: string | null, partnerId: string, now: Date): Promise<CustomerContext> {
  if (!token || token.length > 512) throw tokenError("auth.tokenInvalid", "A Bearer access token is required.");
  const [row] = await db
    .select({
      sessionId: sessions.id,
      state: sessions.state,
      partnerId: sessions.partnerId,
      accessExpiresAt: sessions.accessExpiresAt,
      subscriptionId: subscriptions.id,
      customerId: subscriptions.customerId,
      subscriptionStatus: subscriptions.status,
    })
    .from(sessions)
    .innerJoin(subscriptions, eq(subscriptions.id, sessions.subscriptionId))
    .where(eq(sessions.accessTokenHash, sha256Hex(token)))
    .limit(1);
  return checkSession(row, partnerId, now);
}

type SessionRow = {
  sessionId: string;
  state: string;
  partnerId: string;
  accessExpiresAt: Date;
  subscriptionId: string;
  customerId: string;
  subscriptionStatus: string;
};

/** The token's session checked for this partner at `now` (lib/identity/auth/authenticate.ts reads it in the same query as the key). */
export function checkSession(row: SessionRow | undefined, partnerId: string, now: Date): CustomerContext {
  if (!row || row.partnerId !== partnerId) throw tokenError("auth.tokenInvalid", "The access token is not valid.");
  if (row.state === "revoked") throw tokenError("auth.tokenRevoked", "The access token was revoked. Log in again.");
  if (row.accessExpiresAt.getTime() <= now.getTime()) throw tokenError("auth.tokenExpired", "The access token has expired. Refresh it and retry once.");
  if (row.subscriptionStatus === "closed") {
    throw new DomainError("subscription.closed", { message: "This customer relationship is closed.", remediation: "contact_support" });
  }
  return {
    sessionId: row.sessionId,
    subscriptionId: row.subscriptionId,
    customerId: row.customerId,
    partnerId: row.partnerId,
    subscriptionStatus: row.subscriptionStatus,
  };
}
