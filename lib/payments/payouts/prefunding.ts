/**
 * Prefunding: each payout provider pays out from money we placed with it, one ledger account per
 * provider and currency (PREFUNDING_ACCOUNTS: cash:payout-bank for the bank file,
 * cash:payout-aggregator for the aggregator). A top-up is a recorded transfer from the house's
 * operating cash (dual-controlled command prefunding.topUp); each payout the provider pays draws
 * it (the payout.confirmed posting). The forecast sets the next business days' payouts against
 * what is left; an operations alert fires when the cover falls under PREFUNDING_MIN_COVER_DAYS of
 * them or a payout waits for cover.
 */
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { journalEntries, payoutProviderAttempts } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { listCorridors } from "@/lib/payments/corridors/corridors";
import { DomainError, validationError, type ValidationIssue } from "@/lib/platform/errors";
import { accountBalances, fromMinor, isPayoutProviderId, postEntry, PREFUNDING_ACCOUNTS, prefundingAccount, toMinor } from "@/lib/finance";
import { IN_FLIGHT_STATES } from "./provider-attempt-state-machine";
import { releaseHeldPayouts } from "./routed";
import { ROUTING } from "./routing";

export interface TopUp {
  provider: string;
  currency: string;
  amount: string;
  bankReference: string;
}

/** A top-up's input checked: a known provider, a currency one of its routes pays out, a positive amount. */
export function checkTopUp(p: TopUp): void {
  const issues: ValidationIssue[] = [];
  if (!isPayoutProviderId(p.provider))
    issues.push({ field: "provider", code: "validation.fieldInvalid", message: `one of ${Object.keys(PREFUNDING_ACCOUNTS).join(", ")}` });
  else if (!providerCurrencies(p.provider).includes(p.currency))
    issues.push({ field: "currency", code: "validation.fieldInvalid", message: `${p.provider} pays out ${providerCurrencies(p.provider).join(", ")}` });
  else if (toMinor(p.amount, p.currency) <= 0n) issues.push({ field: "amount", code: "validation.fieldInvalid", message: "more than zero" });
  if (issues.length) throw validationError(issues, "validation.fieldInvalid", "This top-up cannot be recorded.");
}

/** The destination currencies a provider's routes pay out. */
export function providerCurrencies(provider: string): string[] {
  const corridors = new Map(listCorridors().map((c) => [c.code, c.destinationCurrency]));
  return [
    ...new Set(
      ROUTING.routes
        .filter((r) => r.provider === provider)
        .map((r) => corridors.get(r.corridor))
        .filter((c): c is string => !!c),
    ),
  ].sort();
}

/**
 * Records a top-up (money sent from our operating account to the provider, with the bank's
 * reference) and releases the payouts that waited for it, oldest first, while the cover lasts.
 */
export async function topUpPrefunding(tx: Tx, p: TopUp, now: Date): Promise<{ released: number }> {
  checkTopUp(p);
  const minor = toMinor(p.amount, p.currency);
  await postEntry(tx, {
    sourceKey: `prefunding:${p.provider}:${p.currency}:${p.bankReference}`,
    kind: "prefunding.topUp",
    memo: `Prefunding of ${p.provider} topped up`,
    reference: p.bankReference,
    lines: [
      { account: prefundingAccount(p.provider), currency: p.currency, debit: minor },
      { account: "cash:operating", currency: p.currency, credit: minor },
    ],
    now,
  });
  return { released: await releaseHeldPayouts(tx, p.provider, p.currency, now) };
}

/** Refuses a top-up whose bank reference was recorded already (the same money twice). */
export async function refuseRecordedTopUp(db: Executor, p: TopUp): Promise<void> {
  const [row] = await db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(eq(journalEntries.sourceKey, `prefunding:${p.provider}:${p.currency}:${p.bankReference}`));
  if (row) throw new DomainError("validation.fieldInvalid", { message: `A top-up with bank reference ${p.bankReference} is recorded already.` });
}

