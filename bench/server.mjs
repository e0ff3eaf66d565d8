// Starts a production server for a benchmark (on a fresh PostgreSQL database when BENCH_DATABASE_URL
// or TEST_DATABASE_URL is set and the caller does not ask for PGlite) and samples its resident memory.
// The server is started as `npm start` starts it: scripts/start.mjs (its configuration check, its
// Node options and memory settings, `next start`), with the application's own defaults (log level,
// worker poll) unless the caller sets one; the split deployment as `IN_PROCESS_WORKER=false npm
// start` beside `npm run worker`. With { instances: 2 } (PostgreSQL only) bench/cluster.mjs runs two
// Next servers behind one port.
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildIsStale } from "../scripts/build-stale.mjs";
import { serverEnv, serverNodeArgs } from "../scripts/server-node-args.mjs";
import { startCountingProxy } from "./lib/pg-count-proxy.mjs";
import { portsFrom } from "./lib/ports.mjs";
import { processCpu, statSeconds } from "./lib/proc-cpu.mjs";

const root = path.resolve(import.meta.dirname, "..");
// BENCH_APP_DIR: serve another checkout's production build (a before/after of a lever, e.g. the
// journey: `BENCH_APP_DIR=/work/old node --import tsx bench/journey.ts`), run by this checkout's
// bench; that checkout builds itself. Its web process (`next start`, or bench/cluster.mjs, which
// reads BENCH_APP_DIR too) and its job worker process (its scripts/worker.ts) both run its code.
const appDir = () => process.env.BENCH_APP_DIR ?? root;
const next = () => path.join(appDir(), "node_modules/next/dist/bin/next");
export const KEY = "sandbox-demo-key";

/** Builds when the build is missing or older than the sources (scripts/start.mjs would build at start, inside the bench's start-up wait). */
export function ensureBuild() {
  if (process.env.BENCH_APP_DIR || (!buildIsStale(root) && !process.env.BENCH_REBUILD)) return;
  const res = spawnSync(process.execPath, [next(), "build"], { cwd: root, stdio: "inherit" });
  if (res.status !== 0) throw new Error("next build failed");
}

export function adminUrl() {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
}

async function freshPostgres(admin) {
  const { default: postgres } = await import("postgres");
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  const name = `${process.env.BENCH_DB_PREFIX ?? "remit_bench"}_${Date.now()}`;
  await sql.unsafe(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    /** Committed transactions in the bench database so far (each autocommit statement is one). */
    commits: async () => Number((await sql`select xact_commit from pg_stat_database where datname = ${name}`)[0]?.xact_commit ?? 0),
    drop: async () => {
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}

/** Resident set size (MB) of a process and its children. */
export function rssMb(pid) {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "--ppid", String(pid), "-p", String(pid)], { encoding: "utf8" });
    return Math.round(
      out
        .split("\n")
        .filter(Boolean)
        .reduce((sum, kb) => sum + Number(kb), 0) / 1024,
    );
  } catch {
    return null;
  }
}

/** CPU seconds used so far by a process and its children (utime + stime from /proc). */
export function cpuSeconds(pid) {
  const pids = [pid, ...childPids(pid)];
  let seconds = 0;
  for (const p of pids) {
    try {
      seconds += statSeconds(readFileSync(`/proc/${p}/stat`, "utf8"));
    } catch {
      // The process ended meanwhile.
    }
  }
  return seconds;
}

/** One process's own resident memory (MB), without its children. */
function rssOf(pid) {
  try {
    return Math.round(Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) / 1024);
  } catch {
    return null;
  }
}

/** The node processes `pid` started (ps; none: []). */
function childPids(pid) {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // ps exits 1 when the process has no children.
  }
}

/**
 * A process's resident memory by kind, MB (/proc/PID/status): anonymous (heaps, WebAssembly
 * memory, malloc's arenas, stacks), file-backed (the node binary and the libraries mapped from
 * disk) and shared memory.
 */
export function residentMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { anon: Math.round(kb("RssAnon") / 1024), file: Math.round(kb("RssFile") / 1024), shmem: Math.round(kb("RssShmem") / 1024) };
  } catch {
    return null;
  }
}

const TICKS = 100; // USER_HZ: /proc's clock ticks per second on Linux

