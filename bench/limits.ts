/**
 * Part of npm run bench (BENCH_ONLY=limits): what the limit reservation adds to a quote accept
 * (at most 5 ms p99, PostgreSQL). A fresh PostgreSQL database on BENCH_DATABASE_URL,
 * one customer with BENCH_LIMITS_HISTORY transfers counted over the last 180 days (default 200),
 * copied in SQL to BENCH_LIMITS_CUSTOMERS other customers (default 100: the table is then large
 * enough that PostgreSQL reads it through its indexes, as in service), then BENCH_LIMITS_RUNS
 * transactions (default 500), sequential, on one connection.
 *
 * What is timed: reserveWithinLimits alone, inside a transaction that is already open, as in
 * accept (lib/payments/quotes/accept.ts), whose transaction's BEGIN, COMMIT and its other locks are the
 * accept's, not the reservation's; and this process's CPU over the call (building the statements,
 * postgres.js, the sums in decimal), which the machine's load does not change. Beside it, on the
 * same connection in the same transactions: one round trip (`select 1`), the floor of any
 * statement; and the usage statement's execution
 * inside PostgreSQL (EXPLAIN ANALYZE: time, plan, heap fetches, buffers), which no client load
 * changes. The seeded table is vacuumed first, as autovacuum leaves transfers that stopped
 * changing: their rows are then read from the index alone.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/limits.ts
 *
 * Prints one JSON line: the figures for docs/performance.md (bench/lib/report.mjs).
 */
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { inOwnDatabase } from "./lib/own-database";

const HISTORY = Number(process.env.BENCH_LIMITS_HISTORY ?? 200);
const RUNS = Number(process.env.BENCH_LIMITS_RUNS ?? 500);
const OTHERS = Number(process.env.BENCH_LIMITS_CUSTOMERS ?? 100);
/** A copied row's keys: the source's with the copy's number appended. */
const COPIED_KEYS = ["id", "customer_id", "subscription_id", "quote_id", "jti"];
const EXPLAINS = 50;
const DAY = 86_400_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n: number) => Math.round(n * 100) / 100;
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p99: round(percentile(s, 99)), max: round(s[s.length - 1]) };
};

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Heap Fetches"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

/** The scan of transfers in a plan (the leaf under the aggregate). */
function scanOf(node: PlanNode): PlanNode {
  return node.Plans?.length ? scanOf(node.Plans[0]) : node;
}

async function main() {
  await inOwnDatabase("limits", async (url) => {
    process.env.DATABASE_POOL_SIZE = "1";
    process.env.LOG_LEVEL ??= "silent";
    const { eq, sql } = await import("drizzle-orm");
    const { ready } = await import("@/lib/platform/ready");
    (await import("@/lib/operations/runtime/start-steps")).installStartSteps();
    const { closeDb, rowsOf } = await import("@/db");
    const { transfers } = await import("@/db/schema");
    const { clock } = await import("@/lib/platform/clock");
    const { sandboxReferenceRates } = await import("@/lib/payments/pricing/reference-rate");
    const { reserveWithinLimits, usageSelect } = await import("@/lib/payments/limits/usage");
    const { newSubscription, registeredTransfer } = await import("../test/support/fixtures");
    const db = await ready();
    const owner = await newSubscription(db);
    for (let i = 0; i < HISTORY; i++) {
      const t = await registeredTransfer(db, owner);
      const createdAt = new Date(clock.now().getTime() - ((i * 179) / HISTORY) * DAY - 60_000);
      await db.update(transfers).set({ limitAmount: "1.000000", limitCurrency: "USD", createdAt }).where(eq(transfers.id, t.id));
    }
    // The other customers: copies of this one's customer, subscription, quotes and transfers.
    for (const [table, where] of [
      ["customers", `t.id = '${owner.customerId}'`],
      ["subscriptions", `t.id = '${owner.subscriptionId}'`],
      ["quotes", `t.subscription_id = '${owner.subscriptionId}'`],
      ["transfers", `t.subscription_id = '${owner.subscriptionId}'`],
    ]) {
      const columns = rowsOf<{ name: string }>(
        await db.execute(
          sql`select column_name as name from information_schema.columns where table_schema = 'public' and table_name = ${table} order by ordinal_position`,
        ),
      ).map((c) => c.name);
      const values = columns.map((c) => (COPIED_KEYS.includes(c) ? `t.${c} || '_' || g` : `t.${c}`));
      await db.execute(
        sql.raw(
          `insert into ${table} (${columns.join(", ")}) select ${values.join(", ")} from ${table} t cross join generate_series(1, ${OTHERS}) g where ${where}`,
        ),
      );
    }
    await db.execute(sql`vacuum (index_cleanup on, analyze)`);

    const reserve = { times: [] as number[], cpu: [] as number[], roundTrip: [] as number[] };
    const run = () =>
      db.transaction(async (tx) => {
        const one = performance.now();
        await tx.execute(sql`select 1`);
        const started = performance.now();
        const cpu = process.cpuUsage();
        await reserveWithinLimits(tx, {
          subscriptionId: owner.subscriptionId,
          originAmount: "100.000000",
          originCurrency: "USD",
          rates: sandboxReferenceRates,
          now: clock.now(),
        });
        const used = process.cpuUsage(cpu);
        return [started - one, performance.now() - started, (used.user + used.system) / 1000];
      });
    for (let i = 0; i < 50; i++) await run(); // warm-up: the connection's prepared statements, caches
    for (let i = 0; i < RUNS; i++) {
      const [roundTrip, reservation, cpu] = await run();
      reserve.roundTrip.push(roundTrip);
      reserve.times.push(reservation);
      reserve.cpu.push(cpu);
    }

    const explained: { ms: number; scan: PlanNode }[] = [];
    const plain = postgres(url, { max: 1, onnotice: () => {} });
    for (let i = 0; i < EXPLAINS; i++) {
      const usage = usageSelect(db, owner.subscriptionId, clock.now()).toSQL();
      const [row] = await plain.unsafe(`explain (analyze, buffers, format json) ${usage.sql}`, usage.params as string[]);
      const [plan] = row["QUERY PLAN"] as [{ Plan: PlanNode; "Execution Time": number }];
      explained.push({ ms: plan["Execution Time"], scan: scanOf(plan.Plan) });
    }
    await plain.end();
    const scan = explained[explained.length - 1].scan;
    console.log(
      JSON.stringify({
        history: HISTORY,
        transfers: HISTORY * (OTHERS + 1),
        runs: RUNS,
        reservation: summary(reserve.times),
        processCpu: summary(reserve.cpu),
        roundTrip: summary(reserve.roundTrip),
        usageStatement: {
          runs: EXPLAINS,
          ...summary(explained.map((e) => e.ms)),
          scan: scan["Node Type"],
          index: scan["Index Name"] ?? null,
          heapFetches: scan["Heap Fetches"] ?? null,
          buffers: (scan["Shared Hit Blocks"] ?? 0) + (scan["Shared Read Blocks"] ?? 0),
        },
      }),
    );
    await closeDb();
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
