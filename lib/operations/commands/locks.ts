/**
 * The rows a command changes, locked by the runner before the command runs, always in one order
 * (docs/architecture.md, "Lock order"): two commands that touch the same rows wait for each other
 * instead of deadlocking. A command names the rows (`locks(input)`), the runner takes them here.
 */
import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { beneficiaries } from "@/db/schema";
import { type BeneficiaryRow, lockTransfer, type TransferRow } from "@/lib/payments";
import { notFound } from "@/lib/platform/errors";
import { lockCase, type ScreeningCaseRow } from "@/lib/compliance";

interface Rows {
  screeningCase: ScreeningCaseRow;
  transfer: TransferRow;
  beneficiary: BeneficiaryRow;
}

/** The order every command takes its rows in: a case before the transfers it holds, a transfer before its parties. */
export const LOCK_ORDER = ["screeningCase", "transfer", "beneficiary"] as const satisfies readonly (keyof Rows)[];

/** The rows a command locks, by kind: their ids. */
export type LockRequest = Partial<Record<keyof Rows, string>>;
/** The locked rows `run` gets, by the kinds it asked for. */
export type LockedRows<L extends LockRequest> = { [K in keyof L & keyof Rows]: Rows[K] };

const lockers: { [K in keyof Rows]: (tx: Tx, id: string) => Promise<Rows[K]> } = {
  screeningCase: lockCase,
  transfer: async (tx, id) => {
    const row = await lockTransfer(tx, id);
    if (!row) throw notFound("transfer");
    return row;
  },
  beneficiary: async (tx, id) => {
    const [row] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, id)).for("update");
    if (!row) throw notFound("beneficiary");
    return row;
  },
};

/** Locks the requested rows FOR UPDATE in LOCK_ORDER; a missing one is a 404 (nothing runs). */
export async function lockInOrder<L extends LockRequest>(tx: Tx, request: L): Promise<LockedRows<L>> {
  const locked: Partial<Record<keyof Rows, unknown>> = {};
  for (const kind of LOCK_ORDER) {
    const id = request[kind];
    if (id !== undefined) locked[kind] = await lockers[kind](tx, id);
  }
  return locked as LockedRows<L>;
}
