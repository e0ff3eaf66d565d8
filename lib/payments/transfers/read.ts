import { eq } from "drizzle-orm";
import type { Executor, InTransaction, Tx } from "@/db";
import { transfers } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { randomToken } from "@/lib/platform/crypto/hash";
import { expireIfOverdue, isOverdue } from "./deadline";
import { transferInScope } from "./records";
import { transferWithDetail, type TransferWithDetail } from "./detail-query";
import { transferDetailView } from "./view";

/**
 * GET /v1/core/transfers/{id}. A read may expire an overdue transfer, and in validated it issues a
 * fresh confirmationChallenge that replaces the previous one (spec 4.1 rule 8): those two cases
 * lock the row and write in one unit of work; every other read is plain selects (reads
 * before it writes).
 */
export async function readTransfer(
  db: Executor,
  write: InTransaction,
  input: { subscriptionId: string; transferId: string; now: Date },
  // Already read with the caller (detail-query.ts transferDetailWithCaller), when it was.
  read?: TransferWithDetail,
) {
  const found = read ?? (await transferWithDetail(db, input.subscriptionId, input.transferId));
  if (found.row.state !== "validated" && !isOverdue(found.row, input.now)) return transferDetailView(found, input.now);
  return write((tx) => readTransferLocked(tx, input));
}

async function readTransferLocked(tx: Tx, input: { subscriptionId: string; transferId: string; now: Date }) {
  const row = await expireIfOverdue(tx, await transferInScope(tx, input.subscriptionId, input.transferId, true), input.now);
  if (row.state === "validated") {
    await tx
      .update(transfers)
      .set({ challenge: randomToken(24), challengeExpiresAt: addSeconds(input.now, config().CHALLENGE_TTL_SECONDS) })
      .where(eq(transfers.id, row.id));
  }
  return transferDetailView(await transferWithDetail(tx, input.subscriptionId, input.transferId), input.now);
}
