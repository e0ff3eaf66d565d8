import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { events, subscriptions } from "@/db/schema";
import { dedupeKey, enqueue } from "@/lib/jobs/queue";

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
 * subscription, so sequence numbers follow commit order.
 */
export async function emitEvent(tx: Tx, input: EmitInput): Promise<{ eventId: string; sequence: number }> {
  const [sub] = await tx
    .update(subscriptions)
    .set({ eventSequence: sql`${subscriptions.eventSequence} + 1` })
    .where(eq(subscriptions.id, input.subscriptionId))
    .returning({ sequence: subscriptions.eventSequence, partnerId: subscriptions.partnerId });
  if (!sub) throw new Error(`emitEvent: unknown subscription ${input.subscriptionId}`);
  const eventId = newId("evt");
  const body = {
    eventId,
    eventType: input.eventType,
    occurredAt: input.now.toISOString(),
    subscriptionId: input.subscriptionId,
    sequence: sub.sequence,
    data: input.data,
  };
  await tx.insert(events).values({
    id: eventId,
    partnerId: sub.partnerId,
    subscriptionId: input.subscriptionId,
    sequence: sub.sequence,
    eventType: input.eventType,
    body,
    occurredAt: input.now,
    createdAt: input.now,
  });
  // 8 attempts: the Standard Webhooks schedule of lib/webhooks/deliver-job.ts (about 28 hours).
  await enqueue(tx, "webhooks.deliver", { eventId }, { runAt: input.now, dedupeKey: dedupeKey("webhooks.deliver", eventId), maxAttempts: 8 });
  return { eventId, sequence: sub.sequence };
}
