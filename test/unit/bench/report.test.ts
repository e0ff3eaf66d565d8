/**
 * bench/lib/report.mjs and remainders.mjs: each target of a fixed run is met or not by
 * its own figures, and a target not met is explained by sentences computed from that run (the
 * route's CPU per request from /proc against the bare app's, divided by its profile's shares,
 * statements per request, the journey's CPU in parts that add up, the profiled journey window by
 * owner, the event loop's delay, the memory's parts, step times).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
// @ts-expect-error: plain ESM helpers
import { deploymentsSection, errorsText, profileSection, render, targetRows } from "../../../bench/lib/report.mjs";

const DETAIL = "GET /v1/core/transfers/{id} (registered)";
const QUOTE = "POST /v1/core/quotes (RS256-signed)";

const shares = (of: Record<string, number>) => Object.entries(of).map(([name, share]) => ({ name, share }));
/** A profile summary: `idle` of its samples idle, the busy ones by these category shares (and owners' shares). */
const summary = (idle: number, categories: Record<string, number>, owners?: Record<string, number>) => ({
  ms: 5000,
  samples: 5000,
  idle,
  categories: shares(categories),
  self: [],
  total: [],
  ...(owners ? { owners: shares(owners) } : {}),
});
/** A process's CPU over a window from /proc, ms: all threads and the main one. */
const used = (all: number, main: number) => ({ all, main, otherThreads: all - main });
/** A profile window over `requests`: the web process's CPU (and the worker's), and the web process's profile. */
const window = (
  route: string,
  requests: number,
  web: { all: number; main: number },
  profile: ReturnType<typeof summary>,
  worker?: { cpu: { all: number; main: number }; profile: ReturnType<typeof summary> },
) => ({
  route,
  requests,
  cpu: { web: used(web.all, web.main), worker: worker ? used(worker.cpu.all, worker.cpu.main) : null, all: web.all + (worker?.cpu.all ?? 0) },
  summary: profile,
  ...(worker ? { worker: worker.profile } : {}),
});

const WRK_NONE = { non2xx: 0, connect: 0, read: 0, write: 0, timeout: 0 };
const NODE_NONE = { non2xx: 0, failed: 0 };
// Bodies: the bare read 36 bytes, the detail 959, the bare write 10, the quote 1811 (bench/calls.ts, one request each).
const calls = (
  database: string,
  detailRps: number,
  statements?: { statementsPerRequest: number; controlPerRequest: number },
  detailErrors: Record<string, number> = WRK_NONE,
) => ({
  database,
  connections: 50,
  seconds: 8,
  rss: 250,
  rows: [
    { route: "bare app: GET /v1/db/read", kind: "bare-read", driver: "wrk", rps: 1000, p50: 1, p99: 2, errors: WRK_NONE, bodyBytes: 36, contentEncoding: "" },
    { route: DETAIL, kind: "read", driver: "wrk", rps: detailRps, p50: 1, p99: 2, errors: detailErrors, bodyBytes: 959, contentEncoding: "", ...statements },
    {
      route: "bare app: GET /v1/db/read, Node closed loop",
      kind: "bare-read",
      driver: "node",
      rps: 600,
      p50: 1,
      p99: 2,
      errors: NODE_NONE,
      bodyBytes: 36,
      contentEncoding: "",
    },
    {
      route: "bare app: POST /v1/db/write",
      kind: "bare-write",
      driver: "node",
      rps: 500,
      p50: 1,
      p99: 2,
      errors: NODE_NONE,
      bodyBytes: 10,
      contentEncoding: "",
    },
    {
      route: QUOTE,
      kind: "write",
      driver: "node",
      rps: 400,
      p50: 1,
      p99: 2,
      errors: { non2xx: 2, failed: 0 },
      bodyBytes: 1811,
      contentEncoding: "",
      statementsPerRequest: 11,
      controlPerRequest: 2,
    },
  ],
});

