import { and, asc, desc, eq, exists, gte, inArray, lt, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import { alias, QueryBuilder, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor, InTransaction } from "@/db";
import { prepared } from "@/db/prepared";
import { subscriptions, transfers } from "@/db/schema";
import type { ReadWithCaller } from "@/lib/platform/read-with-caller";
import { addSeconds } from "@/lib/platform/clock";
import { decodeCursor, encodeCursor, invalidCursor } from "@/lib/platform/pagination/cursor";
import { serviceSecret } from "@/lib/platform/secrets";
import { expireIfOverdue } from "./deadline";
import { lockTransfer, type TransferRow } from "./records";
import { PRE_FUNDING_ACTIVE, TERMINAL, type TransferState } from "./state-machine";
import { transferSummary } from "./view";

interface Cursor {
  c: number;
  i: string;
  s: string;
}

export interface ListTransfersInput {
  subscriptionId: string;
  states?: readonly TransferState[];
  createdSince?: Date;
  limit: number;
  cursor?: string;
  now: Date;
}

/** A value, or its placeholder when the query is prepared. */
type Param = <T>(name: string, value: T) => T;
const asPlaceholder = ((name: string) => sql.placeholder(name)) as unknown as Param;

const other = alias(transfers, "overdue");
const overdueWhere = (t: typeof transfers | typeof other, p: Param, input: Omit<ListTransfersInput, "subscriptionId">, sub: SQL | AnyPgColumn | string) =>
  and(eq(t.subscriptionId, sub), inArray(t.state, [...PRE_FUNDING_ACTIVE]), lte(t.expiresAt, p("now", input.now)))!;

/** The page's conditions on the subscription `sub` (a value, a placeholder or the caller's column). */
function pageWhere(p: Param, input: Omit<ListTransfersInput, "subscriptionId">, cursor: Cursor | undefined, sub: SQL | AnyPgColumn | string) {
  const conditions: SQL[] = [eq(transfers.subscriptionId, sub)];
  if (input.states) conditions.push(inArray(transfers.state, input.states));
  else conditions.push(or(notInArray(transfers.state, [...TERMINAL]), gte(transfers.stateChangedAt, p("recent", addSeconds(input.now, -30 * 86400))))!);
  if (input.createdSince) conditions.push(gte(transfers.createdAt, p("since", input.createdSince)));
  if (cursor) {
    const at = p("cursorAt", new Date(cursor.c));
    conditions.push(or(lt(transfers.createdAt, at), and(eq(transfers.createdAt, at), lt(transfers.id, p("cursorId", cursor.i))))!);
  }
  return and(...conditions)!;
}

// A placeholder skips the column's encoder: timestamps go as ISO text, which PostgreSQL casts.
const iso = (d: Date | undefined) => d?.toISOString();
const valuesOf = (input: Omit<ListTransfersInput, "subscriptionId">, cursor: Cursor | undefined) => ({
  recent: iso(addSeconds(input.now, -30 * 86400)),
  since: iso(input.createdSince),
  cursorAt: iso(cursor && new Date(cursor.c)),
  cursorId: cursor?.i,
  now: iso(input.now),
  limit: input.limit + 1,
});

/**
 * The page and, in the same statement, whether any transfer of the subscription is overdue (so
 * the usual list is one round trip). Without a states filter the query is prepared, by which
 * optional filters it has; a states filter varies in length and is built per request.
 */
function pageQuery(db: Executor, input: ListTransfersInput, cursor: Cursor | undefined) {
  const shape = `transfer_list${input.createdSince ? "_since" : ""}${cursor ? "_after" : ""}`;
  const build = (e: Executor, p: Param) => {
    const sub = p("sub", input.subscriptionId);
    const overdue = exists(
      e
        .select({ one: sql`1` })
        .from(other)
        .where(overdueWhere(other, p, input, sub)),
    );
    return e
      .select({ row: transfers, overdue })
      .from(transfers)
      .where(pageWhere(p, input, cursor, sub))
      .orderBy(desc(transfers.createdAt), desc(transfers.id))
      .limit(p("limit", input.limit + 1));
  };
  if (input.states) return build(db, (_, v) => v);
  return prepared(db, shape, (e) => build(e, asPlaceholder).prepare(shape)).execute({ ...valuesOf(input, cursor), sub: input.subscriptionId });
}

/** A first page read with its caller: its rows and whether the subscription has an overdue transfer. */
export interface JoinedPage {
  rows: { row: TransferRow; overdue: boolean }[];
  overdue: boolean;
}

/** The list's query string, as the pipeline validated it. */
interface ListQuery {
  states?: readonly TransferState[];
  createdSince?: string;
  cursor?: string;
  limit: number;
}
const inputOf = (query: ListQuery, now: Date) => ({
  states: query.states,
  createdSince: query.createdSince ? new Date(query.createdSince) : undefined,
  limit: query.limit,
  now,
});

/**
 * One overdue transfer of the caller's subscription, if any, as a LATERAL subquery joined once to
 * the caller's row: as a correlated EXISTS in the select list it was evaluated again for each
 * row of the page (each time reading every pre-funding transfer of the subscription when none is
 * overdue).
 */
const overdueOne = new QueryBuilder()
  .select({ one: sql<number>`1`.as("one") })
  .from(other)
  .where(overdueWhere(other, asPlaceholder, { limit: 0, now: new Date(0) }, subscriptions.id))
  .limit(1)
  .as("overdue_one");

/**
 * The first page in its caller's statement: the token's subscription's transfers,
 * filtered, ordered and limited in a LATERAL subquery (named like the table, so the read's columns
 * are its own) left-joined to the caller (an empty page is the caller's row with no transfer), and
 * the overdue flag on the caller's row, so even an empty page carries it. In the subquery the page
 * can be read newest first from transfers_subscription_idx up to its limit (or, as the statistics
 * choose, the customer's transfers kept to the newest by a top-N sort); joined directly, the order
 * and limit applied to the join's output, and PostgreSQL read and sorted every transfer of the
 * subscription. A states filter (its length varies) or a cursor (checked against the subscription
 * before the page is read) is read after the caller, as before.
 */
export const transferPageWithCaller: ReadWithCaller<{ query: ListQuery; now: Date }, JoinedPage> = {
  name: "transfer_list",
  shape: ({ query }) => (query.createdSince ? "_since" : ""),
  fields: { transfer: transfers, overdue: sql<boolean>`${overdueOne.one} is not null` },
  join: (query, caller, { query: q, now }) => {
    const page = new QueryBuilder()
      .select()
      .from(transfers)
      .where(pageWhere(asPlaceholder, inputOf(q, now), undefined, caller.subscriptionId))
      .orderBy(desc(transfers.createdAt), desc(transfers.id))
      .limit(sql.placeholder("limit"))
      .as("transfers");
    return query
      .leftJoinLateral(overdueOne, sql`true`)
      .leftJoinLateral(page, sql`true`)
      .orderBy(desc(page.createdAt), desc(page.id))
      .limit(sql.placeholder("limit"));
  },
  values: ({ query, now }) => (query.states || query.cursor ? undefined : valuesOf(inputOf(query, now), undefined)),
  answer: (rows) => ({
    rows: rows.flatMap((r) => (r.transfer ? [{ row: r.transfer as TransferRow, overdue: r.overdue as boolean }] : [])),
    overdue: rows[0].overdue as boolean,
  }),
};

/** Expires every overdue pre-funding transfer of the subscription, each under its row lock. */
async function expireOverdue(db: Executor, write: InTransaction, input: ListTransfersInput) {
  const overdue = await db
    .select({ id: transfers.id })
    .from(transfers)
    .where(overdueWhere(transfers, (_, v) => v, input, input.subscriptionId))
    .orderBy(asc(transfers.id));
  if (overdue.length === 0) return false;
  await write(async (locked) => {
    for (const { id } of overdue) {
      const row = await lockTransfer(locked, id);
      if (row) await expireIfOverdue(locked, row, input.now);
    }
  });
  return true;
}

/**
 * GET /v1/core/transfers (spec 4.1 rule 7): summaries, newest first; default states are every
 * non-terminal state plus terminal ones changed in the last 30 days. Like the detail read
 * (./deadline.ts), a pre-funding transfer past its 120 minutes is expired first, so neither its
 * listed state nor the states filter depends on when the timer job runs.
 */
export async function listTransfers(
  db: Executor,
  write: InTransaction,
  input: ListTransfersInput,
  // The first page, already read with the caller (transferPageWithCaller), when it was.
  joined?: JoinedPage,
) {
  const secret = await serviceSecret(db, "cursor");
  let cursor: Cursor | undefined;
  try {
    cursor = input.cursor ? decodeCursor<Cursor>(secret, input.cursor) : undefined;
    if (cursor && cursor.s !== input.subscriptionId) throw invalidCursor();
  } catch (err) {
    // A refused cursor still expires what is overdue first, as the list always did.
    await expireOverdue(db, write, input);
    throw err;
  }
  let rows = joined ? joined.rows : await pageQuery(db, input, cursor);
  // An empty page of its own carries no flag: ask as before (the caller's row carries it).
  const overdue = joined ? joined.overdue : rows.length > 0 ? rows[0].overdue : true;
  if (overdue && (await expireOverdue(db, write, input))) rows = await pageQuery(db, input, cursor);
  const page = rows.slice(0, input.limit).map((r) => r.row);
  const last = page[page.length - 1];
  return {
    items: page.map(transferSummary),
    nextCursor:
      rows.length > input.limit && last ? encodeCursor(secret, { c: last.createdAt.getTime(), i: last.id, s: input.subscriptionId } satisfies Cursor) : null,
  };
}
