import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { auditLog, screeningCases, transferStateHistory } from "@/db/schema";

/** Who put a transfer on compliance hold, when and why. */
export interface HoldInfo {
  at: Date;
  /** The operator's email (or `cli:<user>`, `system`), "sanctions screening" for a screening case; null when neither placed it. */
  by: string | null;
  reason: string | null;
}

/**
 * The current hold of each transfer: its time is the latest move to `spended` in the state
 * history; who and why come from the audit entry that moved it there at that time (every console
 * hold writes one, with its reason), else from the screening case that holds it (a close match,
 * lib/compliance/screening-cases). A hold with neither came from outside the console (the sandbox's
 * compliance endpoint), and says so.
 */
export async function holdInfo(db: Executor, transferIds: string[]): Promise<Map<string, HoldInfo>> {
  const info = new Map<string, HoldInfo>();
  if (transferIds.length === 0) return info;
  const held = await db
    .select({ transferId: transferStateHistory.transferId, at: transferStateHistory.transitionedAt })
    .from(transferStateHistory)
    .where(and(inArray(transferStateHistory.transferId, transferIds), eq(transferStateHistory.state, "spended")))
    .orderBy(desc(transferStateHistory.seq));
  const entries = await db
    .select({ targetId: auditLog.targetId, by: auditLog.operatorEmail, reason: auditLog.reason, at: auditLog.at })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "transfer"), inArray(auditLog.targetId, transferIds), sql`${auditLog.after}->>'state' = 'spended'`))
    .orderBy(desc(auditLog.at));
  for (const h of held) {
    if (info.has(h.transferId)) continue; // the latest hold only
    const entry = entries.find((e) => e.targetId === h.transferId && e.at.getTime() >= h.at.getTime());
    info.set(h.transferId, { at: h.at, by: entry?.by ?? null, reason: entry?.reason ?? null });
  }
  const unexplained = [...info].filter(([, i]) => i.by === null).map(([id]) => id);
  if (unexplained.length > 0) {
    const cases = await db
      .select()
      .from(screeningCases)
      .where(or(...unexplained.map((id) => sql`${screeningCases.heldTransferIds} @> ${JSON.stringify([id])}::jsonb`)))
      .orderBy(desc(screeningCases.updatedAt));
    for (const id of unexplained) {
      const c = cases.find((k) => k.heldTransferIds.includes(id));
      if (c) info.set(id, { ...info.get(id)!, by: "sanctions screening", reason: `screening case ${c.id} (close match of the ${c.subjectType}, ${c.state})` });
    }
  }
  return info;
}