const journey = {
  role: "saturation",
  database: "PostgreSQL",
  rate: 32,
  seconds: 15,
  customers: 30,
  completed: 100,
  failed: 0,
  elapsed: 10,
  arrivals: 5,
  instances: 1,
  jobLatency: { submitToValidated: { p50: 10, p99: 40 }, fundingToFunded: { p50: 3, p99: 9 } },
  rss: { before: 200, peak: 260, after: 250 },
  eventLoopDelay: { p50: 1.2, p99: 45.5, max: 80, samples: 1000 },
  // 5000 ms over 100 journeys: 42 ms per journey on the main thread, 8 on the others.
  cpu: { serverMsPerJourney: 50, serverCores: 0.8, machineBusy: 0.9, web: used(5000, 4200), worker: null },
  anchor: { rps: 1000, p50: 1, p99: 2 },
  calls: [
    { name: "POST quotes", count: 100, p50: 10, p99: 20, errors: 0 },
    { name: "GET transfer (poll)", count: 200, p50: 5, p99: 10, errors: 0 },
    { name: "GET disclosure", count: 100, p50: 5, p99: 10, errors: 0 },
  ],
};

const MB = 2 ** 20;
// At 80 %: the quote's p99 over the target; PGlite: its RSS over the target, with its parts.
const at80 = { ...journey, role: "at-80", rate: 12, calls: [{ name: "POST quotes", count: 100, p50: 30, p99: 150, errors: 0 }, ...journey.calls.slice(1)] };
const pgliteJourney = {
  ...journey,
  role: "pglite",
  database: "PGlite",
  rss: { before: 280, peak: 330, after: 319 },
  memory: { rss: 319 * MB, heapTotal: 120 * MB, heapUsed: 90 * MB, external: 40 * MB, arrayBuffers: 30 * MB, resident: { anon: 280, file: 39, shmem: 0 } },
};

const results = {
  calls: [calls("PostgreSQL", 500, { statementsPerRequest: 2, controlPerRequest: 0 }), calls("PGlite", 300, undefined, { ...WRK_NONE, timeout: 23 })],
  journeys: [journey, at80, pgliteJourney],
  profile: {
    database: "PostgreSQL",
    routes: [
      // 1000 requests, the main thread 900 ms: 0.90 ms each, 0.36 of it Next; 0.20 ms on other threads.
      window("bare app: GET /v1/db/read", 1000, { all: 1100, main: 900 }, summary(0.1, { next: 0.4, "node (internals, native)": 0.5 })),
      // 1000 requests, the main thread 2000 ms: 2 ms each; the worker process's main thread 20 ms: 0.02 ms each.
      window(DETAIL, 1000, { all: 2400, main: 2000 }, summary(0, { next: 0.3, "drizzle-orm": 0.05, "our code (lib/, app/, db/)": 0.1 }), {
        cpu: { all: 30, main: 20 },
        profile: summary(0.9, {}, { "job webhooks.deliver": 1 }),
      }),
      // 300 requests: 3 ms each on the main thread; the worker's 1 ms each.
      window(QUOTE, 300, { all: 1000, main: 900 }, summary(0.25, { "drizzle-orm": 0.2 }), {
        cpu: { all: 400, main: 300 },
        profile: summary(0.5, {}, { "job transfers.fastCheck": 0.4 }),
      }),
    ],
    // 10 journeys: the web process's main thread 15 ms per journey, the worker's 6 ms (a third of it
    // under the fast-check's handler: 2 ms).
    journey: {
      ...window(
        "journeys (10 of 10 at 8/s)",
        10,
        { all: 190, main: 150 },
        summary(
          0.5,
          {},
          {
            "route /v1/core/quotes": 0.1,
            "the request pipeline (lib/interface/http, lib/platform/http)": 0.1,
            GC: 0.1,
            "unowned: next": 0.2,
            "unowned: postgres.js": 0.2,
            "unowned: node (internals, native)": 0.3,
          },
        ),
        {
          cpu: { all: 70, main: 60 },
          profile: summary(
            0.4,
            {},
            {
              "job transfers.fastCheck": 1 / 3,
              "job receipts.email": 1 / 6,
              "the worker (lib/platform/jobs)": 1 / 6,
              "unowned: postgres.js": 1 / 3,
            },
          ),
        },
      ),
      rate: 8,
      seconds: 10,
      failed: 0,
      calls: [],
    },
  },
  profilePglite: {
    database: "PGlite",
    // 1000 requests, the main thread 3000 ms: 3 ms each, 1.35 of it PGlite's.
    routes: [window(DETAIL, 1000, { all: 3300, main: 3000 }, summary(0, { "PGlite (WebAssembly)": 0.4, "PGlite (JS)": 0.05, next: 0.2 }))],
  },
  monitoring: { transfers: 100_000, customers: 1000, samples: 1000, heldShare: 0.1, p50: 2, p99: 8, max: 20, roundTripP50: 0.5, roundTripP99: 2 },
  limits: {
    history: 200,
    transfers: 20_200,
    runs: 500,
    reservation: { p50: 0.9, p99: 2.5, max: 4 },
    processCpu: { p50: 0.4, p99: 0.7, max: 1 },
    roundTrip: { p50: 0.3, p99: 1.2, max: 2 },
    usageStatement: { runs: 50, p50: 0.2, p99: 0.3, max: 0.4, scan: "Index Only Scan", index: "transfers_subscription_idx", heapFetches: 0, buffers: 5 },
  },
  minutes: 1,
};

