import { and, desc, eq, exists, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { preparedOn } from "@/db/prepared";
import { newId } from "@/db/ids";
import { networkCancellations, networkCancellationStateHistory, transfers } from "@/db/schema";
import { NETWORK_CANCELLATION_OUTCOME, networkCancellationMachine, type NetworkCancellationTrigger } from "./network-cancellation-state-machine";
import type { CancellationRecord } from "./details";

export type NetworkCancellationRow = typeof networkCancellations.$inferSelect;

/**
 * The one module that writes network_cancellations.state: a request is created
 * and answered through networkCancellationMachine, each move with its history row. The transfer's
 * own moves (paid, canceled, unchanged) stay with transitionTransfer in network.ts.
 */

async function recordHistory(tx: Tx, row: NetworkCancellationRow, trigger: NetworkCancellationTrigger, now: Date): Promise<void> {
  const h = networkCancellationStateHistory;
  await tx.insert(h).values({
    id: newId("nch"),
    networkCancellationId: row.id,
    seq: sql`(select coalesce(max(${h.seq}), 0) + 1 from ${h} where ${h.networkCancellationId} = ${row.id})`,
    state: row.state,
    trigger,
    transitionedAt: now,
  });
}

/** A new request to the network (PENDING). The transfer must be locked by the caller. */
export async function requestNetworkCancellation(tx: Tx, transferId: string, now: Date, expectedBy: Date): Promise<NetworkCancellationRow> {
  const step = networkCancellationMachine.next("none", "customer.requested");
  const [row] = await tx
    .insert(networkCancellations)
    .values({ id: newId("ncx"), transferId, state: step.to, requestedAt: now, expectedBy, createdAt: now })
    .returning();
  await recordHistory(tx, row, step.trigger, now);
  return row;
}

/** The transfer's pending request, locked; undefined when none is pending. */
export async function pendingNetworkCancellation(tx: Tx, transferId: string): Promise<NetworkCancellationRow | undefined> {
  const [row] = await preparedOn(tx, "network_cancellation_pending_locked", (e) =>
    e
      .select()
      .from(networkCancellations)
      .where(and(eq(networkCancellations.transferId, sql.placeholder("transferId")), eq(networkCancellations.state, "PENDING")))
      .for("update")
      .prepare("network_cancellation_pending_locked"),
  ).execute({ transferId });
  return row;
}

/**
 * pendingNetworkCancellation for a transfer of `subscriptionId` only (none for another's), so a
 * caller can send it behind the statement that locks the transfer, in the same round trip
 * (cancel): it starts once that lock is held, and locks nothing of a transfer out of scope.
 */
export async function pendingNetworkCancellationInScope(tx: Tx, subscriptionId: string, transferId: string): Promise<NetworkCancellationRow | undefined> {
  const [row] = await preparedOn(tx, "network_cancellation_pending_in_scope_locked", (e) => {
    const id = sql.placeholder("transferId");
    const inScope = e
      .select({ one: sql`1` })
      .from(transfers)
      .where(and(eq(transfers.id, id), eq(transfers.subscriptionId, sql.placeholder("subscriptionId"))));
    return e
      .select()
      .from(networkCancellations)
      .where(and(eq(networkCancellations.transferId, id), eq(networkCancellations.state, "PENDING"), exists(inScope)))
      .for("update")
      .prepare("network_cancellation_pending_in_scope_locked");
  }).execute({ transferId, subscriptionId });
  return row;
}

/** The network's answer: the machine moves the request (or refuses with transfer.stateInvalid). */
export async function answerNetworkCancellation(
  tx: Tx,
  row: NetworkCancellationRow,
  trigger: NetworkCancellationTrigger,
  now: Date,
): Promise<NetworkCancellationRow> {
  const step = networkCancellationMachine.next(row.state, trigger);
  const [moved] = await tx.update(networkCancellations).set({ state: step.to, resolvedAt: now }).where(eq(networkCancellations.id, row.id)).returning();
  await recordHistory(tx, moved, trigger, now);
  return moved;
}

/** The transfer's latest request (the one its cancellation detail shows), or undefined. */
export async function latestNetworkCancellation(db: Executor, transferId: string): Promise<NetworkCancellationRow | undefined> {
  const [row] = await db
    .select()
    .from(networkCancellations)
    .where(eq(networkCancellations.transferId, transferId))
    .orderBy(desc(networkCancellations.createdAt), desc(networkCancellations.id))
    .limit(1);
  return row;
}

/** What a network cancellation shows of itself in the transfer's cancellation detail. */
export interface NetworkCancellationView {
  state: NetworkCancellationRow["state"];
  expectedBy: Date;
  resolvedAt: Date | null;
}

/**
 * CancellationDetail (spec 2.8) from the transfer's record and, when the cancellation went to the
 * network, the latest request's state: the outcome, and canceledAt once the network cancelled.
 */
export function cancellationView(record: CancellationRecord | null, network: NetworkCancellationView | null) {
  if (!record) return null;
  if (record.cancellationOutcome || !network) {
    return {
      cancellationOutcome: record.cancellationOutcome,
      cancellationReason: record.cancellationReason,
      cancelRequestedAt: record.cancelRequestedAt,
      canceledAt: record.canceledAt ?? null,
    };
  }
  return {
    cancellationOutcome: NETWORK_CANCELLATION_OUTCOME[network.state],
    cancellationReason: record.cancellationReason,
    cancelRequestedAt: record.cancelRequestedAt,
    canceledAt: network.state === "SUCCEEDED" && network.resolvedAt ? network.resolvedAt.toISOString() : null,
    networkCancellationExpectedBy: network.expectedBy.toISOString(),
  };
}
