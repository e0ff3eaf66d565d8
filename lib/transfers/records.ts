import { and, eq, sql, type SQLWrapper } from "drizzle-orm";
import { prepared } from "@/db/prepared";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { writeTogether } from "@/db/write-together";
import { transfers, transferStateHistory } from "@/db/schema";
import { DomainError } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
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

/** Writes the history row and the event (one statement); answers the row's id (the ledger entry's source). */
async function recordState(
  tx: Tx,
  row: { id: string; subscriptionId: string },
  from: TransferState | null,
  to: TransferState,
  reasonCode: string,
  now: Date,
  alongside: SQLWrapper[],
) {
  const id = newId("tsh");
  const history = tx.insert(transferStateHistory).values({
    id,
    transferId: row.id,
    seq: sql`(select coalesce(max(${transferStateHistory.seq}), 0) + 1 from ${transferStateHistory} where ${transferStateHistory.transferId} = ${row.id})`,
    state: to,
    reasonCode,
    transitionedAt: now,
  });
  await emitEvent(
    tx,
    {
      subscriptionId: row.subscriptionId,
      eventType: "transfer.state.changed",
      data: { transferId: row.id, state: to, previousState: from, reasonCode },
      now,
    },
    [history, ...alongside],
  );
  return id;
}

/** Creates the transfer in registered (quote acceptance, spec 3.1 first row). */
export async function insertRegisteredTransfer(
  tx: Tx,
  values: Omit<typeof transfers.$inferInsert, "id" | "state" | "stateChangedAt">,
  now: Date,
  alongside: (transferId: string) => SQLWrapper[] = () => [],
): Promise<TransferRow> {
  const step = transferMachine.next("none", "quote.accepted");
  const [row] = await tx
    .insert(transfers)
    .values({ ...values, id: newId("trf"), state: step.to, stateChangedAt: now })
    .returning();
  await recordState(tx, row, null, step.to, step.reasonCode ?? "TRF_INITIATION_QUOTE_ACCEPTED", now, alongside(row.id));
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
  alongside: SQLWrapper[] = [],
): Promise<TransferRow> {
  const from = row.state;
  const step = transferMachine.next(from, trigger, { prior: row.priorState ?? undefined });
  const entering = step.changed && step.to === "spended";
  const leaving = step.changed && from === "spended";
  const [updated] = await tx
    .update(transfers)
    .set({
      ...set,
      state: step.to,
      ...(step.changed ? { stateChangedAt: now } : {}),
      ...(entering ? { priorState: from } : leaving ? { priorState: null } : {}),
    })
    .where(eq(transfers.id, row.id))
    .returning();
  if (step.changed) {
    const historyId = await recordState(tx, row, from, step.to, step.reasonCode ?? trigger, now, alongside);
    // Out of spended, the money is where the prior state left it.
    const moneyFrom = from === "spended" ? (row.priorState ?? from) : from;
    await postTransition(tx, { transfer: updated, trigger, from: moneyFrom, to: step.to, historyId, now });
  } else if (alongside.length > 0) await writeTogether(tx, alongside);
  return updated;
}
