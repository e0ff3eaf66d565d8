/**
 * A proposed manual journal and its `ledger.journal.post` proposal move together:
 * discarding the journal declines its proposal in the same transaction (the decline's
 * hook, lib/operations/commands/finance.ts, discards the journal), so the Approvals page never lists a
 * journal that can no longer be posted; declining the proposal discards the journal.
 */
import type { Tx } from "@/db";
import { discardJournal, lockJournal, type ManualJournalRow } from "@/lib/finance";
import type { Operator } from "@/lib/platform/audit";
import { declineOpenFor } from "./proposals";

export async function withdrawJournal(tx: Tx, input: { id: string; operator: Operator; now: Date }): Promise<ManualJournalRow> {
  // The proposal first, then the journal: the order a decline on the Approvals page locks them in.
  const declined = await declineOpenFor(
    tx,
    "ledger.journal.post",
    { type: "manualJournal", id: input.id },
    { operator: input.operator, reason: "journal discarded", now: input.now },
  );
  if (declined) return lockJournal(tx, input.id);
  // Without a waiting proposal (or when it lapsed), the journal is discarded here; a posted one is refused.
  return discardJournal(tx, input);
}
