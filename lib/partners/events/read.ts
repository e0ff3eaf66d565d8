import { and, asc, eq, gt, gte, inArray, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "@/db";
import { prepared } from "@/db/prepared";
import { events } from "@/db/schema";
import type { ReadWithCaller } from "@/lib/platform/read-with-caller";
import { notFound } from "@/lib/platform/errors";
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
  return pageOf<E>(await pageQuery(db, input), input.limit);
}

function pageOf<E>(rows: { body: unknown; sequence: number }[], limit: number): { items: E[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map((r) => r.body as E), nextCursor: rows.length > limit && last ? String(last.sequence) : null };
}

/** A value, or its placeholder when the query is prepared. */
type Param = <T>(name: string, value: T) => T;
const asPlaceholder = ((name: string) => sql.placeholder(name)) as unknown as Param;

/**
 * The page, limit + 1 rows. Without a type filter the query is prepared once per process, by which
 * optional filters it has (Drizzle built it on every request); a type filter varies in
 * length and is built per request, as transfer_list does with states.
 */
function pageQuery(db: Executor, input: ListEventsInput) {
  const build = (e: Executor, p: Param) =>
    e
      .select({ body: events.body, sequence: events.sequence })
      .from(events)
      .where(pageWhere(p, input, p("sub", input.subscriptionId)))
      .orderBy(asc(events.sequence))
      .limit(p("limit", input.limit + 1));
  if (input.types) return build(db, (_, v) => v);
  const shape = `event_list${shapeOf(input)}`;
  return prepared(db, shape, (e) => build(e, asPlaceholder).prepare(shape)).execute(valuesOf(input));
}

const pageWhere = (p: Param, input: Omit<ListEventsInput, "subscriptionId">, subscription: SQL | AnyPgColumn | string) => {
  const conditions: SQL[] = [eq(events.subscriptionId, subscription)];
  if (input.types) conditions.push(inArray(events.eventType, [...input.types]));
  if (input.createdSince) conditions.push(gte(events.occurredAt, p("since", input.createdSince)));
  if (input.after !== undefined) conditions.push(gt(events.sequence, p("after", input.after)));
  return and(...conditions)!;
};
const shapeOf = (input: Omit<ListEventsInput, "subscriptionId">) => `${input.createdSince ? "_since" : ""}${input.after !== undefined ? "_after" : ""}`;
// A placeholder skips the column's encoder: the timestamp goes as ISO text, which PostgreSQL casts.
const valuesOf = (input: Omit<ListEventsInput, "subscriptionId"> & { subscriptionId?: string }) => ({
  sub: input.subscriptionId,
  since: input.createdSince?.toISOString(),
  after: input.after,
  limit: input.limit + 1,
});

/** The list's query string, as the pipeline validated it. */
export interface EventsQuery {
  type?: readonly EventType[];
  createdSince?: string;
  after?: number;
  limit: number;
}
const inputOf = (query: EventsQuery) => ({
  types: query.type,
  createdSince: query.createdSince ? new Date(query.createdSince) : undefined,
  after: query.after,
  limit: query.limit,
});

/**
 * The page in its caller's statement: the token's subscription's events, filtered,
 * ordered and limited in a LATERAL subquery (named like the table, so the read's columns are its
 * own) left-joined to the caller, so an empty page is the caller's row with no event. In the
 * subquery the page is read in order from events_subscription_sequence_idx and stops at its limit;
 * joined directly, the order and limit applied to the join's output, and PostgreSQL read and sorted
 * every event of the subscription before keeping the page. A type filter varies in length (built
 * per request above): such a request is read after its caller.
 */
const eventPage: ReadWithCaller<{ query: EventsQuery }, { items: EventEnvelope[]; nextCursor: string | null }> = {
  name: "event_list",
  shape: ({ query }) => shapeOf(inputOf(query)),
  fields: { event: { body: events.body, sequence: events.sequence } },
  join: (q, caller, { query }) => {
    const page = new QueryBuilder()
      .select({ body: events.body, sequence: events.sequence })
      .from(events)
      .where(pageWhere(asPlaceholder, inputOf(query), caller.subscriptionId))
      .orderBy(asc(events.sequence))
      .limit(sql.placeholder("limit"))
      .as("events");
    return q
      .leftJoinLateral(page, sql`true`)
      .orderBy(asc(page.sequence))
      .limit(sql.placeholder("limit"));
  },
  values: ({ query }) => (query.type ? undefined : valuesOf(inputOf(query))),
  answer: (rows, { query }) =>
    pageOf(
      rows.flatMap((r) => (r.event ? [r.event as { body: unknown; sequence: number }] : [])),
      query.limit,
    ),
};

/** GET /v1/core/events/{eventId}; another subscription's event is event.notFound (404). */
export async function readEvent<E = EventEnvelope>(db: Executor, input: { subscriptionId: string; eventId: string }): Promise<E> {
  const [row] = await db
    .select({ body: events.body })
    .from(events)
    .where(and(eq(events.id, input.eventId), eq(events.subscriptionId, input.subscriptionId)));
  if (!row) throw notFound("event");
  return row.body as E;
}

/** eventPage as the wire type the route names (as listEvents<E>: jsonb keeps no type). */
export const eventsWithCaller = <E = EventEnvelope>() => eventPage as ReadWithCaller<{ query: EventsQuery }, { items: E[]; nextCursor: string | null }>;
