/**
 * Rolling-limit usage and the reservation made at quote acceptance.
 *
 * A transfer counts from its acceptance (transfers.created_at) with its limit_amount, the origin
 * amount converted into the partner's limit currency at the reference rate of that moment, for as
 * long as it is not aborted, expired, rejected or canceled. So the release is the transfer's own
 * state change, in the transition's transaction: nothing else to keep in step. Usage is one
 * index-only query over the subscription's transfers of the last 180 days
 * (transfers_subscription_idx), sent with the subscription's lock in one round trip.
 *
 * Scope: the customer at one partner (the subscription). Limits are the partner's own, else the
 * configuration version's in force at the check (an approved lower limit applies from its effective
 * time), in the partner's currency; a customer of two partners has each partner's limits
 * (docs/decisions.md).
 */
import { and, eq, isNotNull, notInArray, sql } from "drizzle-orm";
import { preparedOn } from "@/db/prepared";
import type { Executor, Tx } from "@/db";
import { customers, partners, subscriptions, transfers } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import { roundToMinorUnit, toWireAmount } from "@/lib/platform/money/format";
import type { ReferenceRateProvider } from "@/lib/payments/pricing/reference-rate";
import type { TransferState } from "@/lib/payments/transfers/state-machine";
import { latestVersionSql, refreshVersions, tableInForce } from "@/lib/payments/corridors/versions";
import { LIMIT_WINDOWS, TOP_TIER, WINDOW_DAYS, nextTierOf, tierLimitsOf, type LimitWindow, type TierLimits, type VerificationTier } from "./tiers";

/** Ended states whose amount no longer counts. `paid` keeps counting. */
export const RELEASED_STATES = ["aborted", "expired", "rejected", "canceled"] as const satisfies readonly TransferState[];

const DAY_MS = 86_400_000;
const LONGEST = LIMIT_WINDOWS[LIMIT_WINDOWS.length - 1];

export interface LimitContext {
  tier: VerificationTier;
  currency: string;
  limits: TierLimits;
}

/** The amount in the limit currency: converted at the reference rate of `now`, rounded to its minor unit. */
export function limitAmountOf(amount: Decimal, from: string, to: string, rates: ReferenceRateProvider, now: Date): Decimal {
  if (from === to) return amount;
  return roundToMinorUnit(amount.times(rates.rate({ from, to }, now)), to);
}

/**
 * The customer's tier and the partner's limits and currency, as columns of a statement that joins
 * the subscription to its customer and its partner (here, and quote acceptance's locking read);
 * with the highest configuration version, so the caller loads one it lacks (refreshVersions)
 * without a statement of its own before reading the limits in force.
 */
export const limitContextColumns = {
  tier: customers.verificationTier,
  currency: partners.limitCurrency,
  tierLimits: partners.tierLimits,
  latestConfigurationVersion: latestVersionSql(),
};
export type LimitContextRow = { tier: VerificationTier; currency: string; tierLimits: TierLimits | null };

/** The customer's tier and the partner's limits and currency, for a subscription. */
function contextSelect(ex: Executor, subscriptionId: string, lock: boolean) {
  const query = ex
    .select(limitContextColumns)
    .from(subscriptions)
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .innerJoin(partners, eq(partners.id, subscriptions.partnerId))
    .where(eq(subscriptions.id, subscriptionId));
  // The subscription row is the per-customer lock: two accepts of one customer are serialised here,
  // so the second sees the first's transfer (50 parallel accepts never overshoot a window).
  return lock ? query.for("update", { of: subscriptions }).prepare("limits_context_locked") : query.prepare("limits_context");
}

/** Each window's start, as text (bound to a ::timestamptz cast: a placeholder in the select list has no column encoder). */
function windowStarts(now: Date): Record<LimitWindow, string> {
  const since = (w: LimitWindow) => new Date(now.getTime() - WINDOW_DAYS[w] * DAY_MS).toISOString();
  return { P1D: since("P1D"), P30D: since("P30D"), P180D: since("P180D") };
}

/**
 * Per limit currency, what counts in each window, for a subscription and window starts given as
 * values or placeholders. Served from transfers_subscription_idx alone (its key carries
 * created_at, limit_currency, state and limit_amount): old transfers are read from the index, not
 * the table.
 */
function usageOver(ex: Executor, subscriptionId: unknown, since: Record<LimitWindow, unknown>) {
  const sumSince = (w: LimitWindow) =>
    sql<string>`coalesce(sum(${transfers.limitAmount}::numeric) filter (where ${transfers.createdAt} > ${since[w]}::timestamptz), 0)::text`;
  const sums = { P1D: sumSince("P1D"), P30D: sumSince("P30D"), P180D: sumSince("P180D") } satisfies Record<LimitWindow, unknown>;
  return ex
    .select({ currency: transfers.limitCurrency, ...sums })
    .from(transfers)
    .where(
      and(
        sql`${transfers.subscriptionId} = ${subscriptionId}`,
        sql`${transfers.createdAt} > ${since[LONGEST]}::timestamptz`,
        isNotNull(transfers.limitAmount),
        notInArray(transfers.state, [...RELEASED_STATES]),
      ),
    )
    .groupBy(transfers.limitCurrency);
}

/** usageRows' statement with its values, for bench/limits.ts, which reads its plan. */
export function usageSelect(ex: Executor, subscriptionId: string, now: Date) {
  return usageOver(ex, subscriptionId, windowStarts(now));
}

