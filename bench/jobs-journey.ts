/**
 * The jobs of a journey, counted: BENCH_JOURNEYS sequential journeys (bench/journey.ts's, one at a
 * time, each awaited) on PostgreSQL with the split deployment, the worker process reaching the
 * database through a counting proxy of its own (bench/lib/pg-count-proxy.mjs), `WORKER_POLL_MS=60000`
 * so only commits wake it. After the journeys, waits until no job is due or running, then reports per
 * journey: the worker's statements (BEGIN/COMMIT apart), the web process's, the jobs run by kind, and
 * the worker's CPU (informative only: counts are what the machine's load does not change).
 *
 * A before/after of a worker lever: BENCH_WORKER_DIR=<a checkout> runs that checkout's worker
 * (scripts/worker.ts, its code by tsx) beside this app's web build (BENCH_APP_DIR as bench/server.mjs).
 *   BENCH_DATABASE_URL=postgres://... BENCH_APP_DIR=/work/main BENCH_WORKER_DIR=/work/main node --import tsx bench/jobs-journey.ts
 */
import { loadavg } from "node:os";
// @ts-expect-error: plain ESM helpers
import { startServer } from "./server.mjs";
import { onboardCustomers } from "./lib/partner";
import { runJourneys } from "./journey";

const JOURNEYS = Number(process.env.BENCH_JOURNEYS ?? 15);

async function main() {
  const server = await startServer(
    { FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0", WORKER_POLL_MS: "60000" },
    { driver: "postgres", separateWorker: true, countStatements: true, countWorkerApart: true, workerDir: process.env.BENCH_WORKER_DIR },
  );
  const { default: postgres } = await import("postgres");
  const sql = postgres(server.databaseUrl!, { max: 1, onnotice: () => {} });
  try {
    /** Waits until no job is due now or running (delayed jobs, timers, stay pending). */
    const quiet = async () => {
      for (let i = 0; i < 600; i++) {
        const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from jobs where state = 'running' or (state = 'pending' and run_at <= now())`;
        if (n === 0) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("jobs kept running");
    };
    const byKind = async () =>
      new Map(
        (await sql<{ kind: string; n: number }[]>`select kind, count(*)::int as n from jobs where state = 'done' group by kind`).map((r) => [r.kind, r.n]),
      );
    const customers = await onboardCustomers(server.baseUrl, JOURNEYS);
    await quiet();
    const w0 = server.workerStatements()!;
    const s0 = server.statements()!;
    const k0 = await byKind();
    const cpu0 = server.cpuSplit().worker!;
    for (let i = 0; i < JOURNEYS; i++) {
      const load = await runJourneys(server.baseUrl, [customers[i]], 1, 1);
      if (load.completed !== 1) throw new Error(`journey ${i} failed: ${JSON.stringify(load.calls.filter((c) => c.errors > 0))}`);
    }
    await quiet();
    const w1 = server.workerStatements()!;
    const s1 = server.statements()!;
    const k1 = await byKind();
    const cpu1 = server.cpuSplit().worker!;
    const per = (n: number) => Math.round((n / JOURNEYS) * 100) / 100;
    const jobs: Record<string, number> = {};
    for (const [kind, n] of k1) if (n - (k0.get(kind) ?? 0) > 0) jobs[kind] = per(n - (k0.get(kind) ?? 0));
    console.log(
      JSON.stringify({
        journeys: JOURNEYS,
        workerDir: process.env.BENCH_WORKER_DIR ?? "(the app's)",
        load: loadavg().map((l) => Math.round(l * 10) / 10),
        perJourney: {
          workerStatements: per(w1.statements - w0.statements - (w1.control - w0.control)),
          workerBeginCommit: per(w1.control - w0.control),
          webStatements: per(s1.statements - s0.statements - (s1.control - s0.control)),
          webBeginCommit: per(s1.control - s0.control),
          jobsDone: Object.values(jobs).reduce((a, b) => a + b, 0),
          jobs,
          workerCpuMs: per((cpu1.all - cpu0.all) * 1000),
        },
      }),
    );
  } finally {
    await sql.end();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
