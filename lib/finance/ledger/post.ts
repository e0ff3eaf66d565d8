import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { journalEntries, journalLines, ledgerAccounts } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { sendPosting, type Posting, type PostingStatements } from "@/lib/platform/post-entry";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { isPartnerAccount, isTransferAccount, type AccountCode } from "./accounts";
import { closedSql, periodOf } from "./periods";

export interface PostingLine {
  account: AccountCode;
  currency: string;
  /** The transfer of a transfer:* account (default: the entry's transferId); ignored for house accounts. */
  transferId?: string | null;
  /** The partner of a per-partner account (payable:partner-fees); ignored for the others. */
  partnerId?: string | null;
  /** Exactly one of debit and credit, in minor units (a zero line is dropped). */
  debit?: bigint;
  credit?: bigint;
}

export interface PostEntryInput {
  /** What caused the entry, unique: posting the same source again changes nothing. */
  sourceKey: string;
  kind: string;
  memo: string;
  transferId?: string | null;
  /** The transfer_state_history row the entry belongs to (transfer transitions). */
  transferStateHistoryId?: string | null;
  /** The bank's reference of the money movement, when there is one (the GL export's column). */
  reference?: string | null;
  lines: readonly PostingLine[];
  now: Date;
}

interface CheckedLine {
  account: AccountCode;
  currency: string;
  transferId: string | null;
  partnerId: string | null;
  debit: bigint;
  credit: bigint;
}

/**
 * The lines as posted: zero lines dropped, one side each, a transfer id exactly on the transfer
 * accounts, and debits equal to credits in every currency. Anything else is a programming error
 * (a wrong postings table), so it throws rather than answering a customer.
 */
export function checkLines(input: Pick<PostEntryInput, "lines" | "transferId" | "sourceKey">): CheckedLine[] {
  const sums = new Map<string, bigint>();
  const out: CheckedLine[] = [];
  for (const line of input.lines) {
    const debit = line.debit ?? 0n;
    const credit = line.credit ?? 0n;
    if (debit < 0n || credit < 0n || (debit > 0n && credit > 0n)) throw new Error(`ledger: ${input.sourceKey}: a line is negative or two-sided`);
    minorUnitExponent(line.currency);
    if (debit === 0n && credit === 0n) continue;
    const transferId = isTransferAccount(line.account) ? (line.transferId ?? input.transferId ?? null) : null;
    if (isTransferAccount(line.account) && !transferId) throw new Error(`ledger: ${input.sourceKey}: ${line.account} needs a transfer id`);
    const partnerId = isPartnerAccount(line.account) ? (line.partnerId ?? null) : null;
    if (isPartnerAccount(line.account) && !partnerId) throw new Error(`ledger: ${input.sourceKey}: ${line.account} needs a partner id`);
    sums.set(line.currency, (sums.get(line.currency) ?? 0n) + debit - credit);
    out.push({ account: line.account, currency: line.currency, transferId, partnerId, debit, credit });
  }
  if (out.length < 2) throw new Error(`ledger: ${input.sourceKey}: an entry needs two non-zero lines`);
  for (const [currency, sum] of sums) {
    if (sum !== 0n) throw new Error(`ledger: ${input.sourceKey}: unbalanced in ${currency} by ${sum} minor units`);
  }
  return out;
}

const keyOf = (a: { code: string; currency: string; transferId: string | null; partnerId: string | null }) =>
  `${a.code}|${a.currency}|${a.transferId ?? ""}|${a.partnerId ?? ""}`;

/** The accounts of these lines created on first use (concurrent creators wait on the unique key), as a statement not yet run. */
function accountsInsert(tx: Tx, lines: CheckedLine[], now: Date) {
  const wanted = new Map(lines.map((l) => [keyOf({ code: l.account, currency: l.currency, transferId: l.transferId, partnerId: l.partnerId }), l]));
  return tx
    .insert(ledgerAccounts)
    .values(
      [...wanted.values()].map((l) => ({
        id: newId("la"),
        code: l.account,
        currency: l.currency,
        transferId: l.transferId,
        partnerId: l.partnerId,
        createdAt: now,
      })),
    )
    .onConflictDoNothing();
}

/** A line's account id, by its key (the unique ledger_accounts_key), as a scalar subquery. */
function accountOf(l: CheckedLine): SQL {
  return sql`(select ${ledgerAccounts.id} from ${ledgerAccounts} where ${and(
    eq(ledgerAccounts.code, l.account),
    eq(ledgerAccounts.currency, l.currency),
    l.transferId ? eq(ledgerAccounts.transferId, l.transferId) : isNull(ledgerAccounts.transferId),
    l.partnerId ? eq(ledgerAccounts.partnerId, l.partnerId) : isNull(ledgerAccounts.partnerId),
  )})`;
}

/**
 * One balanced journal entry as statements not yet run (its lines checked first: checkLines).
 * The accounts are read by a later statement than the one that created them: one a concurrent
 * creator committed while that statement waited on the key is seen there.
 */
export function postingStatements(tx: Tx, input: PostEntryInput): PostingStatements {
  const lines = checkLines(input);
  const id = newId("je");
  const entry = tx
    .insert(journalEntries)
    .values({
      id,
      sourceKey: input.sourceKey,
      kind: input.kind,
      memo: input.memo,
      transferId: input.transferId ?? null,
      transferStateHistoryId: input.transferStateHistoryId ?? null,
      reference: input.reference ?? null,
      createdAt: input.now,
    })
    .onConflictDoNothing({ target: journalEntries.sourceKey })
    .returning({ id: journalEntries.id });
  const c = (col: { name: string }) => sql.identifier(col.name);
  const columns = [journalLines.id, journalLines.entryId, journalLines.lineNo, journalLines.accountId, journalLines.debitMinor, journalLines.creditMinor];
  const rows = lines.map(
    (l, i) =>
      // Typed: the branches of a UNION would otherwise read their parameters as text.
      sql`select ${newId("jl")}::text, entry.id, ${sql.param(i + 1, journalLines.lineNo)}::integer, ${accountOf(l)},
        ${sql.param(l.debit, journalLines.debitMinor)}::bigint, ${sql.param(l.credit, journalLines.creditMinor)}::bigint from entry`,
  );
  return {
    entryId: id,
    accounts: accountsInsert(tx, lines, input.now),
    closed: closedSql(input.now),
    periodClosed: () =>
      new DomainError("ledger.periodClosed", { message: `The month ${periodOf(input.now)} is closed: post the correction in the open month.` }),
    entry,
    lines: sql`insert into ${journalLines} (${sql.join(columns.map(c), sql`, `)}) ${sql.join(rows, sql` union all `)} returning 1`,
  };
}

/**
 * An entry as the unit of work's `ledger.post` effect takes it: its statements are built when the
 * unit sends its effects at commit (lib/platform/post-entry.ts), in the unit's transaction.
 */
export function posting(input: PostEntryInput): Posting {
  return (tx) => postingStatements(tx, input);
}

/**
 * Posts one balanced journal entry in the caller's transaction, at once (the unit's effects post
 * theirs at commit). A sourceKey already posted answers { posted: false } and writes nothing (a
 * replayed job, a re-imported statement). An entry dated in a closed month is refused
 * (ledger.periodClosed; a trigger refuses it too).
 */
export async function postEntry(tx: Tx, input: PostEntryInput): Promise<{ posted: boolean; entryId?: string }> {
  return sendPosting(tx, posting(input));
}
