/**
 * Payout routing as data (data/payout-routing/v1.json): which providers may pay a corridor's
 * method, their cost and amount bounds, and the health rules (circuit breaker, 24 h success). The
 * router reads each provider's recent attempts (payout_provider_attempts) for its health, so
 * nothing but the attempts themselves has to be kept. Kept apart from data/corridors until the
 * corridors' versioned configuration takes the rules in.
 */
import { and, gte, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import rawRouting from "@/data/payout-routing/v1.json";
import type { Executor } from "@/db";
import { payoutProviderAttempts } from "@/db/schema";
import { isPayoutProviderId, type PayoutProviderId } from "@/lib/finance";
import { Decimal } from "@/lib/platform/money/decimal";

const decimal = z.string().regex(/^(0|[1-9][0-9]*)([.][0-9]+)?$/, "an unsigned decimal string");

const routingFileSchema = z.strictObject({
  $comment: z.string().optional(),
  version: z.string(),
  circuitBreaker: z.strictObject({ failures: z.number().int().positive(), windowMinutes: z.number().positive(), openMinutes: z.number().positive() }),
  successRate: z.strictObject({ minimumTries: z.number().int().positive(), healthy: decimal }),
  routes: z
    .array(
      z.strictObject({
        corridor: z.string().regex(/^[A-Z]{2}-[A-Z]{2}$/),
        method: z.string(),
        provider: z.string().refine(isPayoutProviderId, "a known payout provider (bank-file, aggregator)"),
        /** The provider's fee per payout, in the corridor's origin currency. */
        cost: decimal,
        /** The largest destination amount the provider takes on this route; absent: no bound. */
        maxAmount: decimal.optional(),
      }),
    )
    .min(1),
});
export type RoutingTable = z.output<typeof routingFileSchema>;
export type Route = RoutingTable["routes"][number] & { provider: PayoutProviderId };

/** Validates a routing data file; throws naming every problem (exported for tests). */
export function loadRoutingFile(raw: unknown): RoutingTable {
  const parsed = routingFileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid payout routing data:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export const ROUTING: RoutingTable = loadRoutingFile(rawRouting);

/** One provider's health from its recent attempts. */
export interface ProviderHealth {
  provider: string;
  /** Settled tries (paid, failed, rejected) over the last 24 h, and how many were paid or reached the bank (a data rejection is the provider working). */
  tries24h: number;
  succeeded24h: number;
  /** Retryable failures (timeout, down, technical) inside the breaker's window, and the latest one. */
  recentFailures: number;
  lastFailureAt: Date | null;
}

/** The breaker is open (the provider skipped) after `failures` retryable failures within the window, until `openMinutes` after the last. */
export function breakerOpen(h: ProviderHealth | undefined, now: Date, table: RoutingTable = ROUTING): boolean {
  if (!h || !h.lastFailureAt || h.recentFailures < table.circuitBreaker.failures) return false;
  return now.getTime() - h.lastFailureAt.getTime() < table.circuitBreaker.openMinutes * 60_000;
}

/** A provider with enough tries and a success rate under `healthy` goes after the healthy ones. */
export function healthy(h: ProviderHealth | undefined, table: RoutingTable = ROUTING): boolean {
  if (!h || h.tries24h < table.successRate.minimumTries) return true;
  return new Decimal(h.succeeded24h).div(h.tries24h).gte(table.successRate.healthy);
}

/**
 * The providers that may pay this payout, best first: the routes of its corridor and method that
 * take its amount, without the providers excluded (already failed for it) or whose breaker is
 * open; healthy before unhealthy, then cheaper first, then the higher 24 h success.
 */
export function rankRoutes(
  input: { corridor: string; method: string; amount: string; exclude: readonly string[]; health: readonly ProviderHealth[]; now: Date },
  table: RoutingTable = ROUTING,
): Route[] {
  const health = new Map(input.health.map((h) => [h.provider, h]));
  const rate = (p: string) => {
    const h = health.get(p);
    return h && h.tries24h > 0 ? new Decimal(h.succeeded24h).div(h.tries24h) : new Decimal(1);
  };
  return (table.routes as Route[])
    .filter((r) => r.corridor === input.corridor && r.method === input.method)
    .filter((r) => !r.maxAmount || new Decimal(input.amount).lte(r.maxAmount))
    .filter((r) => !input.exclude.includes(r.provider) && !breakerOpen(health.get(r.provider), input.now, table))
    .sort(
      (a, b) =>
        Number(healthy(health.get(b.provider), table)) - Number(healthy(health.get(a.provider), table)) ||
        new Decimal(a.cost).cmp(b.cost) ||
        rate(b.provider).cmp(rate(a.provider)),
    );
}

/** Every provider's health as of `now`, from its attempts of the last 24 h. */
export async function providerHealth(db: Executor, now: Date, table: RoutingTable = ROUTING): Promise<ProviderHealth[]> {
  const a = payoutProviderAttempts;
  const since = new Date(now.getTime() - 24 * 3_600_000);
  const window = new Date(now.getTime() - table.circuitBreaker.windowMinutes * 60_000);
  const rows = await db
    .select({
      provider: a.provider,
      tries: sql<number>`count(*)::int`,
      succeeded: sql<number>`(count(*) filter (where ${a.state} in ('PAID', 'REJECTED', 'REPAIRED', 'LATE_PAID', 'REVERSED')))::int`,
      recentFailures: sql<number>`(count(*) filter (where ${a.state} = 'FAILED' and ${a.stateChangedAt} >= ${window.toISOString()}::timestamptz))::int`,
      lastFailureAt: sql<string | null>`max(${a.stateChangedAt}) filter (where ${a.state} = 'FAILED')`,
    })
    .from(a)
    .where(and(gte(a.createdAt, since), inArray(a.state, ["PAID", "FAILED", "REJECTED", "REPAIRED", "LATE_PAID", "REVERSED"])))
    .groupBy(a.provider);
  return rows.map((r) => ({
    provider: r.provider,
    tries24h: Number(r.tries),
    succeeded24h: Number(r.succeeded),
    recentFailures: Number(r.recentFailures),
    lastFailureAt: r.lastFailureAt ? new Date(r.lastFailureAt) : null,
  }));
}
