import { and, inArray, lt, ne } from "drizzle-orm";
import type { Tx } from "@/db";
import { events, webhookAttempts } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";

/** Deletes at most this many events per run, so one purge never holds a long transaction. */
const BATCH = 5000;

/**
 * Drops events (and their delivery attempts) older than EVENT_RETENTION_DAYS (at least 30: the
 * events API promises a partner 30 days to catch up). An event still pending delivery is kept
 * whatever its age, so the webhook job never loses the event it is sending.
 */
export async function purgeOldEvents(tx: Tx, now: Date): Promise<number> {
  const cutoff = addSeconds(now, -config().EVENT_RETENTION_DAYS * 86400);
  const old = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(lt(events.occurredAt, cutoff), ne(events.deliveryState, "pending")))
    .limit(BATCH);
  if (old.length === 0) return 0;
  const ids = old.map((r) => r.id);
  await tx.delete(webhookAttempts).where(inArray(webhookAttempts.eventId, ids));
  await tx.delete(events).where(inArray(events.id, ids));
  return ids.length;
}
