import { and, asc, eq, gt, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { prepared } from "@/db/prepared";
import { events } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { EventType } from "./emit";

/**
 * The envelope exactly as the webhook carried it (decisions section 9). Stored as jsonb, which
 * keeps no type: the reader names the wire type it was written as (the events contract's schema).
 */
export type EventEnvelope = Record<string, unknown>;

export interface ListEventsInput {
  subscriptionId: string;
  types?: readonly EventType[];
  createdSince?: Date;
  /** Only events whose sequence is greater (the last sequence the partner processed). */
  after?: number;
  limit: number;
}

/**
 * GET /v1/core/events: the subscription's events in sequence order, oldest first, so a partner
 * that missed webhooks replays them in the order they happened. The cursor is the sequence
 * itself: a partner resumes from the last one it processed, whether it came by webhook or here.
 */
export async function listEvents<E = EventEnvelope>(db: Executor, input: ListEventsInput): Promise<{ items: E[]; nextCursor: string | null }> {
  const rows = await pageQuery(db, input);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return { items: page.map((r) => r.body as E), nextCursor: rows.length > input.limit && last ? String(last.sequence) : null };
}

/** A value, or its placeholder when the query is prepared. */
type Param = <T>(name: string, value: T) => T;
const asPlaceholder = ((name: string) => sql.placeholder(name)) as unknown as Param;

/**
 * The page, limit + 1 rows. Without a type filter the query is prepared once per process, by which
 * optional filters it has (issue 26: Drizzle built it on every request); a type filter varies in
 * length and is built per request, as transfer_list does with states.
 */
function pageQuery(db: Executor, input: ListEventsInput) {
  const build = (e: Executor, p: Param) => {
    const conditions: SQL[] = [eq(events.subscriptionId, p("sub", input.subscriptionId))];
    if (input.types) conditions.push(inArray(events.eventType, [...input.types]));
    if (input.createdSince) conditions.push(gte(events.occurredAt, p("since", input.createdSince)));
    if (input.after !== undefined) conditions.push(gt(events.sequence, p("after", input.after)));
    return e
      .select({ body: events.body, sequence: events.sequence })
      .from(events)
      .where(and(...conditions))
      .orderBy(asc(events.sequence))
      .limit(p("limit", input.limit + 1));
  };
  if (input.types) return build(db, (_, v) => v);
  const shape = `event_list${input.createdSince ? "_since" : ""}${input.after !== undefined ? "_after" : ""}`;
  // A placeholder skips the column's encoder: the timestamp goes as ISO text, which PostgreSQL casts.
  const values = { sub: input.subscriptionId, since: input.createdSince?.toISOString(), after: input.after, limit: input.limit + 1 };
  return prepared(db, shape, (e) => build(e, asPlaceholder).prepare(shape)).execute(values);
}

/** GET /v1/core/events/{eventId}; another subscription's event is event.notFound (404). */
export async function readEvent<E = EventEnvelope>(db: Executor, input: { subscriptionId: string; eventId: string }): Promise<E> {
  const [row] = await db
    .select({ body: events.body })
    .from(events)
    .where(and(eq(events.id, input.eventId), eq(events.subscriptionId, input.subscriptionId)));
  if (!row) throw notFound("event");
  return row.body as E;
}
