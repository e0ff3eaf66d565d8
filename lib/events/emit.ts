import { eq, sql, type SQLWrapper } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { events, subscriptions } from "@/db/schema";
import { writeTogether } from "@/db/write-together";
import { dedupeKey, jobInsert, jobWritten } from "@/lib/jobs/queue";

/** Event types of decisions section 9. */
export const EVENT_TYPES = ["customer.status.changed", "transfer.state.changed", "beneficiary.state.changed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EmitInput {
  subscriptionId: string;
  eventType: EventType;
  data: Record<string, unknown>;
  now: Date;
}

/**
 * Records an event in the caller's transaction, numbered in the subscription's sequence, and
 * enqueues its delivery. Incrementing the counter row serialises concurrent emitters of one
 * subscription, so sequence numbers follow commit order. One statement (issue 13): the counter's
 * increment, the event numbered from it, its delivery job and the caller's `alongside` writes
 * (db/write-together.ts: none may depend on another).
 */
export async function emitEvent(tx: Tx, input: EmitInput, alongside: SQLWrapper[] = []): Promise<{ eventId: string; sequence: number }> {
  const eventId = newId("evt");
  // The body as delivered; jsonb keeps no key order, so the sequence is added in the statement.
  const body = { eventId, eventType: input.eventType, occurredAt: input.now.toISOString(), subscriptionId: input.subscriptionId, data: input.data };
  const counter = tx
    .update(subscriptions)
    .set({ eventSequence: sql`${subscriptions.eventSequence} + 1` })
    .where(eq(subscriptions.id, input.subscriptionId))
    .returning({ sequence: subscriptions.eventSequence, partnerId: subscriptions.partnerId });
  const c = (col: { name: string }) => sql.identifier(col.name);
  const cols = [events.id, events.partnerId, events.subscriptionId, events.sequence, events.eventType, events.body, events.occurredAt, events.createdAt];
  const event = sql`insert into ${events} (${sql.join(cols.map(c), sql`, `)})
    select ${eventId}, w0.${c(subscriptions.partnerId)}, ${input.subscriptionId}, w0.${c(subscriptions.eventSequence)}, ${input.eventType},
      ${JSON.stringify(body)}::jsonb || jsonb_build_object('sequence', w0.${c(subscriptions.eventSequence)}),
      ${sql.param(input.now, events.occurredAt)}, ${sql.param(input.now, events.createdAt)}
    from w0 returning ${c(events.sequence)} as sequence`;
  // 8 attempts: the Standard Webhooks schedule of lib/webhooks/deliver-job.ts (about 28 hours).
  const delivery = { runAt: input.now, dedupeKey: dedupeKey("webhooks.deliver", eventId), maxAttempts: 8 };
  const [row] = await writeTogether<{ sequence: number | string }>(
    tx,
    [counter, event, jobInsert(tx, "webhooks.deliver", { eventId }, delivery), ...alongside],
    sql`select sequence from w1`,
  );
  if (!row) throw new Error(`emitEvent: unknown subscription ${input.subscriptionId}`);
  await jobWritten(tx, delivery);
  return { eventId, sequence: Number(row.sequence) };
}
