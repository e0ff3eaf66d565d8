/**
 * Prefunding reconciled from the provider's statement: the provider's balance statement (read
 * through its interface: the format is the provider's, the domain sees balances per currency at a
 * time) is set against our prefunding account as of the statement's time. Each currency's
 * difference is kept with the statement; the liquidity page shows the latest per provider and
 * currency, and the operations alert prefunding.statementDifference fires while it is not zero.
 */
import { desc } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { prefundingStatements } from "@/db/schema";
import { validationError } from "@/lib/platform/errors";
import { accountBalances, fromMinor, isPayoutProviderId, prefundingAccount, toMinor } from "@/lib/finance";
import { payoutAggregator, type ProviderBalanceStatement } from "@/lib/payments/providers/payout-aggregator";

/** The providers whose statements we read, and how: the bank file's money is the bank's statement (bank reconciliation). */
const STATEMENT_READERS: Record<string, () => (text: string) => ProviderBalanceStatement | null> = {
  aggregator: () => (text) => payoutAggregator().readBalanceStatement(text),
};

export const statementProviders = () => Object.keys(STATEMENT_READERS);

export interface StatementComparison {
  provider: string;
  currency: string;
  reference: string;
  asOf: Date;
  /** What the provider says we hold, what our prefunding account held then, and statement - ledger; decimal strings. */
  statement: string;
  ledger: string;
  difference: string;
  /** The difference is not zero: the alert's condition. */
  differs: boolean;
}

/** Signed minor units of a signed decimal string (the statement may show an overdraft). */
function signedMinor(amount: string, currency: string): bigint {
  return amount.startsWith("-") ? -toMinor(amount.slice(1), currency) : toMinor(amount, currency);
}

const bad = (field: string, message: string) => validationError([{ field, code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);

/**
 * Imports one statement of `provider`: each currency it lists compared with the provider's
 * prefunding account as of the statement's time, and kept. A statement imported before (its
 * reference, per currency) is a duplicate and changes nothing.
 */
export async function importPrefundingStatement(
  tx: Tx,
  input: { provider: string; text: string; now: Date },
): Promise<{ compared: StatementComparison[]; duplicates: number }> {
  const reader = isPayoutProviderId(input.provider) ? STATEMENT_READERS[input.provider] : undefined;
  if (!reader) throw bad("provider", `No statement is read for ${input.provider}: one of ${statementProviders().join(", ")}.`);
  const statement = reader()(input.text);
  if (!statement) throw bad("statement", `This is not a ${input.provider} balance statement.`);
  if (statement.asOf.getTime() > input.now.getTime()) throw bad("statement", `The statement is for ${statement.asOf.toISOString()}, later than now.`);
  const currencies = statement.balances.map((b) => b.currency);
  if (new Set(currencies).size !== currencies.length) throw bad("statement", "The statement lists a currency twice.");
  const compared: StatementComparison[] = [];
  let duplicates = 0;
  for (const b of statement.balances) {
    let statementMinor: bigint;
    try {
      statementMinor = signedMinor(b.amount, b.currency);
    } catch {
      throw bad("statement", `${b.amount} ${b.currency} is not an amount in ${b.currency}.`);
    }
    // Entries dated before the statement's time: what our books said the provider held then.
    const [account] = await accountBalances(tx, { code: prefundingAccount(input.provider), currency: b.currency, perTransfer: false, asOf: statement.asOf });
    const ledgerMinor = account?.balance ?? 0n;
    const row = {
      id: newId("pfs"),
      provider: input.provider,
      currency: b.currency,
      reference: statement.reference,
      asOf: statement.asOf,
      statementMinor,
      ledgerMinor,
      differenceMinor: statementMinor - ledgerMinor,
      createdAt: input.now,
    };
    const inserted = await tx.insert(prefundingStatements).values(row).onConflictDoNothing().returning({ id: prefundingStatements.id });
    if (inserted.length === 0) {
      duplicates++;
      continue;
    }
    compared.push(comparisonOf(row));
  }
  return { compared, duplicates };
}

function comparisonOf(r: typeof prefundingStatements.$inferSelect): StatementComparison {
  return {
    provider: r.provider,
    currency: r.currency,
    reference: r.reference,
    asOf: r.asOf,
    statement: fromMinor(r.statementMinor, r.currency),
    ledger: fromMinor(r.ledgerMinor, r.currency),
    difference: fromMinor(r.differenceMinor, r.currency),
    differs: r.differenceMinor !== 0n,
  };
}

/**
 * The latest statement of each provider and currency (by its time; the later import of two for
 * the same time), set against the ledger: the liquidity page's lines and the alert's reading.
 */
export async function latestPrefundingStatements(db: Executor): Promise<StatementComparison[]> {
  const s = prefundingStatements;
  const rows = await db.selectDistinctOn([s.provider, s.currency]).from(s).orderBy(s.provider, s.currency, desc(s.asOf), desc(s.createdAt));
  return rows.map(comparisonOf);
}