export interface LiquidityRow {
  provider: string;
  currency: string;
  /** The prefunding account's balance, what its queued and submitted tries will draw, and the rest. */
  balance: string;
  inFlight: string;
  cover: string;
  /** Payouts held for cover: how many, and their sum. */
  heldCount: number;
  held: string;
  /** The payouts expected over the next three business days: the last seven days' business-day average, three times, plus the held ones. */
  forecast3Days: string;
  /** The forecast of PREFUNDING_MIN_COVER_DAYS business days the cover is compared with. */
  minimumCover: string;
  /** Cover under the minimum, or a payout waiting: the alert's condition. */
  short: boolean;
}

/** Business days in the seven calendar days the average is taken over (a plain working week). */
const BUSINESS_DAYS_PER_WEEK = 5n;

/** Each provider and currency its routes pay out: balance, in flight, held, the three-day forecast and whether the cover is short. */
export async function liquidityForecast(db: Executor, now: Date): Promise<LiquidityRow[]> {
  const a = payoutProviderAttempts;
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  // One statement after another: the metrics scrape holds one pooled connection at a time.
  const balances = await accountBalances(db, { perTransfer: false });
  const flows = await db
    .select({
      provider: a.provider,
      currency: a.currency,
      state: a.state,
      n: sql<number>`count(*)::int`,
      amounts: sql<string[]>`array_agg(${a.amount})`,
    })
    .from(a)
    .where(and(eq(a.state, "PAID"), gte(a.stateChangedAt, weekAgo)))
    .groupBy(a.provider, a.currency, a.state);
  // Held and in-flight tries, however old.
  const open = await db
    .select({ provider: a.provider, currency: a.currency, state: a.state, n: sql<number>`count(*)::int`, amounts: sql<string[]>`array_agg(${a.amount})` })
    .from(a)
    .where(inArray(a.state, [...IN_FLIGHT_STATES, "WAITING_COVER"]))
    .groupBy(a.provider, a.currency, a.state);
  const sum = (rows: { amounts: string[] }[], currency: string) => rows.reduce((t, r) => t + r.amounts.reduce((s, x) => s + toMinor(x, currency), 0n), 0n);
  const minDays = BigInt(config().PREFUNDING_MIN_COVER_DAYS);
  const out: LiquidityRow[] = [];
  for (const provider of Object.keys(PREFUNDING_ACCOUNTS)) {
    for (const currency of providerCurrencies(provider)) {
      const mine = (rows: typeof open, states: readonly string[]) =>
        rows.filter((r) => r.provider === provider && r.currency === currency && states.includes(r.state));
      const balance = balances.find((b) => b.code === prefundingAccount(provider) && b.currency === currency)?.balance ?? 0n;
      const inFlight = sum(mine(open, IN_FLIGHT_STATES), currency);
      const heldRows = mine(open, ["WAITING_COVER"]);
      const held = sum(heldRows, currency);
      const perDay = sum(mine(flows, ["PAID"]), currency) / BUSINESS_DAYS_PER_WEEK;
      const cover = balance - inFlight;
      const minimumCover = perDay * minDays + held;
      out.push({
        provider,
        currency,
        balance: fromMinor(balance, currency),
        inFlight: fromMinor(inFlight, currency),
        cover: fromMinor(cover, currency),
        heldCount: heldRows.reduce((n, r) => n + Number(r.n), 0),
        held: fromMinor(held, currency),
        forecast3Days: fromMinor(perDay * 3n + held, currency),
        minimumCover: fromMinor(minimumCover, currency),
        short: held > 0n || (minimumCover > 0n && cover < minimumCover),
      });
    }
  }
  return out;
}

/** The held payout of one transfer, if it waits for cover (the transfer page's line). */
export async function heldForCover(db: Executor, transferId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payoutProviderAttempts.id })
    .from(payoutProviderAttempts)
    .where(and(eq(payoutProviderAttempts.transferId, transferId), eq(payoutProviderAttempts.state, "WAITING_COVER")));
  return !!row;
}
