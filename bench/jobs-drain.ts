/**
 * Job drain rate (job latency): N transfers in registered, each with its fast-check due
 * now, drained by one worker loop (lib/platform/jobs/run-loop.ts) with nothing else running. Reports
 * fast-checks/s and, on PostgreSQL, statements per job (counted on the wire by
 * bench/lib/pg-count-proxy.mjs, BEGIN/COMMIT apart), transactions per job and so round trips per job. Fast-check emits an event: its webhook delivery (no
 * webhook URL: settled undeliverable) runs in the same drain, on its own lane.
 *
 * BENCH_RATE (fast-checks/s): not a backlog but a trickle, as a web process's commits make them:
 * each fast-check comes due at its turn (its run_at moved to now, the worker woken as a commit
 * wakes it), so what is measured is the cost of jobs claimed as they come, not of a full window.
 *
 *   node --import tsx bench/jobs-drain.ts                      # PGlite, N=500
 *   BENCH_DB_URL=postgres://... BENCH_JOBS=500 node --import tsx bench/jobs-drain.ts
 *   BENCH_DB_URL=postgres://... BENCH_JOBS=300 BENCH_RATE=60 node --import tsx bench/jobs-drain.ts
 */
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import type { Db } from "@/db";

async function main() {
  const N = Number(process.env.BENCH_JOBS ?? 500);
  const RATE = Number(process.env.BENCH_RATE ?? 0);
  // @ts-expect-error: plain ESM helper
  const { startCountingProxy } = await import("./lib/pg-count-proxy.mjs");
  const proxy = process.env.BENCH_DB_URL ? await startCountingProxy(new URL(process.env.BENCH_DB_URL)) : null;
  if (proxy) {
    const url = new URL(process.env.BENCH_DB_URL!);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    process.env.DATABASE_URL = url.toString();
  } else process.env.PGLITE_DIR = mkdtempSync(path.join(tmpdir(), "remit-drain-"));
  // Statements executed so far (PostgreSQL only: PGlite runs in this process, nothing to count on a wire).
  const statementsRun = (): number => (proxy ? proxy.counts().statements - proxy.counts().control : NaN);
  process.env.LOG_LEVEL ??= "silent";
  process.env.IN_PROCESS_WORKER = "false";

  const { and, eq, inArray, sql } = await import("drizzle-orm");
  const { getDb, closeDb } = await import("@/db");
  const { ready } = await import("@/lib/platform/ready");
  (await import("@/lib/operations/runtime/start-steps")).installStartSteps();
  const { newId } = await import("@/db/ids");
  const { beneficiaries, events, jobs, payoutMethods, transfers } = await import("@/db/schema");
  const { clock } = await import("@/lib/platform/clock");
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  const { dedupeKey } = await import("@/lib/platform/jobs/queue");
  const { effectsOf } = await import("@/lib/platform/unit-of-work");
  const { wakeWorker } = await import("@/lib/platform/jobs/wake");
  const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
  const { startWorkerLoop } = await import("@/lib/platform/jobs/run-loop");
  const { insertTestTransfer, newSubscription } = await import("../test/support/fixtures");

  const db = await ready();
  await db.delete(jobs);
  const owner = await newSubscription(db);
  const now = clock.now();
  const beneficiaryId = newId("ben");
  const methodId = newId("pm");
  await db.transaction(async (tx) => {
    await tx.insert(beneficiaries).values({
      id: beneficiaryId,
      subscriptionId: owner.subscriptionId,
      firstName: "Ana",
      lastName: "Ruiz",
      countryOfResidence: "MEX",
      relationshipToCustomer: "FAMILY",
      state: "VALID",
      createdAt: now,
      updatedAt: now,
    });
    const identifier = "002010077777777771";
    await tx.insert(payoutMethods).values({
      id: methodId,
      beneficiaryId,
      methodType: "BANK_TRANSFER",
      corridor: "US-MX",
      destinationIdentifierEncrypted: (await destinationCipher(tx)).encrypt(identifier, methodId),
      destinationIdentifierMasked: `****${identifier.slice(-4)}`,
      addedAt: now,
    });
  });
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    await db.transaction(async (tx) => {
      // A subscription each, as many customers do: deliveries of one subscription wait in sequence.
      const t = await insertTestTransfer(tx, i === 0 ? owner : await newSubscription(tx as unknown as Db), now);
      await tx.update(transfers).set({ beneficiaryId, payoutMethodId: methodId, submittedAt: now }).where(eq(transfers.id, t.id));
      // A trickle's jobs wait until their turn (far in the future until then).
      const runAt = RATE > 0 ? new Date(now.getTime() + 86_400_000) : now;
      await effectsOf(tx).jobs.schedule("transfers.fastCheck", { transferId: t.id }, { runAt, dedupeKey: dedupeKey("transfers.fastCheck", t.id) });
      ids.push(t.id);
    });
  }
  // The events of creation settled (no webhook URL) before the clock starts: only fast-check's own.
  await db.update(jobs).set({ state: "done" }).where(eq(jobs.kind, "webhooks.deliver"));
  await db.update(events).set({ deliveryState: "undeliverable" });

  // Transactions the worker opens (each adds BEGIN and COMMIT round trips to the statements).
  let transactions = 0;
  const transaction = db.transaction.bind(db);
  db.transaction = ((...args: Parameters<typeof transaction>) => (transactions++, transaction(...args))) as typeof db.transaction;
  const remaining = async () =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(jobs)
          .where(and(sql`${jobs.state} in ('pending', 'running')`, sql`${jobs.runAt} <= now()`))
      )[0].n,
    );
  const load = loadavg()[0].toFixed(2);
  const [{ done0 }] = await db
    .select({ done0: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.state, "done"));
  const s0 = statementsRun();
  let polls = 0;
  // This process's CPU over the drain: the worker's (and, on PGlite, the database's) cost per job.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // Only the kinds this drain makes: no periodic job (sanctions refresh, purge) runs meanwhile.
  const loop = startWorkerLoop(getDb, { "transfers.fastCheck": jobRegistry["transfers.fastCheck"], "webhooks.deliver": jobRegistry["webhooks.deliver"] });
  let fastDoneAt = 0;
  // The trickle: one fast-check due every 1/RATE s, the worker woken as a commit wakes it.
  const trickle = (async () => {
    if (RATE <= 0) return 0;
    for (let i = 0; i < N; i++) {
      await db
        .update(jobs)
        .set({ runAt: clock.now() })
        .where(and(eq(jobs.kind, "transfers.fastCheck"), eq(jobs.dedupeKey, dedupeKey("transfers.fastCheck", ids[i]))));
      wakeWorker();
      await new Promise((r) => setTimeout(r, 1000 / RATE));
    }
    return N;
  })();
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    polls += 1;
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(and(eq(jobs.kind, "transfers.fastCheck"), eq(jobs.state, "done")));
    if (!fastDoneAt && n >= N) fastDoneAt = performance.now();
    if (fastDoneAt && (await remaining()) === 0) break;
    if (fastDoneAt) polls += 1;
  }
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  await loop.stop();
  // Less the trickle's own statements (one per job made due).
  const statements = statementsRun() - s0 - polls - 1 - (await trickle);
  const [{ validated }] = await db
    .select({ validated: sql<number>`count(*)::int` })
    .from(transfers)
    .where(and(eq(transfers.state, "validated"), inArray(transfers.id, ids)));
  const [{ jobsRun }] = await db
    .select({ jobsRun: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.state, "done"));
  const ranJobs = jobsRun - done0;
  console.log(
    JSON.stringify({
      driver: process.env.BENCH_DB_URL ? "postgres" : "pglite",
      fastChecks: N,
      arrivalsPerSecond: RATE > 0 ? RATE : "all due at once",
      perKind: process.env.JOB_KIND_CONCURRENCY ?? "default",
      validated,
      jobsRun: ranJobs,
      fastCheckDrainMs: Math.round(fastDoneAt - t0),
      fastChecksPerSecond: Math.round((N / (fastDoneAt - t0)) * 1000),
      allDrainMs: Math.round(t1 - t0),
      statementsPerJob: +(statements / ranJobs).toFixed(2),
      cpuMsPerJob: +((cpu.user + cpu.system) / 1000 / ranJobs).toFixed(2),
      transactionsPerJob: +(transactions / ranJobs).toFixed(2),
      roundTripsPerJob: +((statements + 2 * transactions) / ranJobs).toFixed(2),
      loadAverage: load,
    }),
  );
  await closeDb();
  await proxy?.close();
}

void main();
