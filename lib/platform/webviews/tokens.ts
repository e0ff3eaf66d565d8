import { eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { webviewTokens } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { randomToken, sha256Hex } from "@/lib/platform/crypto/hash";

export type WebviewKind = "KYC" | "FUNDING" | "RECEIPT";

/**
 * Issues the capability token of a hosted webview URL: opaque, unguessable (256 bits), bound to
 * one session; only its hash is stored.
 */
export async function issueWebviewToken(tx: Tx, input: TokenInput): Promise<{ url: string; expiresAt: Date }> {
  const { insert, ...issued } = webviewTokenInsert(tx, input);
  await insert;
  return issued;
}

type TokenInput = { kind: WebviewKind; sessionId: string; partnerId: string; ttlSeconds: number; now: Date };

/** issueWebviewToken with its insert not yet run, for a caller that sends it with other writes. */
export function webviewTokenInsert(tx: Executor, input: TokenInput) {
  const token = randomToken(32);
  const expiresAt = addSeconds(input.now, input.ttlSeconds);
  const insert = tx.insert(webviewTokens).values({
    tokenHash: sha256Hex(token),
    kind: input.kind,
    sessionId: input.sessionId,
    partnerId: input.partnerId,
    expiresAt,
    createdAt: input.now,
  });
  const path = { KYC: "kyc", FUNDING: "funding", RECEIPT: "receipt" }[input.kind];
  return { insert, url: `${config().publicBaseUrl}/webviews/${path}/${token}`, expiresAt };
}

export interface ResolvedToken {
  sessionId: string;
  partnerId: string;
  expiresAt: Date;
}

/** The live session behind a token, or null when unknown, of another kind, expired or used. */
export async function resolveWebviewToken(db: Executor, kind: WebviewKind, token: string, now: Date): Promise<ResolvedToken | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select()
    .from(webviewTokens)
    .where(eq(webviewTokens.tokenHash, sha256Hex(token)));
  if (!row || row.kind !== kind || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  return { sessionId: row.sessionId, partnerId: row.partnerId, expiresAt: row.expiresAt };
}

/** Kills every token of a session (on completion: the URL is dead afterwards). */
export async function retireSessionTokens(tx: Tx, sessionId: string, now: Date): Promise<void> {
  await retireSessionTokensStatement(tx, sessionId, now);
}

/** retireSessionTokens as a statement not yet run, for a caller that sends it with other writes. */
export function retireSessionTokensStatement(tx: Executor, sessionId: string, now: Date) {
  return tx.update(webviewTokens).set({ usedAt: now }).where(eq(webviewTokens.sessionId, sessionId));
}

/** The partner whose origins may frame a webview (for the CSP frame-ancestors of proxy.ts). */
export async function partnerOfToken(db: Executor, token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select({ partnerId: webviewTokens.partnerId })
    .from(webviewTokens)
    .where(eq(webviewTokens.tokenHash, sha256Hex(token)));
  return row?.partnerId ?? null;
}
