/**
 * The cost of the limit reservation at quote accept (issue 23): one transaction that locks the
 * customer's subscription and sums its windows (reserveWithinLimits), against the same
 * transaction with the lock only, for a customer with BENCH_LIMITS_HISTORY transfers counted over
 * the last 180 days. Sequential, one connection: the added latency per accept, not throughput.
 *
 *   npx tsx bench/limits.ts                                   # PGlite
 *   TEST_DB_URL=postgres://postgres@127.0.0.1:5432/db npx tsx bench/limits.ts   # a fresh PostgreSQL database
 *
 * Prints p50 and p99 in milliseconds of each, and their difference.
 */
import { eq } from "drizzle-orm";
import { subscriptions, transfers } from "@/db/schema";
import { clock } from "@/lib/clock";
import { sandboxReferenceRates } from "@/lib/pricing/reference-rate";
import { freshDb } from "../test/support/db";
import { newSubscription, registeredTransfer } from "../test/support/fixtures";

const HISTORY = Number(process.env.BENCH_LIMITS_HISTORY ?? 200);
const RUNS = Number(process.env.BENCH_LIMITS_RUNS ?? 500);
const DAY = 86_400_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const { db, close } = await freshDb();
  const { reserveWithinLimits } = await import("@/lib/limits/usage");
  const owner = await newSubscription(db);
  for (let i = 0; i < HISTORY; i++) {
    const t = await registeredTransfer(db, owner);
    const createdAt = new Date(clock.now().getTime() - ((i * 179) / HISTORY) * DAY - 60_000);
    await db.update(transfers).set({ limitAmount: "1.000000", limitCurrency: "USD", createdAt }).where(eq(transfers.id, t.id));
  }
  const time = async (work: () => Promise<unknown>) => {
    const out: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      await work();
      out.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return out.sort((a, b) => a - b);
  };
  const lockOnly = () =>
    db.transaction((tx) => tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.id, owner.subscriptionId)).for("update"));
  const reserve = () =>
    db.transaction((tx) =>
      reserveWithinLimits(tx, {
        subscriptionId: owner.subscriptionId,
        originAmount: "100.000000",
        originCurrency: "USD",
        rates: sandboxReferenceRates,
        now: clock.now(),
      }),
    );
  await time(reserve); // warm-up (prepared plans, caches)
  const [base, full] = [await time(lockOnly), await time(reserve)];
  const row = (name: string, s: number[]) => `${name}: p50 ${percentile(s, 50).toFixed(2)} ms, p99 ${percentile(s, 99).toFixed(2)} ms`;
  console.log(`${process.env.TEST_DB_URL ? "PostgreSQL" : "PGlite"}, ${HISTORY} counted transfers, ${RUNS} runs`);
  console.log(row("transaction with the lock only", base));
  console.log(row("reserveWithinLimits (lock + window sums)", full));
  console.log(
    `added by the sums: p50 ${(percentile(full, 50) - percentile(base, 50)).toFixed(2)} ms, p99 ${(percentile(full, 99) - percentile(base, 99)).toFixed(2)} ms`,
  );
  await close();
}

void main();
