import { and, eq, sql } from "drizzle-orm";
import { prepared } from "@/db/prepared";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { withWrites, writeTogether, type Write } from "@/db/write-together";
import { transfers, transferStateHistory } from "@/db/schema";
import { DomainError } from "@/lib/errors";
import { EVENT_ROW, eventWrites } from "@/lib/events/emit";
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

/** The history row and the event of a state change, not yet run; historyId is the ledger entry's source. */
function stateWrites(
  tx: Tx,
  row: { id: string; subscriptionId: string },
  from: TransferState | null,
  to: TransferState,
  reasonCode: string,
  now: Date,
  extra: Record<string, unknown> = {},
) {
  const historyId = newId("tsh");
  const history = tx.insert(transferStateHistory).values({
    id: historyId,
    transferId: row.id,
    seq: sql`(select coalesce(max(${transferStateHistory.seq}), 0) + 1 from ${transferStateHistory} where ${transferStateHistory.transferId} = ${row.id})`,
    state: to,
    reasonCode,
    transitionedAt: now,
  });
  const event = eventWrites(tx, {
    subscriptionId: row.subscriptionId,
    eventType: "transfer.state.changed",
    data: { transferId: row.id, state: to, previousState: from, reasonCode, ...extra },
    now,
  });
  return { historyId, writes: [history, ...event.writes], written: event.written };
}

/** Creates the transfer in registered (quote acceptance, spec 3.1 first row). */
export async function insertRegisteredTransfer(
  tx: Tx,
  values: Omit<typeof transfers.$inferInsert, "id" | "state" | "stateChangedAt">,
  now: Date,
  alongside: (transferId: string) => Write[] = () => [],
): Promise<TransferRow> {
  const step = transferMachine.next("none", "quote.accepted");
  const [row] = await tx
    .insert(transfers)
    .values({ ...values, id: newId("trf"), state: step.to, stateChangedAt: now })
    .returning();
  const state = stateWrites(tx, row, null, step.to, step.reasonCode ?? "TRF_INITIATION_QUOTE_ACCEPTED", now);
  const [event] = await writeTogether(tx, [...state.writes, ...alongside(row.id)], sql`select 1 from ${sql.identifier(EVENT_ROW)}`);
  if (!event) throw new Error(`unknown subscription ${row.subscriptionId}`);
  await state.written();
  return row;
}

/**
 * The one way a transfer changes state. The row must be locked (FOR UPDATE) by the caller; the
 * transition table decides (or refuses with transfer.stateInvalid); the new state, its history
 * entry, the transfer.state.changed event and the ledger entry of a money-moving change
 * (postings.ts) commit with the caller's transaction. The caller's `alongside` writes (independent
 * of these: db/write-together.ts) are sent in the same statement as the history row and event.
 */
export async function transitionTransfer(
  tx: Tx,
  row: TransferRow,
  trigger: TransferTrigger,
  now: Date,
  set: Partial<TransferRow> = {},
  alongside: Write[] = [],
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
  if (!step.changed) {
    const [same] = await tx.update(transfers).set(values).where(eq(transfers.id, row.id)).returning();
    if (alongside.length > 0) await writeTogether(tx, alongside);
    return same;
  }
  // One statement: the row, its history entry, the event with its delivery, the caller's writes.
  const state = stateWrites(tx, row, from, step.to, step.reasonCode ?? trigger, now, eventData);
  const [updated] = await withWrites(tx, [...state.writes, ...alongside])
    .update(transfers)
    .set(values)
    .where(and(eq(transfers.id, row.id), sql`exists (select 1 from ${sql.identifier(EVENT_ROW)})`))
    .returning();
  if (!updated) throw new Error(`transitionTransfer: transfer ${row.id} or its subscription not found`);
  await state.written();
  // Out of spended, the money is where the prior state left it.
  const moneyFrom = from === "spended" ? (row.priorState ?? from) : from;
  await postTransition(tx, { transfer: updated, trigger, from: moneyFrom, to: step.to, historyId: state.historyId, now });
  return updated;
}