/** The whole machine's busy and total CPU seconds so far (all cores; /proc/stat's first line). */
export function machineCpu() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

// BENCH_PORT pins our servers' ports (3 apart, as before); unset, each takes a free one.
const nextPort = portsFrom(process.env.BENCH_PORT, 3);
/**
 * @param {Record<string,string>} env
 * @param {{ driver?: "postgres" | "pglite", instances?: number, nodeArgs?: string[], countStatements?: boolean, separateWorker?: boolean, workerNodeArgs?: string[], workerDir?: string, countWorkerApart?: boolean, probe?: boolean }} opts
 *   nodeArgs (e.g. --cpu-prof): Node options for the server process (scripts/start.mjs's arguments;
 *   under bench/cluster.mjs its workers inherit them).
 *   countStatements (PostgreSQL): the server reaches its database through bench/lib/pg-count-proxy.mjs,
 *   and `statements()` answers what it has executed so far; the proxy costs a hop, so no load is
 *   measured on such a server.
 *   separateWorker (PostgreSQL): the job worker runs as its own process (`npm run worker`'s
 *   scripts/worker.ts, IN_PROCESS_WORKER=false in the web process); cpu() counts both;
 *   workerNodeArgs (e.g. --cpu-prof) go to the worker process alone; workerDir: the checkout whose
 *   scripts/worker.ts (its code, run by tsx) the worker process runs (default: the app's, BENCH_APP_DIR);
 *   countWorkerApart (with countStatements): the worker's statements through a proxy of their own
 *   (`workerStatements()`), not in `statements()`.
 *   probe: bench/lib/probe.mjs runs in the server process; `probe()` answers its memory and
 *   event-loop delay.
 */
