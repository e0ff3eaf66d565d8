import { and, asc, desc, eq, gte, inArray, lt, lte, notInArray, or, type SQL } from "drizzle-orm";
import type { Executor, InTransaction, Tx } from "@/db";
import { transfers } from "@/db/schema";
import { addSeconds } from "@/lib/clock";
import { config } from "@/lib/config";
import { randomToken } from "@/lib/crypto/hash";
import { decodeCursor, encodeCursor, invalidCursor } from "@/lib/pagination/cursor";
import { serviceSecret } from "@/lib/platform/secrets";
import { expireIfOverdue, isOverdue } from "./deadline";
import { lockTransfer, transferInScope } from "./records";
import { PRE_FUNDING_ACTIVE, TERMINAL, type TransferState } from "./state-machine";
import { transferDetail, transferSummary } from "./view";

/**
 * GET /v1/core/transfers/{id}. A read may expire an overdue transfer, and in validated it issues a
 * fresh confirmationChallenge that replaces the previous one (spec 4.1 rule 8): those two cases
 * lock the row and write in one unit of work; every other read is plain selects (issue 13: reads
 * before it writes).
 */
export async function readTransfer(db: Executor, write: InTransaction, input: { subscriptionId: string; transferId: string; now: Date }) {
  const row = await transferInScope(db, input.subscriptionId, input.transferId);
  if (row.state !== "validated" && !isOverdue(row, input.now)) return transferDetail(db, row);
  return write((tx) => readTransferLocked(tx, input));
}

async function readTransferLocked(tx: Tx, input: { subscriptionId: string; transferId: string; now: Date }) {
  let row = await expireIfOverdue(tx, await transferInScope(tx, input.subscriptionId, input.transferId, true), input.now);
  if (row.state === "validated") {
    [row] = await tx
      .update(transfers)
      .set({ challenge: randomToken(24), challengeExpiresAt: addSeconds(input.now, config().CHALLENGE_TTL_SECONDS) })
      .where(eq(transfers.id, row.id))
      .returning();
  }
  return transferDetail(tx, row);
}

interface Cursor {
  c: number;
  i: string;
  s: string;
}

/**
 * GET /v1/core/transfers (spec 4.1 rule 7): summaries, newest first; default states are every
 * non-terminal state plus terminal ones changed in the last 30 days.
 */
export async function listTransfers(
  tx: Executor,
  write: InTransaction,
  input: { subscriptionId: string; states?: readonly TransferState[]; createdSince?: Date; limit: number; cursor?: string; now: Date },
) {
  const secret = await serviceSecret(tx, "cursor");
  // Like the detail read (./deadline.ts): a pre-funding transfer past its 120 minutes is expired
  // now, so neither its listed state nor the states filter depends on when the timer job runs.
  const overdue = await tx
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(eq(transfers.subscriptionId, input.subscriptionId), inArray(transfers.state, [...PRE_FUNDING_ACTIVE]), lte(transfers.expiresAt, input.now)))
    .orderBy(asc(transfers.id));
  if (overdue.length > 0) {
    await write(async (locked) => {
      for (const { id } of overdue) {
        const row = await lockTransfer(locked, id);
        if (row) await expireIfOverdue(locked, row, input.now);
      }
    });
  }
  const conditions: SQL[] = [eq(transfers.subscriptionId, input.subscriptionId)];
  if (input.states) conditions.push(inArray(transfers.state, input.states));
  else {
    conditions.push(or(notInArray(transfers.state, [...TERMINAL]), gte(transfers.stateChangedAt, addSeconds(input.now, -30 * 86400)))!);
  }
  if (input.createdSince) conditions.push(gte(transfers.createdAt, input.createdSince));
  if (input.cursor) {
    const c = decodeCursor<Cursor>(secret, input.cursor);
    if (c.s !== input.subscriptionId) throw invalidCursor();
    conditions.push(or(lt(transfers.createdAt, new Date(c.c)), and(eq(transfers.createdAt, new Date(c.c)), lt(transfers.id, c.i)))!);
  }
  const rows = await tx
    .select()
    .from(transfers)
    .where(and(...conditions))
    .orderBy(desc(transfers.createdAt), desc(transfers.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(transferSummary),
    nextCursor:
      rows.length > input.limit && last ? encodeCursor(secret, { c: last.createdAt.getTime(), i: last.id, s: input.subscriptionId } satisfies Cursor) : null,
  };
}
