import { and, eq, lt } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { events, partners, webhookAttempts } from "@/db/schema";
import { clock } from "@/lib/clock";
import { config } from "@/lib/config";
import { defineJob, RetryLater } from "@/lib/jobs/define";
import { dedupeKey, nudgeJob } from "@/lib/jobs/queue";
import { assertDeliverableUrl } from "./url-policy";

/**
 * Standard Webhooks retry schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h):
 * about 28 hours in all, past the 24 hours decisions section 9 asks for.
 */
const SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

/**
 * Delivers one event. Events of a subscription go out in sequence order: an event waits while an
 * earlier one of its subscription is still pending, and each delivery nudges the next.
 */
export const deliverWebhook = defineJob({
  kind: "webhooks.deliver",
  schema: z.object({ eventId: z.string() }),
  backoff: (failures) => SCHEDULE[Math.min(failures - 1, SCHEDULE.length - 1)],
  perform: async (db, { payload, signal }) => {
    const [event] = await db.select().from(events).where(eq(events.id, payload.eventId));
    if (!event || event.deliveryState !== "pending") return;
    const [earlier] = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.subscriptionId, event.subscriptionId), eq(events.deliveryState, "pending"), lt(events.sequence, event.sequence)))
      .limit(1);
    if (earlier) throw new RetryLater(60, "an earlier event of this subscription is still pending");

    const [partner] = await db.select().from(partners).where(eq(partners.id, event.partnerId));
    if (!partner?.webhookUrl || !partner.webhookSecret) {
      await settle(db, event.id, event.subscriptionId, "undeliverable");
      return;
    }
    const outcome = await post(partner.webhookUrl, partner.webhookSecret, event.id, JSON.stringify(event.body), signal);
    await db.insert(webhookAttempts).values({
      id: newId("wha"),
      eventId: event.id,
      partnerId: partner.id,
      url: partner.webhookUrl,
      attemptedAt: outcome.at,
      statusCode: outcome.status,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
    });
    if (outcome.status === null || outcome.status < 200 || outcome.status >= 300) {
      throw new Error(outcome.error ?? `endpoint answered ${outcome.status}`);
    }
    await settle(db, event.id, event.subscriptionId, "delivered");
  },
  // Retries exhausted: the event is failed (replayable from the console) and must stop holding
  // back the subscription's later events, which would otherwise wait for it forever.
  onDead: async (db, { payload }) => {
    const [event] = await db.select().from(events).where(eq(events.id, payload.eventId));
    if (event?.deliveryState === "pending") await settle(db, event.id, event.subscriptionId, "failed");
  },
});

async function settle(db: Db, eventId: string, subscriptionId: string, state: "delivered" | "undeliverable" | "failed"): Promise<void> {
  await db
    .update(events)
    .set({ deliveryState: state, deliveredAt: state === "delivered" ? clock.now() : null })
    .where(eq(events.id, eventId));
  const [next] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.subscriptionId, subscriptionId), eq(events.deliveryState, "pending")))
    .orderBy(events.sequence)
    .limit(1);
  if (next) await nudgeJob(db, dedupeKey("webhooks.deliver", next.id));
}

interface Outcome {
  at: Date;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

async function post(url: string, secret: string, eventId: string, body: string, jobSignal: AbortSignal): Promise<Outcome> {
  const at = clock.now();
  // The signed timestamp is wall time, not clock.now(): the receiver checks it against its own
  // clock (Standard Webhooks allows 5 minutes), and a sandbox clock moved forward for testing
  // would otherwise make every later delivery fail verification.
  const signedAt = new Date();
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    await assertDeliverableUrl(url, config().sandbox || config().WEBHOOK_ALLOW_PRIVATE);
    const signature = new Webhook(secret).sign(eventId, signedAt, body);
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": eventId,
        "webhook-timestamp": String(Math.floor(signedAt.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
      redirect: "manual",
      // The job's own hard timeout (lib/jobs/lanes.ts) aborts it too.
      signal: AbortSignal.any([jobSignal, AbortSignal.timeout(config().WEBHOOK_TIMEOUT_MS)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { at, status: res.status, latencyMs: latency(), error: res.ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    const message = err instanceof Error ? err.message : "delivery failed";
    return { at, status: null, latencyMs: latency(), error: message.slice(0, 200) };
  }
}
