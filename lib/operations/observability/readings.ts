import { and, count, eq, gt, inArray, isNotNull, lte, max, min, sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db";
import { events, jobs, otpDeliveries, referenceRateSets, sanctionsListVersions, screeningCases } from "@/db/schema";
import { dailyReconciliation } from "@/lib/finance";
import { caseCounts, LISTS } from "@/lib/compliance";
import {
  liquidityForecast,
  type LiquidityRow,
  overdueClaimCount,
  latestPrefundingStatements,
  payoutsWithoutRoute,
  returnedPayouts,
  type PayoutWithoutRoute,
  type ReturnedPayout,
  type StatementComparison,
} from "@/lib/payments";
import { config } from "@/lib/platform/config";

/**
 * What operations watch, read from the database at one instant: the metrics endpoint renders it
 * (lib/operations/observability/metrics.ts) and the alert job judges it (lib/operations/observability/alerts.ts). Every read
 * is a count or a min/max over an indexed state column, so a scrape every few seconds is cheap.
 */
export interface OperationsReadings {
  at: Date;
  /** Live and given-up jobs by kind and state (done jobs are history, not a queue). */
  jobs: { kind: string; state: string; n: number }[];
  /** Per kind: seconds the oldest due pending job has waited past its run time. */
  jobQueueAge: { kind: string; seconds: number }[];
  /** Per kind: pending jobs whose last attempt failed, and jobs given up in the last day. */
  jobFailures: { kind: string; retrying: number; deadLastDay: number }[];
  /** Per partner: events waiting for delivery or given up, the oldest waiting one's age, and whether its endpoint is failing (being probed). */
  webhooks: { partnerId: string; pending: number; failed: number; oldestPendingSeconds: number; endpointFailing: boolean }[];
  /** E-mails (OTP) whose last attempt failed and that are retried, and those given up in the last day since the latest e-mail sent. */
  email: { retrying: number; failedSinceLastSent: number };
  /** Per source: the newest stored publication. */
  referenceRates: { source: string; publishedAt: Date }[];
  /** Per list: when its content was last stored or confirmed unchanged by a refresh. */
  sanctionsLists: { list: string; loadedAt: Date | null; refreshed: boolean }[];
  screeningCasesOpen: number;
  /** Open screening cases older than the threshold the caller asks about (hours). */
  screeningCasesOlder: { hours: number; n: number } | null;
  complianceCasesOpen: number;
  complianceCasesOverdue: number;
  claimsOverdue: number;
  /** Unexplained differences between bank closing balances and the ledger, with the oldest one's age in days. */
  reconciliation: { differences: number; oldestDays: number | null };
  /** The connection pool: its size, and on PostgreSQL this database's connections by state. */
  database: { driver: "pglite" | "postgres"; poolMax: number; connections: { state: string; n: number }[] };
  /** Each payout provider's prefunding per currency: balance, in flight, held, forecast (lib/payments/payouts/prefunding.ts). */
  prefunding?: LiquidityRow[];
  /** Payable transfers whose every payout route failed: no provider left, an operator must act (oldest first, at most 100). */
  payoutsWithoutRoute?: PayoutWithoutRoute[];
  /** Paid transfers whose payout the beneficiary's bank returned, not refunded yet: an operator must act (oldest first, at most 100). */
  returnedPayouts?: ReturnedPayout[];
  /** Each payout provider's latest balance statement per currency against our prefunding (lib/payments/payouts/prefunding-statement.ts). */
  prefundingStatements?: StatementComparison[];
}

const DAY_MS = 86_400_000;
const secondsBetween = (earlier: Date, later: Date) => Math.max(0, (later.getTime() - earlier.getTime()) / 1000);
const asDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

async function jobReadings(db: Executor, now: Date) {
  const live = inArray(jobs.state, ["pending", "running", "dead"]);
  const byState = await db.select({ kind: jobs.kind, state: jobs.state, n: count() }).from(jobs).where(live).groupBy(jobs.kind, jobs.state);
  const due = await db
    .select({ kind: jobs.kind, oldest: min(jobs.runAt) })
    .from(jobs)
    .where(and(eq(jobs.state, "pending"), lte(jobs.runAt, now)))
    .groupBy(jobs.kind);
  const failing = await db
    .select({
      kind: jobs.kind,
      retrying: sql<number>`count(*) filter (where ${jobs.state} = 'pending' and ${jobs.lastError} is not null)`,
      deadLastDay: sql<number>`count(*) filter (where ${jobs.state} = 'dead' and ${jobs.finishedAt} > ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz)`,
    })
    .from(jobs)
    .where(inArray(jobs.state, ["pending", "dead"]))
    .groupBy(jobs.kind);
  return {
    jobs: byState.map((r) => ({ kind: r.kind, state: r.state, n: Number(r.n) })),
    jobQueueAge: due.map((r) => ({ kind: r.kind, seconds: r.oldest ? secondsBetween(asDate(r.oldest)!, now) : 0 })),
    jobFailures: failing
      .map((r) => ({ kind: r.kind, retrying: Number(r.retrying), deadLastDay: Number(r.deadLastDay) }))
      .filter((r) => r.retrying > 0 || r.deadLastDay > 0),
  };
}

async function webhookReadings(db: Executor, now: Date) {
  const [byPartner, probing] = await Promise.all([
    db
      .select({
        partnerId: events.partnerId,
        pending: sql<number>`count(*) filter (where ${events.deliveryState} = 'pending')`,
        failed: sql<number>`count(*) filter (where ${events.deliveryState} = 'failed')`,
        oldestPending: sql<Date | string | null>`min(${events.occurredAt}) filter (where ${events.deliveryState} = 'pending')`,
      })
      .from(events)
      .where(inArray(events.deliveryState, ["pending", "failed"]))
      .groupBy(events.partnerId),
    // A failing endpoint is probed (lib/partners/webhooks/probe-job.ts) until it answers again.
    db
      .selectDistinct({ partnerId: sql<string>`${jobs.payload}->>'partnerId'` })
      .from(jobs)
      .where(and(eq(jobs.kind, "webhooks.probe"), inArray(jobs.state, ["pending", "running"]))),
  ]);
  const failing = new Set(probing.map((p) => p.partnerId));
  const partners = new Set([...byPartner.map((r) => r.partnerId), ...failing]);
  return [...partners].sort().map((partnerId) => {
    const r = byPartner.find((x) => x.partnerId === partnerId);
    const oldest = asDate(r?.oldestPending ?? null);
    return {
      partnerId,
      pending: Number(r?.pending ?? 0),
      failed: Number(r?.failed ?? 0),
      oldestPendingSeconds: oldest ? secondsBetween(oldest, now) : 0,
      endpointFailing: failing.has(partnerId),
    };
  });
}

async function emailReadings(db: Executor, now: Date) {
  const email = eq(otpDeliveries.channel, "EMAIL");
  const [[retrying], [lastSent]] = await Promise.all([
    db
      .select({ n: count() })
      .from(otpDeliveries)
      .where(and(email, eq(otpDeliveries.state, "PENDING"), isNotNull(otpDeliveries.lastError))),
    db
      .select({ at: max(otpDeliveries.sentAt) })
      .from(otpDeliveries)
      .where(and(email, eq(otpDeliveries.state, "SENT"))),
  ]);
  // A mail given up before a later one went out is history: the server has been taking mail since.
  const since = new Date(Math.max(now.getTime() - DAY_MS, asDate(lastSent?.at ?? null)?.getTime() ?? 0));
  const [failed] = await db
    .select({ n: count() })
    .from(otpDeliveries)
    .where(and(email, eq(otpDeliveries.state, "FAILED"), gt(otpDeliveries.failedAt, since)));
  return { retrying: Number(retrying?.n ?? 0), failedSinceLastSent: Number(failed?.n ?? 0) };
}

async function referenceRateReadings(db: Executor) {
  const rows = await db
    .select({ source: referenceRateSets.source, publishedAt: max(referenceRateSets.publishedAt) })
    .from(referenceRateSets)
    .groupBy(referenceRateSets.source);
  return rows.flatMap((r) => (r.publishedAt ? [{ source: r.source, publishedAt: asDate(r.publishedAt)! }] : []));
}

/** A list is fresh from its newest version, or from the last refresh that found it unchanged. */
async function sanctionsListReadings(db: Executor) {
  const c = config();
  const [versions, refreshes] = await Promise.all([
    db
      .select({ list: sanctionsListVersions.list, at: max(sanctionsListVersions.createdAt) })
      .from(sanctionsListVersions)
      .groupBy(sanctionsListVersions.list),
    db
      .select({ list: sql<string>`${jobs.payload}->>'list'`, at: max(jobs.finishedAt) })
      .from(jobs)
      .where(and(eq(jobs.kind, "sanctions.refresh"), eq(jobs.state, "done")))
      .groupBy(sql`${jobs.payload}->>'list'`),
  ]);
  const urls: Record<string, string[]> = {
    "ofac-sdn": c.SANCTIONS_SOURCE_URLS,
    "ofac-consolidated": c.SANCTIONS_OFAC_CONSOLIDATED_URLS,
    "un-consolidated": c.SANCTIONS_UN_URLS,
  };
  return LISTS.map((list) => {
    const times = [versions.find((v) => v.list === list)?.at, refreshes.find((r) => r.list === list)?.at].map((t) => asDate(t ?? null)?.getTime() ?? 0);
    const latest = Math.max(...times);
    // Only a list with sources set is refreshed (every SANCTIONS_REFRESH_HOURS); the shipped copy is loaded once.
    return { list, loadedAt: latest > 0 ? new Date(latest) : null, refreshed: (urls[list] ?? []).length > 0 };
  });
}

async function databaseReadings(db: Executor): Promise<OperationsReadings["database"]> {
  const c = config();
  if (!c.DATABASE_URL) return { driver: "pglite", poolMax: 1, connections: [] };
  // Every node's connections to this database, by state (active, idle, idle in transaction).
  const result = await db.execute(
    sql`select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity where datname = current_database() group by 1`,
  );
  return {
    driver: "postgres",
    poolMax: c.DATABASE_POOL_SIZE,
    connections: rowsOf<{ state: string; n: number }>(result).map((r) => ({ state: r.state, n: Number(r.n) })),
  };
}

async function reconciliationReadings(db: Executor, now: Date) {
  // The newest 60 closing balances (weeks of daily statements): each costs two ledger sums, at every scrape.
  const differences = (await dailyReconciliation(db, now, 60)).filter((l) => l.status === "DIFFERENCE");
  const ages = differences.map((l) => l.ageDays ?? 0);
  return { differences: differences.length, oldestDays: ages.length ? Math.max(...ages) : null };
}

/** Reads everything at `now`; `caseHours`: count open screening cases older than this too (the alert's threshold). */
export async function readOperations(db: Executor, now: Date, opts: { caseHours?: number } = {}): Promise<OperationsReadings> {
  const caseHours = opts.caseHours;
  // One statement after another: a scrape holds one pooled connection at a time, never the pool.
  const jobsRead = await jobReadings(db, now);
  const webhooks = await webhookReadings(db, now);
  const email = await emailReadings(db, now);
  const referenceRates = await referenceRateReadings(db);
  const sanctionsLists = await sanctionsListReadings(db);
  const [screeningOpen] = await db.select({ n: count() }).from(screeningCases).where(eq(screeningCases.state, "OPEN"));
  const screeningOlder =
    caseHours === undefined
      ? null
      : await db
          .select({ n: count() })
          .from(screeningCases)
          .where(and(eq(screeningCases.state, "OPEN"), lte(screeningCases.createdAt, new Date(now.getTime() - caseHours * 3_600_000))))
          .then(([r]) => ({ hours: caseHours, n: Number(r?.n ?? 0) }));
  const cases = await caseCounts(db, now);
  const claimsOverdue = await overdueClaimCount(db, now);
  const reconciliation = await reconciliationReadings(db, now);
  const database = await databaseReadings(db);
  const prefunding = await liquidityForecast(db, now);
  const withoutRoute = await payoutsWithoutRoute(db, now);
  const returned = await returnedPayouts(db);
  const prefundingStatements = await latestPrefundingStatements(db);
  return {
    at: now,
    ...jobsRead,
    webhooks,
    email,
    referenceRates,
    sanctionsLists,
    screeningCasesOpen: Number(screeningOpen?.n ?? 0),
    screeningCasesOlder: screeningOlder,
    complianceCasesOpen: Number(cases.openCases),
    complianceCasesOverdue: Number(cases.overdueCases),
    claimsOverdue,
    reconciliation,
    database,
    prefunding,
    payoutsWithoutRoute: withoutRoute,
    returnedPayouts: returned,
    prefundingStatements,
  };
}
