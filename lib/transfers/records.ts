import { and, eq, sql, type SQLWrapper } from "drizzle-orm";
import { prepared } from "@/db/prepared";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { transfers, transferStateHistory } from "@/db/schema";
import { DomainError } from "@/lib/errors";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { postTransition } from "./postings";
import { transferMachine, type TransferState, type TransferTrigger } from "./state-machine";

export type TransferRow = typeof transfers.$inferSelect;

const notFound = () => new DomainError("transfer.notFound", { message: "No such transfer." });

/** A transfer of the calling subscription, optionally locked; another customer's is a 404 (spec 7). */
export async function transferInScope(db: Executor, subscriptionId: string, transferId: string, lock = false): Promise<TransferRow> {
  const q = (e: Executor) =>
    e
      .select()
      .from(transfers)
      .where(and(eq(transfers.id, sql.placeholder("transferId")), eq(transfers.subscriptionId, sql.placeholder("subscriptionId"))));
  const query = lock ? q(db).for("update").prepare("transfer_in_scope_locked") : prepared(db, "transfer_in_scope", (e) => q(e).prepare("transfer_in_scope"));
  const [row] = await query.execute({ transferId, subscriptionId });
  if (!row) throw notFound();
  return row;
}

export async function lockTransfer(tx: Tx, transferId: string): Promise<TransferRow | undefined> {
  const [row] = await tx.select().from(transfers).where(eq(transfers.id, transferId)).for("update");
  return row;
}

/** The history row of a state change, not yet run; historyId is the ledger entry's source. */
function historyInsert(tx: Tx, transferId: string, to: TransferState, reasonCode: string, now: Date, seq?: number) {
  const historyId = newId("tsh");
  const insert = tx.insert(transferStateHistory).values({
    id: historyId,
    transferId,
    seq:
      seq ??
      sql`(select coalesce(max(${transferStateHistory.seq}), 0) + 1 from ${transferStateHistory} where ${transferStateHistory.transferId} = ${transferId})`,
    state: to,
    reasonCode,
    transitionedAt: now,
  });
  return { historyId, insert };
}

/** The transfer.state.changed event of a state change (written with the unit's other effects). */
function emitStateChanged(
  tx: Tx,
  row: { id: string; subscriptionId: string },
  from: TransferState | null,
  to: TransferState,
  reasonCode: string,
  now: Date,
  extra: Record<string, unknown> = {},
) {
  return effectsOf(tx).events.emit({
    subscriptionId: row.subscriptionId,
    eventType: "transfer.state.changed",
    data: { transferId: row.id, state: to, previousState: from, reasonCode, ...extra },
    now,
  });
}

/** Creates the transfer in registered (quote acceptance, spec 3.1 first row); its first history row is written at commit. */
export async function insertRegisteredTransfer(
  tx: Tx,
  values: Omit<typeof transfers.$inferInsert, "id" | "state" | "stateChangedAt">,
  now: Date,
): Promise<TransferRow> {
  const step = transferMachine.next("none", "quote.accepted");
  const [row] = await tx
    .insert(transfers)
    .values({ ...values, id: newId("trf"), state: step.to, stateChangedAt: now })
    .returning();
  const reasonCode = step.reasonCode ?? "TRF_INITIATION_QUOTE_ACCEPTED";
  await effectsOf(tx).atCommit(historyInsert(tx, row.id, step.to, reasonCode, now, 1).insert);
  await emitStateChanged(tx, row, null, step.to, reasonCode, now);
  return row;
}

/**
 * The one way a transfer changes state. The row must be locked (FOR UPDATE) by the caller; the
 * transition table decides (or refuses with transfer.stateInvalid); the new state and its history
 * entry (one statement), the transfer.state.changed event and the ledger entry of a money-moving
 * change (postings.ts) commit with the caller's unit of work. `atCommit` writes are the caller's,
 * sent with the unit's effects.
 */
export async function transitionTransfer(
  tx: Tx,
  row: TransferRow,
  trigger: TransferTrigger,
  now: Date,
  set: Partial<TransferRow> = {},
  atCommit: SQLWrapper[] = [],
  /** Fields the transfer.state.changed event carries beyond the state (a payout rejection's reason). */
  eventData: Record<string, unknown> = {},
): Promise<TransferRow> {
  const from = row.state;
  const step = transferMachine.next(from, trigger, { prior: row.priorState ?? undefined });
  const entering = step.changed && step.to === "spended";
  const leaving = step.changed && from === "spended";
  const values = {
    ...set,
    state: step.to,
    ...(step.changed ? { stateChangedAt: now } : {}),
    ...(entering ? { priorState: from } : leaving ? { priorState: null } : {}),
  };
  if (atCommit.length > 0) await effectsOf(tx).atCommit(...atCommit);
  if (!step.changed) {
    const [same] = await tx.update(transfers).set(values).where(eq(transfers.id, row.id)).returning();
    return same;
  }
  // One statement: the row and its history entry (the machine's own write).
  const reasonCode = step.reasonCode ?? trigger;
  const history = historyInsert(tx, row.id, step.to, reasonCode, now);
  const [updated] = await tx
    .with(tx.$with("history", {}).as(history.insert.getSQL()))
    .update(transfers)
    .set(values)
    .where(eq(transfers.id, row.id))
    .returning();
  if (!updated) throw new Error(`transitionTransfer: transfer ${row.id} not found`);
  await emitStateChanged(tx, row, from, step.to, reasonCode, now, eventData);
  // Out of spended, the money is where the prior state left it.
  const moneyFrom = from === "spended" ? (row.priorState ?? from) : from;
  await postTransition(tx, { transfer: updated, trigger, from: moneyFrom, to: step.to, historyId: history.historyId, now });
  return updated;
}
