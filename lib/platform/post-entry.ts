import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Tx } from "@/db";
import { writeTogether } from "@/db/write-together";
import type { DomainError } from "./errors";

/**
 * A journal entry's statements, in the order they are sent. The ledger builds them
 * (`postingStatements` in lib/finance/ledger/post.ts: the lines checked and balanced); the
 * platform sends them, because only the platform batches writes (docs/architecture.md, "Platform").
 */
export interface PostingStatements {
  /** The entry's id (when it is written). */
  entryId: string;
  /** The accounts of its lines, created on first use. */
  accounts: SQLWrapper;
  /** 1 when the entry's month is closed (read with the accounts' statement). */
  closed: SQL;
  /** Why a closed month refuses it (ledger.periodClosed). */
  periodClosed: () => DomainError;
  /** The entry, as a data-modifying CTE named `entry` (no row when its sourceKey was posted already). */
  entry: SQLWrapper;
  /** Its lines, inserted from `entry`: one row answered per line written. */
  lines: SQL;
}

/** An entry to post: its statements, built in the transaction that sends them (`posting` in lib/finance/ledger/post.ts). */
export type Posting = (tx: Tx) => PostingStatements;

/**
 * Sends one posting in the caller's transaction, in two round trips. A sourceKey already posted
 * answers { posted: false } and writes nothing; an entry dated in a closed month is refused. The
 * unit of work sends its `ledger.post` effects with it at commit; `postEntry`
 * (lib/finance/ledger/post.ts) sends one at once.
 */
export async function sendPosting(tx: Tx, build: Posting): Promise<{ posted: boolean; entryId?: string }> {
  const posting = build(tx);
  // The accounts, and whether the month is closed: a refused entry rolls its unit back, its
  // accounts with it.
  const [{ closed }] = await writeTogether<{ closed: number | string }>(tx, [posting.accounts], sql`select (${posting.closed})::int as closed`);
  if (Number(closed) === 1) throw posting.periodClosed();
  // The entry and its lines, written only when the entry is (a sourceKey already posted writes nothing).
  const written = await writeTogether(tx, [{ name: "entry", write: posting.entry }], posting.lines);
  if (written.length === 0) return { posted: false };
  return { posted: true, entryId: posting.entryId };
}
