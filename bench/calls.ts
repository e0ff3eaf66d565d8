/**
 * Per-call benchmark: the bare app (bench/bare-app, a separate Next app started
 * beside ours: one prepared primary-key select, one INSERT), then each of our reads with wrk and
 * each write with a closed-loop driver, all at the same concurrency (default c=50), so every route
 * is compared with the bare app measured in the same run. Reads are driven by wrk, writes by a Node
 * closed loop (each write consumes prepared state); the Node driver shares the CPU with the
 * servers, so the bare app is measured by both drivers and each row is compared with its own.
 * Statements per request are counted from outside the app, on PostgreSQL only, by a second server
 * that reaches its database through bench/lib/pg-count-proxy.mjs (sequential calls, no load).
 * The server is started as `npm start` starts it (bench/server.mjs), its job worker in the web
 * process; BENCH_WORKER=process (PostgreSQL): the split deployment, `IN_PROCESS_WORKER=false npm
 * start` beside `npm run worker`. Only the sandbox's simulated delays (fast-check, screening) are
 * set to 0, so a write's jobs run within its window.
 *   BENCH_DRIVER=pglite|postgres, BENCH_WORKER=process, BENCH_SECONDS (8), BENCH_WARMUP (3), BENCH_CONNECTIONS (50), BENCH_WRITES (300)
 * Prints JSON on stdout (bench/run.mjs renders it).
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
// @ts-expect-error: plain ESM helpers
import { adminUrl, startServer } from "./server.mjs";
// @ts-expect-error: plain ESM helpers
import { startBareApp } from "./lib/bare-app.mjs";
// @ts-expect-error: plain ESM helpers
import { wrk } from "./lib/wrk.mjs";
// @ts-expect-error: plain ESM helpers
import { pct } from "./lib/stats.mjs";
// @ts-expect-error: plain ESM helpers
import { bodyOf, fetchedBody } from "./lib/body-bytes.mjs";
import { ApiError, caller, KEY, onboardCustomers, pooled, quoteBody, type Customer } from "./lib/partner";
import { runWrites } from "./lib/writes";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const C = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WRITES = Number(process.env.BENCH_WRITES ?? 300);
/** Sequential calls per route for the statement count. */
const COUNTED = Number(process.env.BENCH_COUNTED ?? 30);
const SEPARATE_WORKER = process.env.BENCH_WORKER === "process";

interface Row {
  route: string;
  /** bare-read and bare-write: the bare app's two anchors; health: our own lightest route. */
  /** wrk-write: a write driven by wrk (POST /v1/core/quotes, one customer), compared with the bare read only. */
  kind: "bare-read" | "bare-write" | "health" | "read" | "write" | "wrk-write";
  /** The load generator: a row's ratio is to the bare app measured by the same one. */
  driver: "wrk" | "node";
  rps: number;
  p50: number;
  p99: number;
  /**
   * Errors by kind. wrk: `non2xx` answers and its socket errors `connect`, `read`, `write` and
   * `timeout` (no answer in 2 s; left out of wrk's latencies). The Node driver: `non2xx` (an
   * answer other than the one expected) and `failed` (no answer: the connection failed).
   */
  errors: Record<string, number>;
  /** The answer's body, bytes, from one request alone outside the load with the load's headers (bench/lib/body-bytes.mjs). */
  bodyBytes?: number;
  /** Its Content-Encoding, "" when none. */
  contentEncoding?: string;
  /** The items it lists (a page's events), when it is a list (bench/lib/body-bytes.mjs itemsOf). */
  bodyItems?: number;
  /** Statements executed per request (PostgreSQL, counted on the wire), BEGIN/COMMIT included. */
  statementsPerRequest?: number;
  /** Of those, transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT). */
  controlPerRequest?: number;
}

/**
 * A closed loop of C callers over a fixed list of prepared inputs. Throughput and latencies are
 * taken over the steady middle (the calls ending between the 10th and 90th percentile of end
 * times), so neither the ramp-up (cold code paths) nor the tail (fewer than C in flight) counts.
 */
async function closedLoop<I, O>(items: I[], work: (item: I) => Promise<O>) {
  const calls: { end: number; ms: number }[] = [];
  const errors = { non2xx: 0, failed: 0 };
  let firstError: string | undefined;
  const out = await pooled(items, C, async (item) => {
    const t = performance.now();
    try {
      return await work(item);
    } catch (err) {
      errors[err instanceof ApiError ? "non2xx" : "failed"]++;
      firstError ??= String(err).slice(0, 300);
      return undefined;
    } finally {
      const end = performance.now();
      calls.push({ end, ms: end - t });
    }
  });
  if (firstError) console.error(`closed loop: ${errors.non2xx + errors.failed} of ${items.length} failed, the first: ${firstError}`);
  if (calls.length < 10) return { out, rps: NaN, p50: NaN, p99: NaN, errors };
  calls.sort((a, b) => a.end - b.end);
  const from = Math.floor(calls.length * 0.1);
  const to = Math.max(from + 1, Math.floor(calls.length * 0.9));
  const steady = calls.slice(from + 1, to + 1);
  const seconds = (calls[to].end - calls[from].end) / 1000;
  const times = steady.map((c) => c.ms);
  return { out, rps: steady.length / seconds, p50: pct(times, 50), p99: pct(times, 99), errors };
}

