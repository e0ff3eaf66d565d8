/**
 * Reading the books (docs/decisions.md "Books"): the trial balance as of any
 * instant (every account, subtotals per family), profit and loss for a period (fee revenue,
 * partner fees owed, FX result at reference rates, expenses) and the safeguarding view. Reads
 * only: amounts are bigint minor units, never floats.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { journalEntries, journalLines, ledgerAccounts, transfers } from "@/db/schema";
import { accountFamily, ACCOUNT_TYPE, type AccountCode, type AccountType } from "@/lib/finance/ledger";
import { Decimal } from "@/lib/platform/money/decimal";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import type { ReferenceRateProvider } from "@/lib/platform/money/rates";

/** sum() of a bigint column is numeric: read as text, then exactly as bigint. */
const sumOf = (col: typeof journalLines.debitMinor | typeof journalLines.creditMinor) => sql<string>`coalesce(sum(${col}), 0)::text`;

export interface BookRow {
  code: AccountCode;
  family: string;
  type: AccountType;
  currency: string;
  /** The partner of a per-partner account; the per-transfer accounts are one row per code. */
  partnerId: string | null;
  debit: bigint;
  credit: bigint;
  /** debit - credit. */
  balance: bigint;
}

/** Debits and credits per account (per-transfer accounts summed per code), for entries dated in [from, to). */
export async function bookRows(db: Executor, range: { from?: Date; to?: Date }): Promise<BookRow[]> {
  const where: SQL[] = [];
  // Through the column's mapping (gte/lt): a Date in a raw template is a 500 on postgres.js.
  if (range.from) where.push(gte(journalEntries.createdAt, range.from));
  if (range.to) where.push(lt(journalEntries.createdAt, range.to));
  const rows = await db
    .select({
      code: ledgerAccounts.code,
      currency: ledgerAccounts.currency,
      partnerId: ledgerAccounts.partnerId,
      debit: sumOf(journalLines.debitMinor),
      credit: sumOf(journalLines.creditMinor),
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(where.length ? and(...where) : undefined)
    .groupBy(ledgerAccounts.code, ledgerAccounts.currency, ledgerAccounts.partnerId)
    .orderBy(asc(ledgerAccounts.currency), asc(ledgerAccounts.code), asc(ledgerAccounts.partnerId));
  return rows.map((r) => {
    const debit = BigInt(r.debit);
    const credit = BigInt(r.credit);
    return { ...r, family: accountFamily(r.code), type: ACCOUNT_TYPE[r.code], debit, credit, balance: debit - credit };
  });
}

export interface FamilySubtotal {
  family: string;
  currency: string;
  balance: bigint;
}

export interface TrialBalance {
  asOf: Date;
  rows: BookRow[];
  subtotals: FamilySubtotal[];
  /** Per currency: the debit balances and the credit balances, equal in sound books. */
  totals: { currency: string; debit: bigint; credit: bigint }[];
}

/** Every account's balance as of `asOf` (entries dated before it), with family subtotals and per-currency totals. */
export async function trialBalanceAsOf(db: Executor, asOf: Date): Promise<TrialBalance> {
  const rows = (await bookRows(db, { to: asOf })).filter((r) => r.debit !== 0n || r.credit !== 0n);
  const subtotals = new Map<string, FamilySubtotal>();
  const totals = new Map<string, { currency: string; debit: bigint; credit: bigint }>();
  for (const r of rows) {
    const key = `${r.currency}|${r.family}`;
    const s = subtotals.get(key) ?? { family: r.family, currency: r.currency, balance: 0n };
    s.balance += r.balance;
    subtotals.set(key, s);
    const t = totals.get(r.currency) ?? { currency: r.currency, debit: 0n, credit: 0n };
    if (r.balance > 0n) t.debit += r.balance;
    else t.credit -= r.balance;
    totals.set(r.currency, t);
  }
  return { asOf, rows, subtotals: [...subtotals.values()], totals: [...totals.values()] };
}

export interface FxPair {
  originCurrency: string;
  destinationCurrency: string;
  /** Origin currency taken in by conversions (net of reversals), minor units. */
  originMinor: bigint;
  /** Destination currency paid out by conversions (net of reversals), minor units. */
  destinationMinor: bigint;
  /** originMinor less destinationMinor at the reference rate of each conversion's moment, in origin minor units; null without a rate. */
  resultMinor: bigint | null;
}

export interface ProfitAndLoss {
  from: Date;
  to: Date;
  /** Our own fee (revenue:fees), credit - debit, per currency. */
  feeRevenue: { currency: string; amount: bigint }[];
  /** Partner fees accrued in the period (payable:partner-fees), per partner and currency. */
  partnerFeesOwed: { partnerId: string; currency: string; amount: bigint }[];
  /** fx:conversion's movement per currency (credit - debit): the FX result in each currency, as the ledger holds it. */
  fxByCurrency: { currency: string; amount: bigint }[];
  fxPairs: FxPair[];
  /** Expense accounts (debit - credit) per code and currency. */
  expenses: { code: AccountCode; currency: string; amount: bigint }[];
  /**
   * The month's result per currency: fee revenue, plus the FX result of the
   * pairs converted from that currency (at reference rates), less expenses; null when a pair from
   * it has no reference rate (the result is then unknown, not smaller).
   */
  netResult: { currency: string; amount: bigint | null }[];
}

/**
 * Profit and loss for entries dated in [from, to). FX result: each conversion takes the origin
 * amount in and pays the destination amount out (fx:conversion, one account per currency); per
 * currency pair, the destination paid is valued in the origin currency at the reference rate of
 * the conversion's moment, and the result is what was taken in less that value (docs/decisions.md).
 */
export async function profitAndLoss(db: Executor, range: { from: Date; to: Date }, rates: ReferenceRateProvider): Promise<ProfitAndLoss> {
  const rows = await bookRows(db, range);
  const feeRevenue = rows.filter((r) => r.code === "revenue:fees").map((r) => ({ currency: r.currency, amount: r.credit - r.debit }));
  const partnerFeesOwed = rows
    .filter((r) => r.code === "payable:partner-fees" && r.partnerId)
    .map((r) => ({ partnerId: r.partnerId!, currency: r.currency, amount: r.credit - r.debit }));
  const fxByCurrency = rows.filter((r) => r.code === "fx:conversion").map((r) => ({ currency: r.currency, amount: r.credit - r.debit }));
  const expenses = rows.filter((r) => r.type === "expense").map((r) => ({ code: r.code, currency: r.currency, amount: r.debit - r.credit }));
  const pairs = await fxPairs(db, range, rates);
  const netResult = netResultOf(feeRevenue, pairs, expenses);
  return { from: range.from, to: range.to, feeRevenue, partnerFeesOwed, fxByCurrency, fxPairs: pairs, expenses, netResult };
}

/** Per currency: revenue + FX result - expenses; a currency of the P&L with nothing in a part counts it as zero. */
function netResultOf(
  feeRevenue: readonly { currency: string; amount: bigint }[],
  pairs: readonly FxPair[],
  expenses: readonly { currency: string; amount: bigint }[],
): { currency: string; amount: bigint | null }[] {
  const net = new Map<string, bigint | null>();
  const add = (currency: string, amount: bigint | null) => {
    const sum = net.has(currency) ? net.get(currency)! : 0n;
    net.set(currency, sum === null || amount === null ? null : sum + amount);
  };
  for (const r of feeRevenue) add(r.currency, r.amount);
  for (const p of pairs) add(p.originCurrency, p.resultMinor);
  for (const e of expenses) add(e.currency, -e.amount);
  return [...net].map(([currency, amount]) => ({ currency, amount })).sort((a, b) => a.currency.localeCompare(b.currency));
}

/** The conversion lines of the transfers' entries in the range, valued pair by pair. */
async function fxPairs(db: Executor, range: { from: Date; to: Date }, rates: ReferenceRateProvider): Promise<FxPair[]> {
  const lines = await db
    .select({
      entryId: journalEntries.id,
      transferId: journalEntries.transferId,
      originCurrency: transfers.originCurrency,
      destinationCurrency: transfers.destinationCurrency,
      currency: ledgerAccounts.currency,
      debit: journalLines.debitMinor,
      credit: journalLines.creditMinor,
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .innerJoin(transfers, eq(transfers.id, journalEntries.transferId))
    .where(
      and(
        eq(ledgerAccounts.code, "fx:conversion"),
        isNotNull(journalEntries.transferId),
        gte(journalEntries.createdAt, range.from),
        lt(journalEntries.createdAt, range.to),
      ),
    )
    .orderBy(asc(journalEntries.createdAt), asc(journalEntries.id));
  // Each transfer's conversion is valued at the rate of its first conversion entry (payout.sent),
  // wherever that falls: a return's reversal undoes it at the same rate, so a conversion the ledger
  // nets to zero shows no FX result (valuing the reversal at its own, later rate would).
  const transferIds = [...new Set(lines.map((l) => l.transferId!))];
  const firstAt = new Map<string, Date>();
  if (transferIds.length > 0) {
    const firsts = await db
      .select({ transferId: journalEntries.transferId, at: sql<Date>`min(${journalEntries.createdAt})`.mapWith(journalEntries.createdAt) })
      .from(journalLines)
      .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
      .where(and(eq(ledgerAccounts.code, "fx:conversion"), inArray(journalEntries.transferId, transferIds)))
      .groupBy(journalEntries.transferId);
    for (const f of firsts) firstAt.set(f.transferId!, f.at);
  }
  const pairs = new Map<string, FxPair & { value: Decimal | null }>();
  const perEntry = new Map<string, { at: Date; pair: string; origin: bigint; destination: bigint }>();
  for (const l of lines) {
    const pair = `${l.originCurrency}>${l.destinationCurrency}`;
    if (!pairs.has(pair))
      pairs.set(pair, {
        originCurrency: l.originCurrency,
        destinationCurrency: l.destinationCurrency,
        originMinor: 0n,
        destinationMinor: 0n,
        resultMinor: null,
        value: new Decimal(0),
      });
    const e = perEntry.get(l.entryId) ?? { at: firstAt.get(l.transferId!)!, pair, origin: 0n, destination: 0n };
    if (l.currency === l.originCurrency) e.origin += l.credit - l.debit;
    else e.destination += l.debit - l.credit;
    perEntry.set(l.entryId, e);
  }
  for (const e of perEntry.values()) {
    const p = pairs.get(e.pair)!;
    p.originMinor += e.origin;
    p.destinationMinor += e.destination;
    if (p.value === null) continue;
    const rate = rateAt(rates, p.originCurrency, p.destinationCurrency, e.at);
    if (rate === null) {
      p.value = null;
      continue;
    }
    // Destination minor units → destination major → origin major at the rate (destination per origin).
    const destination = new Decimal(e.destination.toString()).div(new Decimal(10).pow(minorUnitExponent(p.destinationCurrency)));
    p.value = p.value.plus(destination.div(rate));
  }
  return [...pairs.values()].map(({ value, ...p }) => {
    if (value === null) return p;
    const originScale = new Decimal(10).pow(minorUnitExponent(p.originCurrency));
    const paidInOrigin = BigInt(value.times(originScale).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN).toFixed(0));
    return { ...p, resultMinor: p.originMinor - paidInOrigin };
  });
}

function rateAt(rates: ReferenceRateProvider, from: string, to: string, at: Date): Decimal | null {
  if (from === to) return new Decimal(1);
  try {
    return rates.rate({ from, to }, at);
  } catch {
    return null;
  }
}

/** The safeguarded cash accounts and the obligations they must cover (docs/decisions.md "Safeguarding view"). */
const HELD: readonly AccountCode[] = ["cash:collection", "cash:card-clearing", "cash:payout-bank", "cash:payout-aggregator"];
const OBLIGATIONS: readonly AccountCode[] = [
  "transfer:customer-funds",
  "transfer:payout-in-flight",
  "transfer:refund-due",
  "suspense:unallocated",
  "suspense:returned-payouts",
  "blocked:sanctions",
];

export interface SafeguardingLine {
  currency: string;
  /** Customer money held: the safeguarded cash accounts' debit balance. */
  held: bigint;
  /** Funds of transfers not yet paid out, refunds due, unallocated credits, blocked funds: their credit balance. */
  obligations: bigint;
  /** held - obligations: negative is a shortfall. */
  surplus: bigint;
}

export async function safeguarding(db: Executor, asOf: Date): Promise<SafeguardingLine[]> {
  const rows = await bookRows(db, { to: asOf });
  const byCurrency = new Map<string, SafeguardingLine>();
  for (const r of rows) {
    const held = HELD.includes(r.code);
    const owed = OBLIGATIONS.includes(r.code);
    if (!held && !owed) continue;
    const line = byCurrency.get(r.currency) ?? { currency: r.currency, held: 0n, obligations: 0n, surplus: 0n };
    if (held) line.held += r.balance;
    else line.obligations -= r.balance;
    line.surplus = line.held - line.obligations;
    byCurrency.set(r.currency, line);
  }
  return [...byCurrency.values()];
}
