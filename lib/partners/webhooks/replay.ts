import { and, desc, eq, gte, inArray, lte } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { customers, events, subscriptions, webhookAttempts } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { requireDeliverableEndpoint } from "./endpoint";
import { effectsOf } from "@/lib/platform/unit-of-work";

/** Sends an event again (console replay): back to pending, with a new delivery job. */
export async function replayEvent(tx: Tx, eventId: string, now: Date): Promise<void> {
  const [event] = await tx.select().from(events).where(eq(events.id, eventId)).for("update");
  if (!event) throw new DomainError("event.notFound", { message: "No such event." });
  await requireDeliverableEndpoint(tx, event.partnerId);
  await requeue(tx, eventId, now);
}

async function requeue(tx: Tx, eventId: string, now: Date): Promise<void> {
  await tx.update(events).set({ deliveryState: "pending", deliveredAt: null }).where(eq(events.id, eventId));
  await effectsOf(tx).jobs.schedule("webhooks.deliver", { eventId }, { runAt: now, dedupeKey: dedupeKey("webhooks.deliver", eventId), maxAttempts: 8 });
}

/** Replays every event of a partner that occurred in [from, to]; returns how many. */
export async function replayRange(tx: Tx, partnerId: string, from: Date, to: Date, now: Date): Promise<number> {
  await requireDeliverableEndpoint(tx, partnerId);
  const rows = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.partnerId, partnerId), gte(events.occurredAt, from), lte(events.occurredAt, to)))
    .for("update");
  for (const row of rows) await requeue(tx, row.id, now);
  return rows.length;
}

/** The delivery log of a partner: events, newest first, each with its attempts and its customer's profile (for the name). */
export async function deliveryLog(db: Executor, partnerId: string, limit: number, offset: number) {
  const joined = await db
    .select({ e: events, profile: customers.profile, customerId: customers.id })
    .from(events)
    .leftJoin(subscriptions, eq(subscriptions.id, events.subscriptionId))
    .leftJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(eq(events.partnerId, partnerId))
    .orderBy(desc(events.occurredAt))
    .limit(limit)
    .offset(offset);
  const rows = joined.map((r) => ({ ...r.e, customer: { id: r.customerId, profile: r.profile } }));
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.eventId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(webhookAttempts.attemptedAt)
    : [];
  return rows.map((e) => ({ ...e, attempts: attempts.filter((a) => a.eventId === e.id) }));
}
