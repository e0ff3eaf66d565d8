import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * Capability tokens in hosted webview URLs (KYC and funding). Only the SHA-256 is stored; a token
 * is bound to one session, lives 30 minutes, and dies when the session closes.
 */
export const webviewTokens = pgTable(
  "webview_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    /** KYC or FUNDING. */
    kind: text("kind").notNull(),
    sessionId: text("session_id").notNull(),
    partnerId: text("partner_id").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("webview_tokens_session_idx").on(t.sessionId)],
);