/** The reads of the per-call table: [row name, path, headers], for one customer's data. */
export async function readsOf(baseUrl: string, me: Customer) {
  const call = caller(baseUrl);
  const quote = await call("POST", "/v1/core/quotes", me.token, quoteBody(me));
  const disclosure = await call("GET", `/v1/core/quotes/${quote.quoteId}/disclosure`, me.token);
  const accepted = await call(
    "POST",
    `/v1/core/quotes/${quote.quoteId}/accept`,
    me.token,
    { disclosureToken: disclosure.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
    201,
  );
  const auth = { "ocp-apim-subscription-key": KEY, authorization: `Bearer ${me.token}` };
  const reads: [string, string, Record<string, string>, Row["kind"]][] = [
    ["GET /v1/auth/health (ours: key check only)", "/v1/auth/health", { "ocp-apim-subscription-key": KEY }, "health"],
    ["GET /v1/core/transfers/{id} (registered)", `/v1/core/transfers/${accepted.transferId}`, auth, "read"],
    ["GET /v1/core/transfers", "/v1/core/transfers", auth, "read"],
    ["GET /v1/core/beneficiaries/{id}", `/v1/core/beneficiaries/${me.beneficiaryId}`, auth, "read"],
    ["GET /v1/core/profile", "/v1/core/profile", auth, "read"],
    ["GET /v1/core/quotes/{id}", `/v1/core/quotes/${quote.quoteId}`, auth, "read"],
    ["GET /v1/core/events", "/v1/core/events?limit=20", auth, "read"],
  ];
  return reads;
}

/**
 * Statements per request from outside the app: a server of its own behind the counting proxy,
 * each read called COUNTED times in sequence, each write over COUNTED inputs one at a time. A
 * write's count includes the jobs it causes when they run meanwhile (its event's delivery,
 * submit's fast-check); the worker only wakes on commits, so its polls do not blur the count.
 */
async function countStatements(): Promise<Map<string, { statements: number; control: number }>> {
  const server = await startServer(
    { FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0", WORKER_POLL_MS: "60000" },
    { driver: "postgres", countStatements: true },
  );
  const counts = new Map<string, { statements: number; control: number }>();
  const counted = async <T>(route: string, n: number, work: () => Promise<T>): Promise<T> => {
    // Let the jobs of the step before settle (a write's delivery runs just after its commit).
    await new Promise((r) => setTimeout(r, 300));
    const before = server.statements();
    const out = await work();
    await new Promise((r) => setTimeout(r, 300));
    const after = server.statements();
    counts.set(route, { statements: (after.statements - before.statements) / n, control: (after.control - before.control) / n });
    return out;
  };
  try {
    const customers = await onboardCustomers(server.baseUrl, 4);
    for (const [route, path, headers] of await readsOf(server.baseUrl, customers[0])) {
      await counted(route, COUNTED, async () => {
        for (let i = 0; i < COUNTED; i++) await fetch(`${server.baseUrl}${path}`, { headers }).then((res) => res.arrayBuffer());
      });
    }
    await runWrites(server.baseUrl, customers, COUNTED, (route, items, work) =>
      counted(route, items.length, async () => {
        const out = await pooled(items, 1, (item) => work(item).catch(() => undefined));
        return out.filter((x) => x !== undefined) as Awaited<ReturnType<typeof work>>[];
      }),
    );
    return counts;
  } finally {
    await server.stop();
  }
}

export async function benchCalls(driver: "postgres" | "pglite") {
  // The bare app always runs on PostgreSQL: PGlite's rows are compared with it.
  const bare = await startBareApp(adminUrl(), {});
  const separateWorker = SEPARATE_WORKER && driver === "postgres";
  const server = await startServer({ FAST_CHECK_DELAY_MS: "0", SCREENING_DELAY_MS: "0" }, { driver, separateWorker });
  const rows: Row[] = [];
  let rss: number | null = null;
  let workerRss: number | null = null;
  try {
    const customers = await onboardCustomers(server.baseUrl, 20);
    const load = async (route: string, url: string, headers: Record<string, string>, kind: Row["kind"], post?: unknown) => {
      // The body's size: one request alone, before the load, with wrk's headers.
      const body = post
        ? await bodyOf(url, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json", "idempotency-key": randomUUID() },
            body: JSON.stringify(post),
          })
        : await bodyOf(url, { headers });
      const r = await wrk(url, {
        headers: post ? { ...headers, "content-type": "application/json" } : headers,
        connections: C,
        seconds: SECONDS,
        warmup: WARMUP,
        ...(post ? { script: fileURLToPath(new URL("./lib/wrk-post.lua", import.meta.url)), env: { WRK_BODY: JSON.stringify(post) } } : {}),
      });
      rows.push({
        route,
        kind,
        driver: "wrk",
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        errors: r.errors,
        bodyBytes: body.bytes,
        contentEncoding: body.encoding,
        bodyItems: body.items,
      });
    };
    await load("bare app: GET /v1/db/read (one prepared PK select)", bare.readUrl, {}, "bare-read");
    for (const [route, path, headers, kind] of await readsOf(server.baseUrl, customers[0])) await load(route, `${server.baseUrl}${path}`, headers, kind);
    // A plain wrk run of quote creation: one customer, a fresh Idempotency-Key per request (the
    // per-call table's quote row is a Node closed loop over 20 customers).
    await load(
      "POST /v1/core/quotes (RS256-signed), wrk, one customer, fresh Idempotency-Key",
      `${server.baseUrl}/v1/core/quotes`,
      { "ocp-apim-subscription-key": KEY, authorization: `Bearer ${customers[0].token}` },
      "wrk-write",
      quoteBody(customers[0]),
    );

    // Writes: each over its own prepared inputs (bench/lib/writes.ts).
    // The first input alone, before the loop: its answer's body size with the driver's headers.
    const measure = async <I, O>(route: string, items: I[], work: (item: I) => Promise<O>, kind: Row["kind"] = "write") => {
      const [first, ...rest] = items;
      const once = await fetchedBody(() => work(first));
      const r = await closedLoop(rest, work);
      rows.push({ route, kind, driver: "node", rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, bodyBytes: once.bytes, contentEncoding: once.encoding });
      return [once.output, ...r.out].filter((x): x is Awaited<O> => x !== undefined);
    };
    // The bare app through the writes' driver: its read, and its write (one INSERT), asking for
    // no compression as the writes do (bench/lib/partner.ts caller; fetch asks gzip, deflate unless told).
    const bareCall = (method: string, url: string, expect: number) => () =>
      fetch(url, { method, headers: { "accept-encoding": "identity" } }).then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== expect) throw new ApiError(`bare app ${res.status}`, res.status);
      });
    await closedLoop(Array.from({ length: 500 }), bareCall("GET", bare.readUrl, 200)); // warm-up
    await measure(
      "bare app: GET /v1/db/read, Node closed loop (the writes' driver)",
      Array.from({ length: 4 * WRITES }),
      bareCall("GET", bare.readUrl, 200),
      "bare-read",
    );
    await measure("bare app: POST /v1/db/write (one INSERT)", Array.from({ length: 2 * WRITES }), bareCall("POST", bare.writeUrl, 201), "bare-write");
    await runWrites(server.baseUrl, customers, WRITES, measure);
    rss = server.rss();
    workerRss = server.workerRss();
  } finally {
    await server.stop();
    await bare.stop();
  }
  // The split deployment's statements are the in-process run's (the same statements, another process).
  if (driver === "postgres" && !separateWorker) {
    // In a process of its own: scripts/demo.ts (the onboarding) reads its base URL once per process.
    const child = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      encoding: "utf8",
      env: { ...process.env, BENCH_MODE: "count" },
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error("the statement count failed");
    const counts = new Map<string, { statements: number; control: number }>(JSON.parse(child.stdout.trim().split("\n").pop()!));
    for (const row of rows) {
      const c = counts.get(row.route);
      if (c) Object.assign(row, { statementsPerRequest: c.statements, controlPerRequest: c.control });
    }
  }
  return {
    database: driver === "pglite" ? "PGlite" : "PostgreSQL",
    launcher: server.launcher,
    worker: separateWorker ? "process" : "in-process",
    connections: C,
    seconds: SECONDS,
    rows,
    rss,
    workerRss,
  };
}

if (import.meta.url === `file://${process.argv[1]}` && process.env.BENCH_MODE === "count") {
  countStatements().then(
    (counts) => console.log(JSON.stringify([...counts])),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else if (import.meta.url === `file://${process.argv[1]}`) {
  benchCalls((process.env.BENCH_DRIVER as "postgres" | "pglite") ?? "postgres").then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
export type { Customer };
