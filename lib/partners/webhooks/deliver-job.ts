import { and, eq, isNull, ne, sql, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { events, partners, webhookAttempts } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { defineJob, doneWith, RetryLater } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { logger } from "@/lib/platform/log";
import { effectsOf, withEffects } from "@/lib/platform/unit-of-work";
import { postWebhook } from "./http-post";
import { backoffWithJitter, PROBE_SCHEDULE, retryAfterSeconds } from "./retry";
import { signingSecrets, signWebhook } from "./signing";
import { assertDeliverableUrlShape } from "./url-policy";

/**
 * Delivers one event. Events of a subscription go out in sequence order: an event waits while an
 * earlier one of its subscription is still pending, and each delivery nudges the next.
 */
export const deliverWebhook = defineJob({
  kind: "webhooks.deliver",
  schema: z.object({ eventId: z.string() }),
  backoff: (failures) => backoffWithJitter(failures),
  perform: async (db, run) => {
    const { payload, signal } = run;
    // The event, whether an earlier one of its subscription is pending, and its partner: one read
    // (a delivery was eight statements; two now, with the outcome's, which records the job done too).
    const earlierPending = sql<boolean>`exists (select 1 from ${events} earlier where earlier.subscription_id = ${events.subscriptionId}
      and earlier.delivery_state = 'pending' and earlier.sequence < ${events.sequence})`;
    const [found] = await db
      .select({ event: events, partner: partners, earlier: earlierPending })
      .from(events)
      .leftJoin(partners, eq(partners.id, events.partnerId))
      .where(eq(events.id, payload.eventId));
    const event = found?.event;
    if (!event || event.deliveryState !== "pending") return;
    if (found.earlier) throw new RetryLater(60, "an earlier event of this subscription is still pending");

    const partner = found.partner;
    // A disabled endpoint (it answered 410 Gone) is no endpoint until an operator re-enables it.
    // The job's "done" goes in the settlement's statement (doneWith), as below.
    if (!partner?.webhookUrl || !partner.webhookSecret || partner.webhookDisabledAt) {
      await settle(db, event.id, event.subscriptionId, "undeliverable", ...doneWith(run));
      return;
    }
    // The endpoint asked for a pause (Retry-After): wait it out without using up an attempt.
    const now = clock.now();
    if (partner.webhookNotBefore && partner.webhookNotBefore > now) {
      throw new RetryLater(Math.ceil((partner.webhookNotBefore.getTime() - now.getTime()) / 1000), "the endpoint asked us to retry later");
    }
    const url = partner.webhookUrl;
    const outcome = await postEvent(url, signingSecrets(partner, now), event.id, JSON.stringify(event.body), signal);
    const attempt = db.insert(webhookAttempts).values({
      id: newId("wha"),
      eventId: event.id,
      partnerId: partner.id,
      url,
      attemptedAt: outcome.at,
      statusCode: outcome.status,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
    });
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    // Delivered: the attempt and the job's "done" are written with the settlement, in its statement.
    if (delivered) return void (await settle(db, event.id, event.subscriptionId, "delivered", attempt, ...doneWith(run)));
    await attempt;
    if (outcome.status === 410) {
      await disableEndpoint(db, partner.id, url, outcome.at);
      await settle(db, event.id, event.subscriptionId, "undeliverable", ...doneWith(run));
      return;
    }
    if (outcome.retryAfter !== null) {
      await db
        .update(partners)
        .set({ webhookNotBefore: new Date(outcome.at.getTime() + outcome.retryAfter * 1000) })
        .where(eq(partners.id, partner.id));
    }
    // The endpoint is failing: probe it on the short schedule (lib/partners/webhooks/probe-job.ts), one
    // probe per partner (a probe already waiting keeps its start).
    await effectsOf(db).jobs.schedule(
      "webhooks.probe",
      { partnerId: partner.id, since: outcome.at.toISOString() },
      { runAt: addSeconds(outcome.at, PROBE_SCHEDULE[0]), dedupeKey: dedupeKey("webhooks.probe", partner.id) },
    );
    throw new Error(outcome.error ?? `endpoint answered ${outcome.status}`);
  },
  // Retries exhausted: the event is failed (replayable from the console) and must stop holding
  // back the subscription's later events, which would otherwise wait for it forever.
  onDead: async (db, { payload }) => {
    const [event] = await db.select().from(events).where(eq(events.id, payload.eventId));
    if (event?.deliveryState === "pending") await settle(db, event.id, event.subscriptionId, "failed");
  },
});

/**
 * Settles the event and nudges the delivery of its subscription's next pending event, with the
 * attempt that settled it and the delivery job's "done" (if any), written together (one statement). The statement reads one
 * snapshot, where this event is still pending: the next is another.
 */
export async function settle(
  db: Db,
  eventId: string,
  subscriptionId: string,
  state: "delivered" | "undeliverable" | "failed",
  ...alongside: SQLWrapper[]
): Promise<void> {
  const now = clock.now();
  const settled = db
    .update(events)
    .set({ deliveryState: state, deliveredAt: state === "delivered" ? now : null })
    .where(eq(events.id, eventId));
  const next = db
    .select({ key: sql<string>`${dedupeKey("webhooks.deliver", "")} || ${events.id}` })
    .from(events)
    .where(and(eq(events.subscriptionId, subscriptionId), eq(events.deliveryState, "pending"), ne(events.id, eventId)))
    .orderBy(events.sequence)
    .limit(1);
  await withEffects(db, async (effects) => {
    await effects.atCommit(...alongside, settled);
    // Due now: this process's worker claims it.
    await effects.jobs.nudge(sql`(${next})`);
  });
}

/**
 * 410 Gone: the partner retired the endpoint, so we stop calling it (and every later event of the
 * partner is undeliverable) until an operator re-enables it. Only the URL that answered is
 * disabled: a partner who meanwhile set a new URL keeps it.
 */
export async function disableEndpoint(db: Db, partnerId: string, url: string, at: Date): Promise<void> {
  const disabled = await db
    .update(partners)
    .set({ webhookDisabledAt: at, webhookDisabledReason: "The endpoint answered 410 Gone." })
    .where(and(eq(partners.id, partnerId), eq(partners.webhookUrl, url), isNull(partners.webhookDisabledAt)))
    .returning({ id: partners.id });
  if (disabled.length) logger().warn({ partnerId }, "webhook endpoint answered 410 Gone: disabled until an operator re-enables it");
}

export interface Outcome {
  at: Date;
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** Seconds the endpoint asked us to wait (Retry-After on 429 or 503), capped by configuration. */
  retryAfter: number | null;
}

/** One signed POST of an event to the endpoint (a delivery, or a probe of lib/partners/webhooks/probe-job.ts). */
export async function postEvent(url: string, secrets: string[], eventId: string, body: string, jobSignal: AbortSignal): Promise<Outcome> {
  const at = clock.now();
  // The signed timestamp is wall time, not clock.now(): the receiver checks it against its own
  // clock (Standard Webhooks allows 5 minutes), and a sandbox clock moved forward for testing
  // would otherwise make every later delivery fail verification.
  const signedAt = new Date();
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const allowPrivate = config().sandbox || config().WEBHOOK_ALLOW_PRIVATE;
  try {
    // The name is resolved once, by the connection's own lookup, which refuses non-public addresses.
    assertDeliverableUrlShape(url, allowPrivate);
    const res = await postWebhook(url, {
      headers: {
        "content-type": "application/json",
        "webhook-id": eventId,
        "webhook-timestamp": String(Math.floor(signedAt.getTime() / 1000)),
        "webhook-signature": signWebhook(secrets, eventId, signedAt, body),
      },
      body,
      allowPrivate,
      timeoutMs: config().WEBHOOK_TIMEOUT_MS,
      // The job's hard timeout (lib/platform/jobs/lanes.ts) ends the POST too.
      signal: jobSignal,
      maxBodyBytes: config().WEBHOOK_RESPONSE_MAX_BYTES,
    });
    const ok = res.status >= 200 && res.status < 300;
    const retryAfter =
      res.status === 429 || res.status === 503 ? retryAfterSeconds(res.headers["retry-after"], signedAt, config().WEBHOOK_RETRY_AFTER_MAX_SECONDS) : null;
    return { at, status: res.status, latencyMs: latency(), error: ok ? null : `HTTP ${res.status}`, retryAfter };
  } catch (err) {
    const message = err instanceof Error ? err.message : "delivery failed";
    return { at, status: null, latencyMs: latency(), error: message.slice(0, 200), retryAfter: null };
  }
}
