import { and, eq, getTableColumns, sql, type SQLWrapper } from "drizzle-orm";
import { placeholdersFor, prepared, preparedOn } from "@/db/prepared";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { transfers, transferStateHistory } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { postTransition } from "./postings";
import { transferMachine, type TransferState, type TransferTrigger } from "./state-machine";

export type TransferRow = typeof transfers.$inferSelect;

export const transferNotFound = () => new DomainError("transfer.notFound", { message: "No such transfer." });

/** A transfer of the calling subscription, optionally locked; another customer's is a 404 (spec 7). */
export async function transferInScope(db: Executor, subscriptionId: string, transferId: string, lock = false): Promise<TransferRow> {
  const q = (e: Executor) =>
    e
      .select()
      .from(transfers)
      .where(and(eq(transfers.id, sql.placeholder("transferId")), eq(transfers.subscriptionId, sql.placeholder("subscriptionId"))));
  const query = lock
    ? preparedOn(db, "transfer_in_scope_locked", (e) => q(e).for("update").prepare("transfer_in_scope_locked"))
    : prepared(db, "transfer_in_scope", (e) => q(e).prepare("transfer_in_scope"));
  const [row] = await query.execute({ transferId, subscriptionId });
  if (!row) throw transferNotFound();
  return row;
}

export async function lockTransfer(tx: Tx, transferId: string): Promise<TransferRow | undefined> {
  const [row] = await preparedOn(tx, "transfer_locked", (e) =>
    e
      .select()
      .from(transfers)
      .where(eq(transfers.id, sql.placeholder("transferId")))
      .for("update")
      .prepare("transfer_locked"),
  ).execute({ transferId });
  return row;
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

/**
 * The machine's write: the transfer's new columns and, in the same statement, its history entry
 * numbered after the last. Prepared per process for each set of columns changed.
 */
async function updateWithHistory(
  tx: Tx,
  transferId: string,
  values: Partial<TransferRow>,
  history: { historyId: string; state: TransferState; reasonCode: string; now: Date },
): Promise<TransferRow | undefined> {
  const { shape, set } = placeholdersFor(values);
  const name = `transfer_transition:${shape}`;
  const [row] = await preparedOn(tx, name, (e) => {
    const id = sql.placeholder("history.transferId");
    const insert = e.insert(transferStateHistory).values({
      id: sql.placeholder("history.id"),
      transferId: id,
      seq: sql`(select coalesce(max(${transferStateHistory.seq}), 0) + 1 from ${transferStateHistory} where ${transferStateHistory.transferId} = ${id})`,
      state: sql.placeholder("history.state"),
      reasonCode: sql.placeholder("history.reasonCode"),
      transitionedAt: sql.placeholder("history.transitionedAt"),
    });
    return e.with(e.$with("history", {}).as(insert.getSQL())).update(transfers).set(set).where(eq(transfers.id, id)).returning().prepare(name);
  }).execute({
    ...values,
    "history.id": history.historyId,
    "history.transferId": transferId,
    "history.state": history.state,
    "history.reasonCode": history.reasonCode,
    "history.transitionedAt": history.now,
  });
  return row;
}

// Every column of a transfer, null: what a new row holds where its insert gives no value (no
// column of transfers has a database default, so the row is known without reading it back).
const NO_VALUES = Object.fromEntries(Object.keys(getTableColumns(transfers)).map((key) => [key, null]));

/**
 * Creates the transfer in registered (quote acceptance, spec 3.1 first row) and answers its row.
 * The insert and its first history entry are written at commit (nothing in the unit
 * reads the row back, so it costs no statement of its own); outside a unit, at once.
 */
export async function insertRegisteredTransfer(
  tx: Tx,
  values: Omit<typeof transfers.$inferInsert, "id" | "state" | "stateChangedAt">,
  now: Date,
): Promise<TransferRow> {
  const step = transferMachine.next("none", "quote.accepted");
  const inserted = { ...values, id: newId("trf"), state: step.to, stateChangedAt: now };
  const given = Object.entries(inserted).filter(([, value]) => value !== undefined);
  const row = { ...NO_VALUES, ...Object.fromEntries(given) } as TransferRow;
  const reasonCode = step.reasonCode ?? "TRF_INITIATION_QUOTE_ACCEPTED";
  // The row and its first history entry (seq 1): the history's foreign key is checked at the end
  // of the statement they share.
  await effectsOf(tx).atCommit(
    tx.insert(transfers).values(inserted),
    tx.insert(transferStateHistory).values({ id: newId("tsh"), transferId: row.id, seq: 1, state: step.to, reasonCode, transitionedAt: now }),
  );
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
  const historyId = newId("tsh");
  const updated = await updateWithHistory(tx, row.id, values, { historyId, state: step.to, reasonCode, now });
  if (!updated) throw new Error(`transitionTransfer: transfer ${row.id} not found`);
  await emitStateChanged(tx, row, from, step.to, reasonCode, now, eventData);
  // Out of spended, the money is where the prior state left it.
  const moneyFrom = from === "spended" ? (row.priorState ?? from) : from;
  await postTransition(tx, { transfer: updated, trigger, from: moneyFrom, to: step.to, historyId, now });
  return updated;
}