export async function startServer(env = {}, opts = {}) {
  ensureBuild();
  const admin = opts.driver === "pglite" ? undefined : adminUrl();
  const db = admin ? await freshPostgres(admin) : null;
  const proxy = db && opts.countStatements ? await startCountingProxy(new URL(db.url)) : null;
  let databaseUrl = db?.url;
  if (proxy) {
    const u = new URL(db.url);
    u.hostname = "127.0.0.1";
    u.port = String(proxy.port);
    databaseUrl = u.toString();
  }
  const pgliteDir = db ? null : mkdtempSync(path.join(tmpdir(), "remit-bench-"));
  const port = await nextPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const instances = db ? (opts.instances ?? 1) : 1;
  // One instance: scripts/start.mjs, as `npm start` (its arguments are Node options for the
  // server process: --cpu-prof). Several: bench/cluster.mjs with the same Node options.
  const viaCluster = instances > 1;
  const launcher = path.join(appDir(), "scripts/start.mjs");
  const nodeArgs = serverNodeArgs(db ? { DATABASE_URL: databaseUrl } : {});
  const args = viaCluster
    ? [...nodeArgs, ...(opts.nodeArgs ?? []), path.join(root, "bench/cluster.mjs"), String(port), String(instances)]
    : [launcher, ...(opts.nodeArgs ?? [])];
  const childEnv = {
    ...(viaCluster ? serverEnv(db ? { DATABASE_URL: databaseUrl } : {}) : {}),
    ...process.env,
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    ...(db ? { DATABASE_URL: databaseUrl } : { PGLITE_DIR: pgliteDir }),
    ...env,
  };
  // PGlite: no DATABASE_URL inherited from the caller's environment.
  if (!db) delete childEnv.DATABASE_URL;
  // probe: bench/lib/probe.mjs in the server process (NODE_OPTIONS, so `next start` stays as it is).
  const probeDir = opts.probe ? mkdtempSync(path.join(tmpdir(), "remit-probe-")) : null;
  if (probeDir) {
    childEnv.NODE_OPTIONS = `${childEnv.NODE_OPTIONS ?? ""} --import=${pathToFileURL(path.join(root, "bench/lib/probe.mjs"))}`.trim();
    childEnv.BENCH_PROBE_DIR = probeDir;
  }
  const separateWorker = Boolean(db && opts.separateWorker);
  if (separateWorker) childEnv.IN_PROCESS_WORKER = "false";
  // The worker's own count: a second proxy, so its statements are told apart from the web process's.
  const workerProxy = separateWorker && opts.countStatements && opts.countWorkerApart ? await startCountingProxy(new URL(db.url)) : null;
  const workerDatabaseUrl = workerProxy ? Object.assign(new URL(db.url), { hostname: "127.0.0.1", port: String(workerProxy.port) }).toString() : databaseUrl;
  const workerDir = opts.workerDir ?? appDir();
  const child = spawn(process.execPath, args, { cwd: appDir(), stdio: ["ignore", "ignore", "inherit"], env: childEnv });
  // `npm run worker` is `tsx scripts/worker.ts`: tsx runs node with its loader, no server Node options.
  const worker = separateWorker
    ? spawn(process.execPath, [...(opts.workerNodeArgs ?? []), "--import", "tsx", path.join(workerDir, "scripts/worker.ts")], {
        cwd: workerDir,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...childEnv, IN_PROCESS_WORKER: "true", DATABASE_URL: workerDatabaseUrl },
      })
    : null;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${baseUrl}/v1/auth/health`, { headers: { "ocp-apim-subscription-key": KEY } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 240 || child.exitCode !== null) {
      child.kill("SIGTERM");
      worker?.kill("SIGTERM");
      await proxy?.close();
      await workerProxy?.close();
      await db?.drop();
      throw new Error("server did not start");
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const cpu = () => cpuSeconds(child.pid) + (worker ? cpuSeconds(worker.pid) : 0);
  // The serving process: scripts/start.mjs's child (`next start`), or bench/cluster.mjs itself
  // (the primary, whose forked children serve).
  let served;
  const webPid = () => {
    if (served === undefined) served = viaCluster ? child.pid : childPids(child.pid)[0];
    return served;
  };
  return {
    baseUrl,
    database: db ? "PostgreSQL" : "PGlite",
    /** How it was started: "npm start" (scripts/start.mjs) or "cluster" (bench/cluster.mjs). */
    launcher: viaCluster ? "cluster" : "npm start",
    pid: child.pid,
    /** The serving process's RSS (MB; under bench/cluster.mjs, the primary and its children). */
    rss: () => rssMb(webPid()),
    /** scripts/start.mjs's own RSS (MB): the launcher a user's `npm start` keeps running too. */
    launcherRss: () => (viaCluster ? null : rssOf(child.pid)),
    cpu,
    /** With separateWorker: the worker process's CPU seconds so far (in cpu() too). */
    workerCpu: () => (worker ? cpuSeconds(worker.pid) : 0),
    workerRss: () => (worker ? rssMb(worker.pid) : null),
    /**
     * CPU seconds so far (bench/lib/proc-cpu.mjs processCpu: all threads and the main thread) of
     * the process that serves the requests and of the worker process (separateWorker; else null);
     * `all`: cpu(), the launcher included.
     */
    cpuSplit: () => ({ web: processCpu(webPid()), worker: worker ? processCpu(worker.pid) : null, all: cpu() }),
    commits: db ? db.commits : async () => null,
    /** With countStatements: statements executed so far ({ statements, control }). */
    statements: () => proxy?.counts() ?? null,
    /** With countWorkerApart: the worker process's statements so far (not in statements()). */
    workerStatements: () => workerProxy?.counts() ?? null,
    /** The server's database URL (not through the proxy): for a worker process beside it. */
    databaseUrl: db?.url,
    /** Resident memory by kind (residentMb) of the server process alone. */
    resident: () => residentMb(webPid()),
    /**
     * With probe: the server's memory and its event loop's delay since the previous call (or its
     * start), from bench/lib/probe.mjs; null when it does not answer within 5 s.
     */
    probe: async () => {
      if (!probeDir) return null;
      const file = path.join(probeDir, `${webPid()}.json`);
      const seqOf = () => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).seq : 0);
      const before = seqOf();
      process.kill(webPid(), "SIGUSR2");
      for (let i = 0; i < 100; i++) {
        await new Promise((r) => setTimeout(r, 50));
        if (seqOf() > before) return JSON.parse(readFileSync(file, "utf8"));
      }
      return null;
    },
    stop: async () => {
      if (worker && worker.exitCode === null) {
        worker.kill("SIGTERM");
        await new Promise((r) => worker.once("exit", r));
      }
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      await proxy?.close();
      await workerProxy?.close();
      await db?.drop();
      if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
      if (probeDir) rmSync(probeDir, { recursive: true, force: true });
    },
  };
}
