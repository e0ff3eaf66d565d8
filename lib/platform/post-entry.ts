import { sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { writeTogether } from "@/db/write-together";
import { postingStatements, type PostEntryInput } from "@/lib/finance/ledger/post";

/**
 * Posts one balanced journal entry in the caller's transaction (the ledger's statements,
 * lib/finance/ledger/post.ts, written in two round trips). A sourceKey already posted answers
 * { posted: false } and writes nothing (a replayed job, a re-imported statement). An entry dated
 * in a closed month is refused (ledger.periodClosed; a trigger refuses it too). The unit of work
 * posts its `ledger.post` effects with it at commit.
 */
export async function postEntry(tx: Tx, input: PostEntryInput): Promise<{ posted: boolean; entryId?: string }> {
  const posting = postingStatements(tx, input);
  // The accounts, and whether the month is closed: a refused entry rolls its unit back, its
  // accounts with it.
  const [{ closed }] = await writeTogether<{ closed: number | string }>(tx, [posting.accounts], sql`select (${posting.closed})::int as closed`);
  if (Number(closed) === 1) throw posting.periodClosed();
  // The entry and its lines, written only when the entry is (a sourceKey already posted writes nothing).
  const written = await writeTogether(tx, [{ name: "entry", write: posting.entry }], posting.lines);
  if (written.length === 0) return { posted: false };
  return { posted: true, entryId: posting.entryId };
}
