import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { events, subscriptions } from "@/db/schema";
import { writeTogether, type Write } from "@/db/write-together";
import { dedupeKey, jobInsert, jobWritten } from "@/lib/jobs/queue";

/** Event types of decisions section 9. */
export const EVENT_TYPES = ["customer.status.changed", "transfer.state.changed", "beneficiary.state.changed", "refund.completed", "refund.failed"] as const;
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
 * increment, the event numbered from it, its delivery job and the caller's `alongside` writes.
 */
export async function emitEvent(tx: Tx, input: EmitInput, alongside: Write[] = []): Promise<{ eventId: string; sequence: number }> {
  const event = eventWrites(tx, input);
  const [row] = await writeTogether<{ sequence: number | string }>(tx, [...event.writes, ...alongside], sql`select sequence from ${sql.identifier(EVENT_ROW)}`);
  if (!row) throw new Error(`emitEvent: unknown subscription ${input.subscriptionId}`);
  await event.written();
  return { eventId: event.eventId, sequence: Number(row.sequence) };
}

/** The CTE holding the event row written (its `sequence`): empty when the subscription is unknown. */
export const EVENT_ROW = "event_row";

/**
 * emitEvent's writes, not yet run (db/write-together.ts), for a caller that sends them with its
 * own; then it awaits `written`.
 */
export function eventWrites(tx: Tx, input: EmitInput) {
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
    select ${eventId}, event_counter.${c(subscriptions.partnerId)}, ${input.subscriptionId}, event_counter.${c(subscriptions.eventSequence)}, ${input.eventType},
      ${JSON.stringify(body)}::jsonb || jsonb_build_object('sequence', event_counter.${c(subscriptions.eventSequence)}),
      ${sql.param(input.now, events.occurredAt)}, ${sql.param(input.now, events.createdAt)}
    from event_counter returning ${c(events.sequence)} as sequence`;
  // 8 attempts: the Standard Webhooks schedule of lib/webhooks/deliver-job.ts (about 28 hours).
  const delivery = { runAt: input.now, dedupeKey: dedupeKey("webhooks.deliver", eventId), maxAttempts: 8 };
  const writes: Write[] = [
    { name: "event_counter", write: counter },
    { name: EVENT_ROW, write: event },
    jobInsert(tx, "webhooks.deliver", { eventId }, delivery),
  ];
  return { eventId, writes, written: () => jobWritten(tx, delivery) };
}

/**
 * Raises a subscription's event counter by `count` (one UPDATE: concurrent emitters of one
 * subscription wait on its row, so sequence numbers follow commit order); answers `sequence`
 * (the new value) and `partner_id`. For the unit of work's flush (lib/platform/unit-of-work.ts).
 */
export function subscriptionCounter(subscriptionId: string, count: number) {
  const c = (col: { name: string }) => sql.identifier(col.name);
  return sql`update ${subscriptions} set ${c(subscriptions.eventSequence)} = ${c(subscriptions.eventSequence)} + ${count}
    where ${c(subscriptions.id)} = ${subscriptionId} returning ${c(subscriptions.eventSequence)} as sequence, ${c(subscriptions.partnerId)} as partner_id`;
}
