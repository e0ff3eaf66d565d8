import { and, eq, sql } from "drizzle-orm";
import { preparedOn } from "@/db/prepared";
import type { Tx } from "@/db";
import { fundingSessions } from "@/db/schema";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { retireSessionTokensStatement } from "@/lib/platform/webviews/tokens";
import { fundingSessionMachine, type FundingSessionStatus } from "./funding-session-state-machine";

/**
 * Closing funding sessions, a leaf below funding.ts and deadline.ts: the deadline guard ends a
 * transfer's open sessions, and funding.ts needs the guard, so the closing lives apart from both.
 */
export type FundingSessionRow = typeof fundingSessions.$inferSelect;

/**
 * Moves a session to a final state and retires its webview URL, written now (a later close in the
 * same unit, the deadline guard's, must find it closed) and together.
 */
export async function closeFundingSession(tx: Tx, session: FundingSessionRow, to: FundingSessionStatus, now: Date, method?: string): Promise<void> {
  await effectsOf(tx).writeNow(
    tx
      .update(fundingSessions)
      .set({ state: to, completedAt: now, method: method ?? session.method })
      .where(eq(fundingSessions.id, session.id)),
    retireSessionTokensStatement(tx, session.id, now),
  );
}

/** Ends the open sessions of a transfer that left funding (cancelled, expired, held). */
export async function expireOpenFundingSessions(tx: Tx, transferId: string, now: Date): Promise<void> {
  const open = await preparedOn(tx, "funding_sessions_open", (e) =>
    e
      .select()
      .from(fundingSessions)
      .where(and(eq(fundingSessions.transferId, sql.placeholder("transferId")), eq(fundingSessions.state, "OPEN")))
      .prepare("funding_sessions_open"),
  ).execute({ transferId });
  for (const session of open) await closeFundingSession(tx, session, fundingSessionMachine.next("OPEN", "expired").to, now);
}
