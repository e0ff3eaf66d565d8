import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { customers, fundingSessions, kycSessions, transfers, webviewTokens } from "@/db/schema";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { chooseLanguage, type Language } from "@/lib/platform/i18n/language";

/**
 * The language of a hosted page (spec 4.1 rule 4): Accept-Language, then the session's own choice
 * (a KYC session's locale, the funding customer's preferred language), then English. A used or
 * expired token still names its session, so the "expired" page speaks the customer's language too.
 */
export async function webviewLanguage(db: Executor, token: string, acceptLanguage: string | null): Promise<Language> {
  return chooseLanguage(acceptLanguage, await preferenceOfToken(db, token));
}

async function preferenceOfToken(db: Executor, token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select({ kind: webviewTokens.kind, sessionId: webviewTokens.sessionId })
    .from(webviewTokens)
    .where(eq(webviewTokens.tokenHash, sha256Hex(token)));
  if (!row) return null;
  if (row.kind === "KYC") {
    const [s] = await db.select({ locale: kycSessions.locale }).from(kycSessions).where(eq(kycSessions.id, row.sessionId));
    return s?.locale ?? null;
  }
  if (row.kind === "RECEIPT") {
    const [t] = await db
      .select({ preferred: customers.preferredLanguage })
      .from(transfers)
      .innerJoin(customers, eq(customers.id, transfers.customerId))
      .where(eq(transfers.id, row.sessionId));
    return t?.preferred ?? null;
  }
  const [c] = await db
    .select({ preferred: customers.preferredLanguage })
    .from(fundingSessions)
    .innerJoin(transfers, eq(transfers.id, fundingSessions.transferId))
    .innerJoin(customers, eq(customers.id, transfers.customerId))
    .where(eq(fundingSessions.id, row.sessionId));
  return c?.preferred ?? null;
}
