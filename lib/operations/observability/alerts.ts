import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { z } from "zod";
import type { Db, Executor } from "@/db";
import { newId } from "@/db/ids";
import { operationsIncidents } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { defineJob } from "@/lib/platform/jobs/define";
import { logger } from "@/lib/platform/log";
import { sendEmail } from "@/lib/platform/notifications/email";
import { postWebhook } from "@/lib/partners";
import { firing, SCREENING_CASE_HOURS, type Firing } from "./alert-conditions";
import { readOperations } from "./readings";

type Incident = typeof operationsIncidents.$inferSelect;
type Notice = "opening" | "resolution";
type Channel = "webhook" | "email";

/** A notice older than this is not sent when a channel is first configured: history is on the console. */
const NOTICE_HORIZON_MS = 86_400_000;

const keyOf = (x: { condition: string; subject: string }) => `${x.condition}\u0000${x.subject}`;

/**
 * Judges the alert conditions (lib/operations/observability/alert-conditions.ts) on one reading: a condition
 * that starts to hold for a subject opens an incident, one that stopped holding resolves it. Then
 * sends what each channel has not been sent yet. Runs in the periodic job below, one run at a time.
 */
export async function evaluateAlerts(db: Db, now: Date): Promise<void> {
  const readings = await readOperations(db, now, { caseHours: SCREENING_CASE_HOURS });
  const holding = firing(readings, { refreshHours: config().SANCTIONS_REFRESH_HOURS });
  const open = await db.select().from(operationsIncidents).where(isNull(operationsIncidents.resolvedAt));
  const openKeys = new Set(open.map(keyOf));
  const holdingKeys = new Set(holding.map(keyOf));
  for (const f of holding.filter((h) => !openKeys.has(keyOf(h)))) await openIncident(db, f, now);
  for (const i of open.filter((o) => !holdingKeys.has(keyOf(o)))) {
    await db
      .update(operationsIncidents)
      .set({ resolvedAt: now })
      .where(and(eq(operationsIncidents.id, i.id), isNull(operationsIncidents.resolvedAt)));
  }
  await sendNotices(db, now);
}

async function openIncident(db: Db, f: Firing, now: Date): Promise<void> {
  // The open-incident index makes a second opening of the same condition and subject a no-op.
  await db
    .insert(operationsIncidents)
    .values({ id: newId("inc"), condition: f.condition, subject: f.subject, summary: f.summary, openedAt: now, createdAt: now })
    .onConflictDoNothing();
  logger().warn({ condition: f.condition, subject: f.subject, summary: f.summary }, "operations incident opened");
}

const SENT = {
  webhook: { opening: operationsIncidents.openingWebhookSentAt, resolution: operationsIncidents.resolutionWebhookSentAt },
  email: { opening: operationsIncidents.openingEmailSentAt, resolution: operationsIncidents.resolutionEmailSentAt },
} as const;
const COLUMN = {
  webhook: { opening: "openingWebhookSentAt", resolution: "resolutionWebhookSentAt" },
  email: { opening: "openingEmailSentAt", resolution: "resolutionEmailSentAt" },
} as const;

/**
 * Each configured channel gets each incident's opening once and its resolution once. A send that
 * fails is retried at the next evaluation; an incident resolved before its opening could be sent
 * gets the resolution only (it carries when it opened). Sent marks are written after the send: a
 * crash in between sends that notice again (at least once).
 */
async function sendNotices(db: Db, now: Date): Promise<void> {
  const c = config();
  const channels: Channel[] = [...(c.OPERATIONS_ALERT_WEBHOOK_URL ? ["webhook" as const] : []), ...(c.OPERATIONS_ALERT_EMAIL.length ? ["email" as const] : [])];
  const recent = new Date(now.getTime() - NOTICE_HORIZON_MS);
  for (const channel of channels) {
    const sent = SENT[channel];
    const due = await db
      .select()
      .from(operationsIncidents)
      .where(
        or(
          and(isNull(operationsIncidents.resolvedAt), isNull(sent.opening), gt(operationsIncidents.openedAt, recent)),
          and(gt(operationsIncidents.resolvedAt, recent), isNull(sent.resolution)),
        ),
      )
      .orderBy(operationsIncidents.openedAt);
    for (const incident of due) {
      const notice: Notice = incident.resolvedAt ? "resolution" : "opening";
      try {
        await send(channel, notice, incident);
      } catch (err) {
        logger().warn(
          { channel, condition: incident.condition, subject: incident.subject, err: String((err as Error).message ?? err) },
          "operations alert not sent",
        );
        continue;
      }
      const marks =
        notice === "resolution"
          ? { [COLUMN[channel].resolution]: now, [COLUMN[channel].opening]: incident[COLUMN[channel].opening] ?? now }
          : { [COLUMN[channel].opening]: now };
      await db.update(operationsIncidents).set(marks).where(eq(operationsIncidents.id, incident.id));
    }
  }
}

/** What a notice says: the incident, and whether it opened (firing) or resolved. */
export function noticeBody(notice: Notice, i: Incident) {
  return {
    status: notice === "opening" ? "firing" : "resolved",
    incident: {
      id: i.id,
      condition: i.condition,
      subject: i.subject || null,
      summary: i.summary,
      openedAt: i.openedAt.toISOString(),
      resolvedAt: i.resolvedAt?.toISOString() ?? null,
    },
    service: config().publicBaseUrl,
  };
}

async function send(channel: Channel, notice: Notice, incident: Incident): Promise<void> {
  const c = config();
  const body = noticeBody(notice, incident);
  if (channel === "webhook") {
    // The operator's own URL (often an internal alert manager): private addresses are allowed.
    const res = await postWebhook(c.OPERATIONS_ALERT_WEBHOOK_URL!, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      allowPrivate: true,
      timeoutMs: c.WEBHOOK_TIMEOUT_MS,
      maxBodyBytes: c.WEBHOOK_RESPONSE_MAX_BYTES,
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`the alert webhook answered ${res.status}`);
    return;
  }
  const title = `[${body.status.toUpperCase()}] ${incident.condition}${incident.subject ? ` ${incident.subject}` : ""}`;
  const text = `${title}\n\n${incident.summary}\nOpened: ${body.incident.openedAt}\n${body.incident.resolvedAt ? `Resolved: ${body.incident.resolvedAt}\n` : ""}\n${body.service}/console\n`;
  for (const to of c.OPERATIONS_ALERT_EMAIL) await sendEmail(to, { subject: title, text, html: `<pre>${escapeHtml(text)}</pre>` });
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);

/** The console Overview's incidents: every open one and those resolved in the last week, newest first. */
export async function recentIncidents(db: Executor, now: Date) {
  const week = new Date(now.getTime() - 7 * NOTICE_HORIZON_MS);
  return db
    .select({
      id: operationsIncidents.id,
      condition: operationsIncidents.condition,
      subject: operationsIncidents.subject,
      summary: operationsIncidents.summary,
      openedAt: operationsIncidents.openedAt,
      resolvedAt: operationsIncidents.resolvedAt,
    })
    .from(operationsIncidents)
    .where(or(isNull(operationsIncidents.resolvedAt), gt(operationsIncidents.resolvedAt, week)))
    .orderBy(desc(operationsIncidents.openedAt))
    .limit(50);
}

/** Evaluates the alert conditions every minute (a periodic job: one run at a time across nodes). */
export const evaluateOperationsAlerts = defineJob({
  kind: "operations.alerts",
  schema: z.object({}).strict(),
  every: 60,
  perform: async (db, { now }) => evaluateAlerts(db, now),
});
