import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type { Executor } from "@/db";
import { prepared } from "@/db/prepared";
import {
  fundingSessions,
  networkCancellations,
  paymentStatusRecords,
  payoutFileItems,
  payoutProviderAttempts,
  payoutMethods,
  refunds,
  transfers,
  transferStateHistory,
} from "@/db/schema";
import type { ReadWithCaller } from "@/lib/platform/read-with-caller";
import { notFound } from "@/lib/platform/errors";
import type { NetworkCancellationView } from "./network-cancellations";
import type { TransferRow } from "./records";
import type { RefundStatus } from "./refund-state-machine";
import type { TransferState } from "./state-machine";

export interface HistoryEntry {
  state: TransferState;
  transitionedAt: Date;
  reasonCode: string;
}

export interface TransferWithDetail {
  row: TransferRow;
  payoutMethod: typeof payoutMethods.$inferSelect | null;
  history: HistoryEntry[];
  /** The open funding session, only read in funding (spec 2.7). */
  session: { id: string; expiresAt: Date } | null;
  /** The payout bank's rejection (its pain.002 RJCT), only read in rejected or canceled; null when none. */
  rejection: { isoReasonCode: string | null } | null;
  /** The transfer's refund (its own row and machine), null when none. */
  refund: { state: RefundStatus; estimatedCompletionBy: Date; refundMethod: "ORIGINAL_PAYMENT_METHOD"; amount: string | null } | null;
  /** The latest network cancellation request, null when none. */
  networkCancellation: NetworkCancellationView | null;
  /** A payout the bank rejected that waits for a new destination, only read with the network; null when none. */
  payoutRepair?: { isoReasonCode: string | null; rejectedAt: Date } | null;
}

type Json<T> = T | string | null;
const parsed = <T>(value: Json<T>): T | null => (typeof value === "string" ? (JSON.parse(value) as T) : value);

// JSON keeps the timestamps as ISO text with the session's offset; Date reads them back as the drivers do.
const history = sql<Json<{ state: TransferState; transitionedAt: string; reasonCode: string }[]>>`coalesce((
  select json_agg(json_build_object('state', h.state, 'transitionedAt', h.transitioned_at, 'reasonCode', h.reason_code) order by h.seq)
  from ${transferStateHistory} h where h.transfer_id = ${transfers.id}), '[]'::json)`;
const session = sql<Json<{ id: string; expiresAt: string }>>`case when ${transfers.state} = 'funding' then (
  select json_build_object('id', s.id, 'expiresAt', s.expires_at) from ${fundingSessions} s
  where s.transfer_id = ${transfers.id} and s.state = 'OPEN' order by s.created_at desc limit 1) end`;

// By OrgnlEndToEndId (= transferId) and status: the unique index of payment_status_records.
const rejection = sql<Json<{ isoReasonCode: string | null }>>`case when ${transfers.state} in ('rejected', 'canceled') then (
  select json_build_object('isoReasonCode', p.reason_code) from ${paymentStatusRecords} p
  where p.end_to_end_id = ${transfers.id} and p.status = 'RJCT' order by p.attempt desc limit 1) end`;

// The latest payout attempt, when the bank (or, routed, a payout provider) rejected it and it waits for a repair.
const payoutRepair = sql<
  Json<{ isoReasonCode: string | null; rejectedAt: string }>
>`case when ${transfers.state} in ('funded', 'topay', 'reqpay', 'spended') then coalesce((
  select json_build_object('isoReasonCode', i.reason_code, 'rejectedAt', i.state_changed_at) from ${payoutFileItems} i
  where i.transfer_id = ${transfers.id} and i.state = 'REJECTED' order by i.attempt desc limit 1), (
  select json_build_object('isoReasonCode', a.outcome_code, 'rejectedAt', a.state_changed_at) from ${payoutProviderAttempts} a
  where a.transfer_id = ${transfers.id} and a.state = 'REJECTED' order by a.seq desc limit 1)) end`;

const refund = sql<Json<{ state: RefundStatus; estimatedCompletionBy: string; refundMethod: "ORIGINAL_PAYMENT_METHOD"; amount: string | null }>>`(
  select json_build_object('state', r.state, 'estimatedCompletionBy', r.estimated_completion_by, 'refundMethod', r.refund_method, 'amount', r.amount)
  from ${refunds} r where r.transfer_id = ${transfers.id})`;