type Row = { name: string; measured: string; met: boolean; why?: string };
const rowOf = (rows: Row[], start: string) => {
  const row = rows.find((r) => r.name.startsWith(start));
  assert.ok(row, `no target row ${start}`);
  return row;
};

describe("bench report: targets and what explains each one not met", () => {
  const rows: Row[] = targetRows(results);

  it("a read under 80 % of the bare read: its CPU per request from /proc against the bare app's, the main thread divided by its busy samples' shares, and its statements", () => {
    const read = rowOf(rows, `${DETAIL} (PostgreSQL)`);
    assert.equal(read.measured, "50 %");
    assert.equal(read.met, false);
    assert.match(
      read.why!,
      /idle: 0 % of its samples, the bare app's 10 %\)\. Main thread, the bare app's over this call's: 0\.45\. 2\.0 statements per request/,
    );
    assert.match(
      read.why!,
      /\| all threads of the web process \(\/proc\) \| 2\.40 \| 1\.10 \|\n\| main thread \(\/proc\) \| 2\.00 \| 0\.90 \|\n\| – Next \| 0\.60 \| 0\.36 \|\n\| – Node internals \| 0\.00 \| 0\.45 \|/,
    );
    assert.match(read.why!, /\| – Drizzle \| 0\.10 \| 0\.00 \|/);
    assert.match(
      read.why!,
      /\| – our code \| 0\.20 \| 0\.00 \|\n\| – the rest \(other packages, V8, unmapped\) \| 1\.10 \| 0\.09 \|\n\| other threads \(all less main\) \| 0\.40 \| 0\.20 \|/,
    );
    assert.match(read.why!, /\| the jobs it caused: the worker process's main thread \| 0\.02 \| – \|/);
  });

  it("the CPU per request is /proc's, not the profile's wall time: a window whose samples span more time than its CPU still reads its /proc figure", () => {
    // The bare app's profile: 5000 ms of wall time over 1000 requests (5 ms each), 10 % idle; /proc: 0.9 ms.
    const read = rowOf(rows, `${DETAIL} (PostgreSQL)`);
    assert.match(read.why!, /\| main thread \(\/proc\) \| 2\.00 \| 0\.90 \|/);
    assert.doesNotMatch(read.why!, /4\.50/);
  });

  it("a write is met at ≥ 50 % of the bare read and ≥ 70 % of the bare write: nothing to explain", () => {
    const write = rowOf(rows, `${QUOTE} (PostgreSQL)`);
    assert.equal(write.measured, "67 % and 80 %");
    assert.equal(write.met, true);
    assert.equal(write.why, undefined);
  });

  it("CPU per journey: parts each measured that add up to the run's figure (calls × their window's CPU, the jobs by kind, Node's other threads, a residual with its sign)", () => {
    const cpu = rowOf(rows, "Server CPU per journey");
    assert.equal(cpu.met, false);
    assert.match(cpu.why!, /Server CPU per journey in the run, 50\.0 ms \(42\.0 of it on the main threads, \/proc\)/);
    assert.match(cpu.why!, /\| POST quotes \| 1\.0 calls × 3\.00 ms \(its window's main thread\); 11\.0 statements each \| 3\.0 \|/);
    assert.match(cpu.why!, /\| GET transfer \(poll\) \| 2\.0 calls × 2\.00 ms \(its window's main thread\); 2\.0 statements each \| 4\.0 \|/);
    assert.match(
      cpu.why!,
      /\| The jobs \| the worker process's main thread in the profiled journey window \(10 journeys at 8\.0\/s, \/proc\), by the handler on its samples' stacks: transfers\.fastCheck 2\.0, receipts\.email 1\.0, the worker's loop \(lib\/platform\/jobs\) 1\.0, GC 0\.0, no handler on the stack 2\.0 \| 6\.0 \|/,
    );
    assert.match(cpu.why!, /\| Node's other threads \| the run's CPU \(\/proc, all threads\) less its main threads[^|]*\| 8\.0 \|/);
    // 42 on the main threads less the calls' 7 and the jobs' 6.
    assert.match(cpu.why!, /\| Residual \| the run's main threads less the calls and the jobs above \| \+29\.0 \|/);
    assert.match(cpu.why!, /\| \*\*Total\*\* \| the run \(100 journeys completed of 100, arrivals at 32\.0\/s\), \/proc \| \*\*50\.0\*\* \|/);
    assert.match(cpu.why!, /The residual is positive: .* \(in it, the calls not profiled: GET disclosure\)/);
    assert.match(
      cpu.why!,
      /the web process's main thread spent 15\.0 ms per journey against its calls' 7\.0 ms measured in their windows: \+8\.0 ms: the journey's calls cost more there/,
    );
  });

  it("a residual that would be negative is shown as such, with its reason", () => {
    // The run's main thread: 10 ms per journey, less than the 13 ms its parts measured apart.
    const lighter = { ...journey, cpu: { ...journey.cpu, web: used(5000, 1000) } };
    const cpu = rowOf(targetRows({ ...results, journeys: [lighter] }), "Server CPU per journey");
    assert.match(cpu.why!, /\| Node's other threads \|[^|]*\| 40\.0 \|/);
    assert.match(cpu.why!, /\| Residual \|[^|]*\| -3\.0 \|/);
    assert.match(
      cpu.why!,
      /The residual is negative: the parts measured apart cost 3\.0 ms per journey more than the run's main threads spent\. Those windows ran under the profiler/,
    );
  });

  it("the sustained rate: what the CPU per journey allows on one core and on the main thread, and the event loop's delay", () => {
    const rate = rowOf(rows, "Journeys/s one process sustains");
    assert.equal(rate.measured, "14.3");
    assert.match(rate.why!, /one core serves at most 20\.0 journeys\/s; the server used 80 % of one core/);
    assert.match(rate.why!, /42\.0 ms per journey on the main thread \(\/proc, 84 % of the server's CPU\) allows at most 23\.8 journeys\/s/);
    assert.match(rate.why!, /late by p50 1\.2 ms, p99 45\.5 ms, max 80\.0 ms over the load/);
  });

  it("the p99 at 80 %: the worst call, its own CPU from its window, and the event loop then", () => {
    const p99 = rowOf(rows, "Per-call p99 at 80 %");
    assert.equal(p99.met, false);
    assert.match(
      p99.why!,
      /Worst: POST quotes, p50 30\.0 ms, p99 150\.0 ms over 100 calls\. Its own main-thread CPU is 3\.00 ms per call \(its profile window, \/proc\)/,
    );
    assert.match(p99.why!, /p99 45\.5 ms, max 80\.0 ms over the load: a request arriving while the loop is busy waits up to that long/);
  });

  it("RSS over the target: the heap, what V8 counts outside it, the rest, and /proc's anonymous and file-backed pages", () => {
    const rss = rowOf(rows, "Server RSS after the journey, PGlite");
    assert.equal(rss.met, false);
    assert.match(
      rss.why!,
      /RSS 319 MB; V8's heap 120 MB \(90 MB of it in use\); memory V8 counts outside its heap 40 MB: ArrayBuffers 30 MB, the rest of it \(WebAssembly memory: on PGlite, its PostgreSQL\) 10 MB; .* RSS less both, 159 MB, is at least what V8 does not count/,
    );
    assert.match(rss.why!, /280 MB anonymous, 39 MB file-backed/);
  });

  it("PGlite: PGlite's share of the read's profile, and its CPU against the same read on PostgreSQL", () => {
    const lite = rowOf(rows, "PGlite reads");
    assert.equal(lite.measured, "30 %–30 %");
    assert.match(
      lite.why!,
      /3\.00 ms of main-thread CPU per request \(\/proc\) \(the same read on PostgreSQL: 2\.00 ms\), of it PGlite 1\.35 ms \(WebAssembly 1\.20, its JavaScript 0\.15\)/,
    );
  });

  it("monitoring not met: its times against one round trip; limits met: not explained", () => {
    const monitoring = rowOf(rows, "Monitoring evaluation p99");
    assert.equal(monitoring.met, false);
    assert.match(monitoring.why!, /p50 is 4\.0 round trips, its p99 4\.0 × the round trip's p99/);
    const limits = rowOf(rows, "Limit reservation p99");
    assert.deepEqual([limits.measured, limits.met, limits.why], ["2.5 ms", true, undefined]);
  });

  it("limits not met: the reservation, one round trip and the usage statement's plan", () => {
    const slow = { ...results, limits: { ...results.limits, reservation: { p50: 2, p99: 6.5, max: 9 } } };
    const limits = rowOf(targetRows(slow), "Limit reservation p99");
    assert.equal(limits.met, false);
    assert.match(
      limits.why!,
      /p99 6\.5 ms.*CPU in the call p50 0\.4 ms, p99 0\.7 ms.*round trip.*p99 1\.2 ms.*Index Only Scan on transfers_subscription_idx, 0 heap fetches, 5 buffers/,
    );
  });

  it("a read's remainder gives its answer's body against the bare read's, each from one request with the load's headers", () => {
    const read = rowOf(rows, `${DETAIL} (PostgreSQL)`);
    assert.match(read.why!, /Its answer's body: 959 bytes against the bare read's 36 \(26\.6 ×\)\./);
    assert.match(read.why!, /\| CPU per request \| this call \| bare app's read \|/);
  });

  it("a list read's remainder says how many items its answer holds", () => {
    const pg = results.calls[0];
    const listed = { ...pg, rows: pg.rows.map((r) => (r.route === DETAIL ? { ...r, bodyItems: 4 } : r)) };
    const read = rowOf(targetRows({ ...results, calls: [listed] }), `${DETAIL} (PostgreSQL)`);
    assert.match(read.why!, /Its answer's body: 959 bytes, 4 items against the bare read's 36 \(26\.6 ×\)\./);
  });

  it("the journey's floor: the run's calls per journey at the bare app's CPU per request (all threads), and at the per-call targets plus the jobs", () => {
    const cpu = rowOf(rows, "Server CPU per journey");
    // 400 calls over 100 journeys: 3 GETs and 1 POST each; the bare app's window: 1100 ms over 1000 requests.
    assert.match(
      cpu.why!,
      /The floor, from the run's calls \(4\.00 per journey: every call it made over its 100 completed journeys; the reads are its GETs, 3\.00, the writes its POSTs, 1\.00\) and the bare app's CPU per request, 1\.10 ms \(all threads of its process over its profile window, \/proc: 1100 ms over 1000 requests\)/,
    );
    assert.match(cpu.why!, /\| every call at the bare app's CPU per request \| 4\.00 \| 1\.10 \| 4\.4 \|/);
    // A read at 0.8: 1.1 / 0.8 = 1.375 ms; a write at 0.5: 2.2 ms.
    assert.match(cpu.why!, /\| at target: the reads at 0\.8 of the bare read \| 3\.00 \| 1\.38 \| 4\.1 \|/);
    assert.match(cpu.why!, /\| at target: the writes at 0\.5 of the bare read \| 1\.00 \| 2\.20 \| 2\.2 \|/);
    // The jobs: the worker's 70 ms (all threads) over the profiled window's 10 journeys.
    assert.match(
      cpu.why!,
      /\| at target: the jobs as measured \(the worker process's CPU in the profiled journey window \(10 journeys at 8\.0\/s\), all threads, \/proc\) \| {2}\| {2}\| 7\.0 \|/,
    );
    // 4.125 + 2.2 + 7 = 13.325.
    assert.match(cpu.why!, /\| \*\*at target: total\*\* \| {2}\| {2}\| \*\*13\.3\*\* \|/);
    assert.match(
      cpu.why!,
      /Target 30 ms per journey; the bare app's CPU for the same calls 4\.4 ms \(15 % of the target\); every call at its per-call target and the jobs as measured 13\.3 ms \(44 % of it\); the run 50\.0 ms\./,
    );
  });

  it("the sustained rate's remainder gives what the floor and the targets allow on one core", () => {
    const rate = rowOf(rows, "Journeys/s one process sustains");
    assert.match(
      rate.why!,
      /On the bare app's CPU per request \(1\.10 ms, all threads, its profile window\) the run's 4\.00 calls per journey cost 4\.4 ms: one core serves at most 227\.3 journeys\/s; with every call at its per-call target and the jobs as measured, 13\.3 ms: at most 75\.0 journeys\/s\./,
    );
  });

  it("errors by kind: a timeout is told from a failure; none is 0", () => {
    assert.equal(errorsText(WRK_NONE), "0");
    assert.equal(errorsText({ ...WRK_NONE, timeout: 23 }), "timeouts 23");
    assert.equal(errorsText({ non2xx: 1, connect: 0, read: 4, write: 0, timeout: 2 }), "timeouts 2, read errors 4, non-2xx 1");
    assert.equal(errorsText({ non2xx: 0, failed: 3 }), "failed 3");
    // An older run's single count, as it was.
    assert.equal(errorsText(17), "17");
  });

  it("the per-call tables: body bytes and errors by kind per row, wrk's timeouts said to be out of its latencies, no write target on PGlite", () => {
    const doc: string = render(results);
    const lite = doc.slice(doc.indexOf("Per call, PGlite"), doc.indexOf("## Transfer journey"));
    const pg = doc.slice(doc.indexOf("Per call, PostgreSQL"), doc.indexOf("Per call, PGlite"));
    assert.match(pg, /\| target \| statements\/request \(BEGIN\/COMMIT\) \| body bytes \| errors \|/);
    assert.match(pg, /\| bare app: GET \/v1\/db\/read \| bare-read \| wrk \|[^\n]*\| 36 \| 0 \|/);
    assert.match(
      pg,
      /\| POST \/v1\/core\/quotes \(RS256-signed\) \| write \| node \|[^\n]*\| ≥ 0\.50 of read, ≥ 0\.70 of write \| 11\.0 \(2\.0\) \| 1811 \| non-2xx 2 \|/,
    );
    assert.doesNotMatch(pg, /had timeouts/);
    assert.match(lite, /\| GET \/v1\/core\/transfers\/\{id\} \(registered\) \| read \|[^\n]*\| 959 \| timeouts 23 \|/);
    assert.match(lite, /1 of the wrk rows had timeouts \(no answer within wrk's 2 s\): wrk leaves those requests out of its latencies/);
    assert.match(lite, /\| POST \/v1\/core\/quotes \(RS256-signed\) \| write \| node \|[^\n]*\| none \(issue 26: PGlite's reads only\) \|/);
  });

  it("the Profile section says the warm-up the run used, and a run without writes as such", () => {
    const text: string = profileSection({ ...results.profilePglite, seconds: 5, warmup: 2, writes: 0 });
    assert.match(text, /\(reads: wrk 5 s each after a 2 s warm-up; no writes\)/);
    const withWrites: string = profileSection({ ...results.profilePglite, seconds: 5, warmup: 2, writes: 300 });
    assert.match(withWrites, /over 300 quotes, each disclosed and accepted, then half of them submitted, confirmed and funded and the other half cancelled/);
  });

  it("the document lists each target not met with its explanation, and the limit reservation's section", () => {
    const doc: string = render(results);
    const remainder = doc.slice(doc.indexOf("## What explains the remainder, per target"), doc.indexOf("## Per call"));
    assert.match(
      remainder,
      new RegExp(`\\n\\*\\*${DETAIL.replace(/[{}()]/g, "\\$&")} \\(PostgreSQL\\)\\*\\* \\(50 %; target ≥ 80 % of the bare read\\): CPU per request`),
    );
    assert.doesNotMatch(remainder, /Limit reservation|POST \/v1\/core\/quotes \(RS256/);
    // The journey window in the Profile section: its owners in ms per journey.
    assert.match(doc, /\| web \| route \/v1\/core\/quotes \| 1\.50 \| 10 % \|\n[^]*\| worker \| job transfers\.fastCheck \| 2\.00 \| 33 % \|/);
    // The Profile section: CPU per request by window from /proc, then the busy samples' shares.
    assert.match(doc, /\| main thread, ms \| 0\.90 \| 2\.00 \| 3\.00 \| 15\.00 \|\n\| other threads, ms \| 0\.20 \| 0\.40 \| 0\.33 \| 4\.00 \|/);
    assert.match(doc, /\| idle samples \(no CPU\) \| 10 % \| 0 % \| 25 % \| 50 % \|/);
    assert.match(
      doc,
      /- the server's event loop over the load \(bench\/lib\/probe\.mjs: how late its 10 ms timer ran\): p50 1\.2 ms, p99 45\.5 ms, max 80\.0 ms/,
    );
    assert.match(doc, /## Limit reservation\n\nbench\/limits\.ts/);
    assert.match(
      doc,
      /\| 0\.9 ms \| 2\.5 ms \| 4 ms \| 0\.4 \/ 0\.7 ms \| 0\.3 \/ 1\.2 ms \| 0\.2 \/ 0\.3 ms \| Index Only Scan on transfers_subscription_idx, 0 heap fetches, 5 buffers \|/,
    );
  });
});

describe("bench report: npm start and the split deployment", () => {
  // The split run first: the targets are still judged on npm start's run (its worker in process).
  const split = { ...calls("PostgreSQL", 400), worker: "process", launcher: "npm start" };
  const one = { ...calls("PostgreSQL", 700), worker: "in-process", launcher: "npm start" };
  const runs = { calls: [split, one], minutes: 1 };

  it("the targets are npm start's run, not the split deployment's", () => {
    assert.equal(rowOf(targetRows(runs), `${DETAIL} (PostgreSQL)`).measured, "70 %");
  });

  it("each call's ratios under both deployments side by side, and the journeys of both", () => {
    const text = deploymentsSection({
      ...runs,
      journeys: [
        { ...journey, role: "saturation" },
        { ...journey, role: "worker-process", cpu: { ...journey.cpu, worker: used(2000, 1500) }, rss: { ...journey.rss, worker: 180 } },
      ],
    });
    assert.match(text, new RegExp(`\\| ${DETAIL.replace(/[{}()]/g, "\\$&")} \\| read \\| 0\\.70 \\| 0\\.40 \\|`));
    // 5000 ms of the web process and 2000 of the worker over 100 journeys.
    assert.match(text, /\| split: web \+ `npm run worker` \| [\d.]+ \| 50\.0 \| 50\.0 \| 20\.0 \| 250 \+ 180 \|/);
    assert.match(text, /\| npm start \(worker in the web process\) \| [\d.]+ \| 50\.0 \| 50\.0 \| \(in the web process\) \| 250 \|/);
  });

  it("the jobs' CPU per journey is a target of its own: the worker process in the profiled journey window, its main thread by job kind", () => {
    const jobs = rowOf(targetRows(results), "Job CPU per journey");
    // 70 ms of the worker process (all threads) over 10 journeys, against 6 ms.
    assert.equal(jobs.measured, "7.0 ms");
    assert.equal(jobs.met, false);
    assert.match(jobs.why!, /7\.0 ms \(target 6 ms\): 6\.0 ms of it on its main thread, [^]*transfers\.fastCheck 2\.0, receipts\.email 1\.0/);
  });

  it("without both PostgreSQL runs it says so", () => {
    assert.match(deploymentsSection({ calls: [one] }), /not run/);
  });
});

describe("bench report: each target not met names its lever", () => {
  const rows: Row[] = targetRows(results);

  it("a read: how much less CPU per request the target allows, its parts over the bare read's, our code's share, and the lever of the largest part", () => {
    const why = rowOf(rows, `${DETAIL} (PostgreSQL)`).why!;
    // 2.40 ms against the bare read's 1.10 / 0.8 = 1.375: 1.025 ms less. Next 0.60 against 0.36: the largest part over the bare read's.
    assert.match(why, /the call may cost 1\.38 ms per request, all threads \(the bare read's 1\.10 \/ 0\.8\): 1\.02 ms less than now\./);
    assert.match(why, /Its parts over the bare read's: Next \+0\.24, our code \+0\.20, other threads \+0\.20, Drizzle \+0\.10 ms\./);
    // Our code 0.20 + Drizzle 0.10: at zero 1.10 / 2.10 of the bare read.
    assert.match(
      why,
      /Our code, Drizzle and postgres\.js together spend 0\.30 ms on the main thread: at zero the call would be at 52 % of the bare read, still under the target\./,
    );
    assert.match(why, /The largest part, Next \(\+0\.24 ms\), is Next's own work [^]*the lever is serving \/v1 without the App Router/);
  });

  it("a read whose CPU per request is within the target's: the shortfall is waiting, and it says so", () => {
    const light = window(DETAIL, 1000, { all: 1300, main: 1100 }, summary(0.2, { next: 0.3 }));
    const profile = { ...results.profile, routes: [results.profile.routes[0], light] };
    const why = rowOf(targetRows({ ...results, profile }), `${DETAIL} (PostgreSQL)`).why!;
    assert.match(
      why,
      /1\.30 ms \(all threads\), is within what the target allows \(1\.38 ms[^]*falls short by waiting, not by CPU\. Its server was idle 20 % of its profile window against the bare app's 10 %/,
    );
  });

  it("the jobs' CPU per journey comes from the split deployment's worker process, without a profiler, when the run has it", () => {
    const split = { ...journey, role: "worker-process", worker: "process", cpu: { ...journey.cpu, worker: used(500, 400) } };
    const withSplit = { ...results, journeys: [...results.journeys, split] };
    const jobs = rowOf(targetRows(withSplit), "Job CPU per journey");
    // 500 ms of the worker process over its 100 journeys.
    assert.match(jobs.name, /the split deployment's worker process at 32\.0 journeys\/s/);
    assert.equal(jobs.measured, "5.0 ms");
    assert.equal(jobs.met, true);
    const heavier = { ...split, cpu: { ...split.cpu, worker: used(900, 700) } };
    const over = rowOf(targetRows({ ...results, journeys: [...results.journeys, heavier] }), "Job CPU per journey");
    assert.equal(over.measured, "9.0 ms");
    assert.match(
      over.why!,
      /^Measured without a profiler, [^]*: 9\.0 ms per journey \(target 6 ms\), 7\.0 ms on its main thread and 2\.0 ms on its other threads\. In the profiled journey window [^]*7\.0 ms[^]*The lever: fewer statements per job/,
    );
    // The journey's floor counts the same jobs.
    const cpu = rowOf(targetRows({ ...results, journeys: [...results.journeys, heavier] }), "Server CPU per journey");
    assert.match(cpu.why!, /at target: the jobs as measured \(the worker process of the split deployment's journey run[^]*\| 9\.0 \|/);
    assert.match(cpu.why!, /The lever: the calls' own/);
  });

  it("the rate, the p99, PGlite and RSS each name theirs", () => {
    assert.match(rowOf(rows, "Journeys/s one process sustains").why!, /The lever is the CPU per journey's: at 30 ms one core serves 33\.3 journeys\/s/);
    assert.match(
      rowOf(rows, "Per-call p99 at 80 %").why!,
      /Calls with a p99 of 100 ms or more: POST quotes 150\.0 ms\. The lever is in what those calls wait on/,
    );
    assert.match(rowOf(rows, "PGlite reads").why!, /The lever: PGlite's own part is PostgreSQL compiled to WebAssembly/);
    // 120 MB of heap, 90 in use: 30 MB allocated and idle.
    assert.match(rowOf(rows, "Server RSS after the journey, PGlite").why!, /The lever: 30 MB of V8's heap is allocated and not in use/);
  });
});

describe("bench report: the p99's lever from PostgreSQL's sessions", () => {
  it("names the state the busy sessions were in most, after running, and its lever", () => {
    const databaseWaits = {
      samples: 500,
      busyPerSample: 2.5,
      states: [
        { name: "running", share: 0.5 },
        { name: "Lock: transactionid", share: 0.3 },
        { name: "idle in transaction (waiting for the server's next statement)", share: 0.2 },
      ],
    };
    const why = rowOf(targetRows({ ...results, journeys: [journey, { ...at80, databaseWaits }, pgliteJourney] }), "Per-call p99 at 80 %").why!;
    assert.match(
      why,
      /500 samples, 2\.5 busy on average\), by share of their busy samples: running 50 %, Lock: transactionid 30 %, idle in transaction[^]*20 %\./,
    );
    assert.match(why, /After running, the most is Lock: transactionid \(30 %\): the lever is the row the calls queue on/);
  });
});
