/**
 * CPU profile of the server per route: first the bare app (bench/bare-app, its
 * own `node --cpu-prof` process) under wrk, then one `node --cpu-prof` server of ours, loaded in
 * turn by each read of the per-call table (wrk, c=50, each in its own window), each write and the
 * journey's calls between them (a closed loop of 50 callers over prepared inputs,
 * bench/lib/writes.ts), and last by the transfer journey itself (bench/journey.ts's open-loop
 * arrivals at the spec's polling cadence), whose calls and jobs interleave: its samples are split
 * by what is on their stack (bench/lib/owners.ts). On PostgreSQL the job worker runs in a second
 * profiled process, so each window also says what the jobs its calls caused cost. Each window's
 * CPU is read from /proc (each process's threads together and its main thread, bench/lib/proc-cpu.mjs);
 * its samples (the profile's clock is process.hrtime's) are mapped to source file:line through the
 * build's source maps and only divide that CPU: shares of the busy samples per function (self and
 * inclusive), per category and per owner.
 *   BENCH_DRIVER=pglite|postgres, BENCH_SECONDS (5, per read), BENCH_READS (all; detail: the
 *   transfer detail only), BENCH_WRITES (300; 0: the reads only), BENCH_PROFILE_JOURNEY_RATE (8
 *   journeys/s; 0: no journey window) for BENCH_PROFILE_JOURNEY_SECONDS (10). Prints JSON on stdout.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error: plain ESM helpers
import { adminUrl, startServer } from "./server.mjs";
// @ts-expect-error: plain ESM helpers
import { startBareApp } from "./lib/bare-app.mjs";
// @ts-expect-error: plain ESM helpers
import { wrk } from "./lib/wrk.mjs";
// @ts-expect-error: plain ESM helpers
import { cpuBetween, processCpu } from "./lib/proc-cpu.mjs";
import { summarize, type CpuProfile, type Summary } from "./lib/cpu-profile";
import { onboardCustomers, pooled } from "./lib/partner";
import { FEATURES, jobFiles, ownerOf } from "./lib/owners";
import { sourceMapLocator } from "./lib/source-maps";
import { runWrites } from "./lib/writes";
import { readsOf } from "./calls";
import { runJourneys } from "./journey";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WRITES = Number(process.env.BENCH_WRITES ?? 300);
const ALL_READS = process.env.BENCH_READS !== "detail";
const JOURNEY_RATE = Number(process.env.BENCH_PROFILE_JOURNEY_RATE ?? 8);
const JOURNEY_SECONDS = Number(process.env.BENCH_PROFILE_JOURNEY_SECONDS ?? 10);
const C = 50;
/** wrk's warm-up before each read's window, s (outside the window). */
const WARMUP = 2;
// The profiled app's checkout (BENCH_APP_DIR serves another one's build): its source maps and its job files.
const appRoot = process.env.BENCH_APP_DIR ?? path.resolve(import.meta.dirname, "..");

/** A process's CPU over a window, ms (bench/lib/proc-cpu.mjs cpuBetween). */
interface CpuUsed {
  all: number;
  main: number;
  otherThreads: number;
}

/**
 * The CPU a window used, from /proc: the serving process's (all threads, the main thread), the
 * worker process's when it runs apart, and `all` the server's processes together (the cluster
 * primary bench/cluster.mjs runs the profiled server under among them), ms.
 */
interface WindowCpu {
  web: CpuUsed | null;
  worker: CpuUsed | null;
  all: number;
}

interface Window {
  route: string;
  from: number;
  to: number;
  requests: number;
  cpu: WindowCpu;
}

type Split = { web: unknown; worker: unknown; all: number };
const cpuOver = (before: Split, after: Split): WindowCpu => ({
  web: cpuBetween(before.web, after.web),
  worker: cpuBetween(before.worker, after.worker),
  all: (after.all - before.all) * 1000,
});

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The busiest .cpuprofile in dir: the most samples outside "(idle)". The cluster primary
 * (bench/cluster.mjs) writes one too; on a loaded machine its file, mostly idle samples, can be the
 * largest, so size does not tell them apart.
 */
function biggestProfile(dir: string): CpuProfile {
  const busy = (p: CpuProfile) => {
    const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
    return p.samples.filter((id) => !idle.has(id)).length;
  };
  const profiles = readdirSync(dir).map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as CpuProfile);
  return profiles.reduce((a, b) => (busy(b) > busy(a) ? b : a));
}