/**
 * What counts in each window per limit currency, as one named statement: a caller that holds the
 * subscription's lock sends it behind its locking statement (postgres.js keeps a named statement
 * prepared on its connection and pipelines it; an unnamed one with parameters waits for a describe
 * round trip first). It must be a statement of its own, sent after the lock's: under READ
 * COMMITTED a statement reads the snapshot taken when it starts, so sums in the locking statement
 * would miss the transfer that the accept it waited for has just committed; a statement behind it
 * starts once the lock is held. Built once per process with placeholders (Drizzle built
 * it on every accept).
 */
export function usageRows(ex: Executor, subscriptionId: string, now: Date) {
  return preparedOn(ex, "limits_usage", (e) =>
    usageOver(
      e,
      sql.placeholder("subscriptionId"),
      Object.fromEntries(LIMIT_WINDOWS.map((w) => [w, sql.placeholder(w)])) as Record<LimitWindow, unknown>,
    ).prepare("limits_usage"),
  ).execute({ subscriptionId, ...windowStarts(now) });
}
export type UsageRow = Awaited<ReturnType<typeof usageRows>>[number];

/**
 * Each window's limit, use and what remains (never below zero: a lowered limit may sit under the
 * use). Without the partner's own limits, the configuration version in force at `now`'s: the
 * caller has loaded the versions up to the row's latestConfigurationVersion.
 */
export function standingFrom(row: LimitContextRow, rows: UsageRow[], rates: ReferenceRateProvider, now: Date) {
  const ctx: LimitContext = { tier: row.tier, currency: row.currency, limits: tierLimitsOf(row, tableInForce(now).tierLimits) };
  // Amounts counted in another currency are converted at today's rate.
  const used = Object.fromEntries(LIMIT_WINDOWS.map((w) => [w, new Decimal(0)])) as Record<LimitWindow, Decimal>;
  for (const r of rows) {
    for (const w of LIMIT_WINDOWS) used[w] = used[w].plus(limitAmountOf(new Decimal(r[w]), r.currency!, ctx.currency, rates, now));
  }
  const limits = ctx.limits[`${ctx.tier}`];
  const windows: WindowStanding[] = LIMIT_WINDOWS.map((window) => {
    const limit = new Decimal(limits[window]);
    return { window, limit, used: used[window], remaining: Decimal.max(limit.minus(used[window]), 0) };
  });
  return { ...ctx, windows };
}
export type Standing = ReturnType<typeof standingFrom>;

export interface WindowStanding {
  window: LimitWindow;
  limit: Decimal;
  used: Decimal;
  remaining: Decimal;
}

/**
 * The context (the subscription locked when `lock`) and its standing: the two statements sent
 * together, in a transaction one round trip (see usageRows).
 */
export async function standingOf(ex: Executor, subscriptionId: string, rates: ReferenceRateProvider, now: Date, lock = false): Promise<Standing> {
  const [[row], rows] = await Promise.all([contextSelect(ex, subscriptionId, lock).execute(), usageRows(ex, subscriptionId, now)]);
  if (!row) throw new Error(`subscription ${subscriptionId} not found`);
  await refreshVersions(ex, row.latestConfigurationVersion);
  return standingFrom(row, rows, rates, now);
}

/**
 * At quote acceptance, inside its transaction: locks the customer's subscription, checks the
 * amount against every window of their tier and returns what the new transfer counts. A breach is
 * 422 customer.limitExceeded naming the window with the least remaining, and nothing is created.
 */
export async function reserveWithinLimits(
  tx: Tx,
  input: { subscriptionId: string; originAmount: string; originCurrency: string; rates: ReferenceRateProvider; now: Date },
): Promise<{ limitAmount: string; limitCurrency: string }> {
  return reservationWithin(await standingOf(tx, input.subscriptionId, input.rates, input.now, true), input);
}

/**
 * What the amount counts against a standing read under the subscription's lock (reserveWithinLimits,
 * or quote acceptance's own locking read): a breach is customer.limitExceeded.
 */
export function reservationWithin(
  standing: Standing,
  input: { originAmount: string; originCurrency: string; rates: ReferenceRateProvider; now: Date },
): { limitAmount: string; limitCurrency: string } {
  const amount = limitAmountOf(new Decimal(input.originAmount), input.originCurrency, standing.currency, input.rates, input.now);
  const breached = standing.windows.filter((w) => amount.gt(w.remaining)).sort((a, b) => a.remaining.comparedTo(b.remaining));
  if (breached.length > 0) throw limitExceeded(breached[0]!, standing.currency, standing.tier);
  return { limitAmount: toWireAmount(amount), limitCurrency: standing.currency };
}

function limitExceeded(w: WindowStanding, currency: string, tier: VerificationTier) {
  const topTier = tier >= TOP_TIER;
  return new DomainError("customer.limitExceeded", {
    message: topTier
      ? `This transfer is over the customer's ${w.window} limit; contact support.`
      : `This transfer is over the customer's ${w.window} limit. Providing proof of the source of funds raises the limits.`,
    remediation: topTier ? "contact_support" : "provide_source_of_funds",
    details: { window: w.window, limit: toWireAmount(w.limit), remaining: toWireAmount(w.remaining), currency },
  });
}

/** GET /v1/core/limits: the tier, each window's limit, use and remainder, and what the next tier needs. */
export async function readLimits(ex: Executor, input: { subscriptionId: string; rates: ReferenceRateProvider; now: Date }) {
  const standing = await standingOf(ex, input.subscriptionId, input.rates, input.now);
  return {
    tier: standing.tier,
    currency: standing.currency,
    windows: standing.windows.map((w) => ({
      window: w.window,
      limit: toWireAmount(w.limit),
      used: toWireAmount(w.used),
      remaining: toWireAmount(w.remaining),
    })),
    nextTier: nextTierOf(standing.tier),
  };
}
