import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { newId } from "@/db/ids";
import { events, jobs, partners, webhookAttempts } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { defineJob, RetryLater } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { wakeWorker } from "@/lib/platform/jobs/wake";
import { disableEndpoint, postEvent, settle } from "./deliver-job";
import { PROBE_SCHEDULE, probeDelaySeconds } from "./retry";
import { signingSecrets } from "./signing";

/**
 * The probe of a failing endpoint. An event's own retries follow the Standard
 * Webhooks schedule (5 s, 5 min, 30 min...), so an endpoint down for two minutes used to wait
 * until the 5-minute retry. After a delivery fails, one probe per partner (its dedupe key) sends
 * the partner's oldest pending event on a short schedule of its own (lib/partners/webhooks/retry.ts:
 * seconds, then every minute), without using up that event's attempts (a probe that fails only
 * waits: RetryLater). The first success settles that event and moves every pending delivery of
 * the partner to now, so a recovered endpoint hears from us within a minute of being back. It
 * ends when the partner has nothing pending (delivered, or failed after the event's own
 * schedule) or its endpoint is gone (unset, or disabled by a 410).
 */
export const probeWebhookEndpoint = defineJob({
  kind: "webhooks.probe",
  schema: z.object({ partnerId: z.string(), since: z.iso.datetime() }).strict(),
  perform: async (db, { payload, signal }) => {
    const now = clock.now();
    const [partner] = await db.select().from(partners).where(eq(partners.id, payload.partnerId));
    if (!partner?.webhookUrl || !partner.webhookSecret || partner.webhookDisabledAt) return;
    const wait = probeDelaySeconds((now.getTime() - Date.parse(payload.since)) / 1000);
    // The endpoint asked for a pause (Retry-After): the probe waits it out too.
    if (partner.webhookNotBefore && partner.webhookNotBefore > now) {
      throw new RetryLater(Math.ceil((partner.webhookNotBefore.getTime() - now.getTime()) / 1000), "the endpoint asked us to retry later");
    }
    const earlierPending = sql`exists (select 1 from ${events} earlier where earlier.subscription_id = ${events.subscriptionId}
      and earlier.delivery_state = 'pending' and earlier.sequence < ${events.sequence})`;
    // The partner's oldest pending event (the first of its subscription, so order holds) and its
    // delivery job: when that job is running or due within seconds, its attempt is this probe.
    const [head] = await db
      .select({ event: events, job: { state: jobs.state, runAt: jobs.runAt } })
      .from(events)
      .leftJoin(jobs, eq(jobs.dedupeKey, sql`${dedupeKey("webhooks.deliver", "")} || ${events.id}`))
      .where(and(eq(events.partnerId, partner.id), eq(events.deliveryState, "pending"), sql`not ${earlierPending}`))
      .orderBy(asc(events.createdAt), asc(events.sequence))
      .limit(1);
    if (!head) return;
    if (head.job && (head.job.state === "running" || head.job.runAt.getTime() <= addSeconds(now, PROBE_SCHEDULE[0]).getTime())) {
      throw new RetryLater(wait, "the event's own attempt is due first");
    }
    const url = partner.webhookUrl;
    const outcome = await postEvent(url, signingSecrets(partner, now), head.event.id, JSON.stringify(head.event.body), signal);
    const attempt = db.insert(webhookAttempts).values({
      id: newId("wha"),
      eventId: head.event.id,
      partnerId: partner.id,
      url,
      attemptedAt: outcome.at,
      statusCode: outcome.status,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
    });
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
      await settle(db, head.event.id, head.event.subscriptionId, "delivered", attempt);
      await nudgePartnerDeliveries(partner.id, outcome.at);
      return;
    }
    await attempt;
    if (outcome.status === 410) {
      await disableEndpoint(db, partner.id, url, outcome.at);
      await settle(db, head.event.id, head.event.subscriptionId, "undeliverable");
      return;
    }
    if (outcome.retryAfter !== null) {
      await db
        .update(partners)
        .set({ webhookNotBefore: addSeconds(outcome.at, outcome.retryAfter) })
        .where(eq(partners.id, partner.id));
      throw new RetryLater(Math.max(outcome.retryAfter, wait), "the endpoint asked us to retry later");
    }
    throw new RetryLater(wait, outcome.error ?? `endpoint answered ${outcome.status}`);

    /** Every pending delivery of the partner due now: the endpoint is back. */
    async function nudgePartnerDeliveries(partnerId: string, at: Date) {
      const pending = db
        .select({ key: sql<string>`${dedupeKey("webhooks.deliver", "")} || ${events.id}` })
        .from(events)
        .where(and(eq(events.partnerId, partnerId), eq(events.deliveryState, "pending")));
      const moved = await db
        .update(jobs)
        .set({ runAt: at })
        .where(and(inArray(jobs.dedupeKey, pending), eq(jobs.state, "pending")))
        .returning({ id: jobs.id });
      if (moved.length > 0) wakeWorker();
    }
  },
});