const networkCancellation = sql<
  Json<{ state: NetworkCancellationView["state"]; expectedBy: string; resolvedAt: string | null }>
>`case when ${transfers.cancellation} is not null then (
  select json_build_object('state', n.state, 'expectedBy', n.expected_by, 'resolvedAt', n.resolved_at) from ${networkCancellations} n
  where n.transfer_id = ${transfers.id} order by n.created_at desc, n.id desc limit 1) end`;

// The read's columns, also joined to its caller's statement (transferDetailWithCaller).
const detailFields = {
  row: getTableColumns(transfers),
  payoutMethod: getTableColumns(payoutMethods),
  history,
  session,
  rejection,
  refund,
  networkCancellation,
  payoutRepair,
};

const build = (e: Executor) =>
  e
    .select(detailFields)
    .from(transfers)
    .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .where(and(eq(transfers.id, sql.placeholder("transferId")), eq(transfers.subscriptionId, sql.placeholder("subscriptionId"))))
    .prepare("transfer_with_detail");

type Found = Awaited<ReturnType<ReturnType<typeof build>["execute"]>>[number];

/**
 * The transfer, its payout method, its state history, its open funding session, a payout
 * bank's rejection, its refund and its latest network cancellation in ONE
 * statement: one snapshot, so a read outside a transaction never serves a state its
 * history does not end with (or the reverse), and one round trip instead of three.
 */
export async function transferWithDetail(db: Executor, subscriptionId: string, transferId: string): Promise<TransferWithDetail> {
  const [found] = await prepared(db, "transfer_with_detail", build).execute({ transferId, subscriptionId });
  return detailOf(found);
}

/**
 * The transfer the path names, by its primary key alone, for a join to the caller. Its
 * LIMIT keeps PostgreSQL from merging the subquery into the join, so it is planned on its own:
 * a probe of transfers_pkey. Joined directly (ON id and subscription), PostgreSQL reached it
 * through transfers_subscription_idx (a parameterized scan on the caller's subscription, filtered
 * on id) in the generic plan of the prepared statement and in custom ones alike, on a database of
 * many customers of few transfers each: a customer with 5,000 transfers read 295 pages for one
 * (test/unit/db/read-plans.test.ts). Named like the table, so the read's columns (detailFields)
 * are this subquery's.
 */
const transferById = new QueryBuilder()
  .select()
  .from(transfers)
  .where(eq(transfers.id, sql.placeholder("transferId")))
  .limit(1)
  .as("transfers");

/**
 * The same read in its caller's statement: the transfer keyed by the path's id, then
 * checked against the token's subscription, so another customer's transfer is not found, as above.
 */
export const transferDetailWithCaller: ReadWithCaller<{ params: { transferId: string } }, TransferWithDetail> = {
  name: "transfer_with_detail",
  fields: detailFields,
  join: (query, caller) =>
    query
      .leftJoin(transferById, eq(transferById.subscriptionId, caller.subscriptionId))
      .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
      .limit(1),
  values: ({ params }) => ({ transferId: params.transferId }),
  // Without a transfer its nullable join answers row: null.
  answer: ([found]) => detailOf(found?.row ? (found as unknown as Found) : undefined),
};

function detailOf(found: Found | undefined): TransferWithDetail {
  if (!found) throw notFound("transfer");
  const s = parsed(found.session);
  const r = parsed(found.refund);
  const n = parsed(found.networkCancellation);
  const p = parsed(found.payoutRepair);
  return {
    row: found.row,
    payoutMethod: found.payoutMethod,
    history: (parsed(found.history) ?? []).map((h) => ({ ...h, transitionedAt: new Date(h.transitionedAt) })),
    session: s ? { id: s.id, expiresAt: new Date(s.expiresAt) } : null,
    rejection: parsed(found.rejection),
    refund: r ? { ...r, estimatedCompletionBy: new Date(r.estimatedCompletionBy) } : null,
    networkCancellation: n ? { state: n.state, expectedBy: new Date(n.expectedBy), resolvedAt: n.resolvedAt ? new Date(n.resolvedAt) : null } : null,
    payoutRepair: p ? { isoReasonCode: p.isoReasonCode, rejectedAt: new Date(p.rejectedAt) } : null,
  };
}