/** The bare app's profile under wrk: the first row, what Next itself costs per request. */
async function profileBareApp() {
  const dir = mkdtempSync(path.join(tmpdir(), "remit-prof-bare-"));
  try {
    const bare = await startBareApp(adminUrl(), { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
    let window: Window;
    try {
      // The warm-up outside the window: a window's samples are then those of its counted requests.
      await wrk(bare.readUrl, { seconds: WARMUP, warmup: 0 });
      const from = nowUs();
      const before = processCpu(bare.pid);
      const r = await wrk(bare.readUrl, { seconds: SECONDS, warmup: 0 });
      const web = cpuBetween(before, processCpu(bare.pid));
      window = { route: "bare app: GET /v1/db/read", from, to: nowUs(), requests: r.requests as number, cpu: { web, worker: null, all: web?.all ?? NaN } };
    } finally {
      await bare.stop();
    }
    const { route, requests, cpu } = window;
    return { route, requests, cpu, summary: summarize(biggestProfile(dir), sourceMapLocator(appRoot), window, 10) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function profileRoutes(driver: "postgres" | "pglite" = "postgres") {
  const bareRow = await profileBareApp();
  const dir = mkdtempSync(path.join(tmpdir(), "remit-prof-"));
  // On PostgreSQL the job worker runs in a profiled process of its own: its samples in a window are
  // the jobs the window's calls caused, whole, which a stack in the web process could not tell
  // from the calls (an awaited continuation shows no caller). PGlite runs its jobs in the web process.
  const workerDir = driver === "postgres" ? mkdtempSync(path.join(tmpdir(), "remit-prof-worker-")) : null;
  const server = await startServer(
    { FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0" },
    {
      driver,
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
      separateWorker: Boolean(workerDir),
      workerNodeArgs: workerDir ? ["--cpu-prof", `--cpu-prof-dir=${workerDir}`] : [],
    },
  );
  const windows: Window[] = [];
  // A window lasts until the jobs its calls caused have run: the worker's process is quiet (under
  // 20 ms of CPU in 300 ms, its polls aside), so no job is counted in the next window.
  const jobsDone = async () => {
    if (!workerDir) return;
    for (let i = 0; i < 50; i++) {
      const before = server.workerCpu();
      await new Promise((r) => setTimeout(r, 300));
      if (server.workerCpu() - before < 0.02) return;
    }
  };
  const timed = async <T>(route: string, requests: (out: T) => number, load: () => Promise<T>) => {
    const from = nowUs();
    const before = server.cpuSplit();
    const out = await load();
    await jobsDone();
    windows.push({ route, from, to: nowUs(), requests: requests(out), cpu: cpuOver(before, server.cpuSplit()) });
    return out;
  };
  const closedLoop = <I, O>(route: string, items: I[], work: (item: I) => Promise<O>) =>
    timed(
      route,
      (out: Awaited<O>[]) => out.length,
      async () => {
        const out = await pooled(items, C, (item) => work(item).catch(() => undefined));
        return out.filter((x) => x !== undefined) as Awaited<O>[];
      },
    );
  let stopped = false;
  try {
    const customers = await onboardCustomers(server.baseUrl, 20);
    const reads = (await readsOf(server.baseUrl, customers[0])).filter(
      ([route, , , kind]) => kind === "read" && (ALL_READS || route.includes("{id} (registered)")),
    );
    for (const [route, urlPath, headers] of reads) {
      const url = `${server.baseUrl}${urlPath}`;
      // The warm-up outside the window: a window's samples are then those of its counted requests.
      await wrk(url, { headers, seconds: WARMUP, warmup: 0 });
      // And the jobs run before it (the onboarding's, at the first read) out of it too: their CPU
      // is not the read's.
      await jobsDone();
      await timed(
        route,
        (r: { requests: number }) => r.requests,
        () => wrk(url, { headers, seconds: SECONDS, warmup: 0 }),
      );
    }
    if (WRITES > 0) await runWrites(server.baseUrl, customers, WRITES, closedLoop, closedLoop);
    // The journey: its calls and the jobs they cause interleave, so one window for all of it. The
    // writes' jobs end first.
    let journey;
    if (JOURNEY_RATE > 0) {
      await new Promise((r) => setTimeout(r, 2000));
      const before = server.cpuSplit();
      const from = nowUs();
      const load = await runJourneys(server.baseUrl, customers, JOURNEY_RATE, JOURNEY_SECONDS);
      await jobsDone();
      const to = nowUs();
      journey = {
        route: `journeys (${load.completed} of ${load.total} at ${JOURNEY_RATE}/s)`,
        rate: JOURNEY_RATE,
        seconds: JOURNEY_SECONDS,
        window: { from, to },
        requests: load.completed,
        failed: load.total - load.completed,
        calls: load.calls.map(({ name, count }) => ({ name, count })),
        cpu: cpuOver(before, server.cpuSplit()),
      };
    }
    await server.stop();
    stopped = true;
    const prof = biggestProfile(dir);
    const locate = sourceMapLocator(appRoot);
    const owner = ownerOf(jobFiles(appRoot));
    const workerProf = workerDir ? biggestProfile(workerDir) : null;
    // The worker's samples in a window: the jobs run meanwhile, by the handler on their stacks.
    const jobsIn = (w: { from: number; to: number }) => (workerProf ? summarize(workerProf, locate, w, 10, owner, FEATURES) : undefined);
    const routes: { route: string; requests: number; cpu: WindowCpu; summary: Summary; worker?: Summary }[] = [bareRow];
    routes.push(
      ...windows.map((w) => ({
        route: w.route,
        requests: w.requests,
        cpu: w.cpu,
        summary: summarize(prof, locate, w, 10, owner, FEATURES),
        worker: jobsIn(w),
      })),
    );
    return {
      database: server.database,
      seconds: SECONDS,
      warmup: WARMUP,
      writes: WRITES,
      at: new Date().toISOString(),
      load: loadavg()[0],
      routes,
      journey: journey && {
        ...journey,
        window: undefined,
        summary: summarize(prof, locate, journey.window, 10, owner, FEATURES),
        worker: jobsIn(journey.window),
      },
    };
  } finally {
    if (!stopped) await server.stop();
    rmSync(dir, { recursive: true, force: true });
    if (workerDir) rmSync(workerDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  profileRoutes((process.env.BENCH_DRIVER as "postgres" | "pglite") ?? "postgres").then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
