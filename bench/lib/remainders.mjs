// What explains the remainder of each target a run did not meet, computed from that
// run's own figures (the results object of bench/run.mjs). Every CPU figure is a process's or a
// thread's CPU from /proc over a window (bench/lib/proc-cpu.mjs); a profile's busy samples only
// divide it (Next, Node internals, our code, Drizzle, postgres.js, GC, ...). A small table per
// target; bench/lib/report.mjs decides which targets are met and lists these beside them.
import { fmt, table } from "./stats.mjs";

const pct = (x) => `${Math.round(x * 100)} %`;

// The per-call targets (docs/decisions.md, "Performance measured against a bare app"), as rates against the bare app's read on the same machine.
export const READ_TARGET = 0.8;
export const WRITE_OF_READ = 0.5;
export const WRITE_OF_WRITE = 0.7;
export const PGLITE_READ_TARGET = 0.5;
/** The server CPU target per journey, ms. */
export const JOURNEY_CPU_TARGET = 30;
/** The jobs a journey causes, ms of the worker process's CPU per journey. */
export const JOBS_CPU_TARGET = 6;

// The profile's categories (bench/lib/cpu-profile.ts) named in a split, in this order; the others
// are summed as "the rest".
const CATEGORIES = [
  ["next", "Next"],
  ["node (internals, native)", "Node internals"],
  ["GC", "GC"],
  ["drizzle-orm", "Drizzle"],
  ["postgres.js", "postgres.js"],
  ["our code (lib/, app/, db/)", "our code"],
];
const PGLITE = ["PGlite (WebAssembly)", "PGlite (JS)"];

export const shareOf = (summary, category) => summary.categories.find((c) => c.name === category)?.share ?? 0;
/** A window's CPU per request (per journey in the journey window), ms, from /proc: the web process's main thread. */
export const cpuPerRequest = (route) => (route.cpu?.web ? route.cpu.web.main / route.requests : NaN);
/** The web process's other threads (all its threads less the main one) per request, ms. */
const otherThreadsPerRequest = (route) => (route.cpu?.web ? route.cpu.web.otherThreads / route.requests : NaN);
/** The worker process's main thread per request (PostgreSQL: the jobs the window's calls caused), ms; 0 with no worker apart. */
const workerPerRequest = (route) => (route.cpu?.worker ? route.cpu.worker.main / route.requests : 0);
const profiled = (profile, name) => profile?.routes.find((r) => r.route === name);
const bareOf = (profile) => profile?.routes.find((r) => r.route.startsWith("bare"));

/** A main thread's CPU (ms) divided by its profile's category shares: [label, ms] per category, then the rest. */
function byCategory(summary, ms) {
  const named = CATEGORIES.map(([category, label]) => [label, shareOf(summary, category) * ms]);
  const rest = ms - named.reduce((a, [, x]) => a + x, 0);
  return [...named, ["the rest (other packages, V8, unmapped)", rest]];
}

/** An owner's share (bench/lib/owners.ts) of a summary's busy samples. */
const ownerShare = (summary, name) => summary.owners?.find((o) => o.name === name)?.share ?? 0;
const ownersWhere = (summary, test) => (summary.owners ?? []).filter((o) => test(o.name));

function statementsOf(row) {
  if (row?.statementsPerRequest === undefined) return "";
  return `${fmt(row.statementsPerRequest, 1)} statements per request, ${fmt(row.controlPerRequest, 1)} of them BEGIN/COMMIT (the bare read: 1, none).`;
}

/**
 * The answer's body against its anchor's (the bare read for a read, the bare write for a write),
 * each from one request alone with its load's headers (bench/calls.ts).
 */
export function bodyOf(row, anchor) {
  if (row?.bodyBytes === undefined || anchor?.bodyBytes === undefined) return "";
  const enc = (r) => (r.contentEncoding ? `, ${r.contentEncoding}` : "");
  const what = anchor.kind === "bare-write" ? "the bare write's" : "the bare read's";
  const items = row.bodyItems === undefined ? "" : `, ${row.bodyItems} item${row.bodyItems === 1 ? "" : "s"}`;
  return `Its answer's body: ${fmt(row.bodyBytes)} bytes${enc(row)}${items} against ${what} ${fmt(anchor.bodyBytes)}${enc(anchor)} (${fmt(row.bodyBytes / anchor.bodyBytes, 1)} ×).`;
}

/**
 * A read or a write of the per-call table: its CPU per request against the bare app's, each from
 * its profile window (/proc), the main thread divided by the profile's shares, and its statements.
 */
export function callRemainder(profile, row, anchor) {
  const route = profiled(profile, row.route);
  const bare = bareOf(profile);
  if (!route || !bare) return ["Not profiled in this run.", statementsOf(row), bodyOf(row, anchor)].filter(Boolean).join(" ");
  const ms = (x) => fmt(x, 2);
  const mine = cpuPerRequest(route);
  const bareMain = cpuPerRequest(bare);
  const ours = byCategory(route.summary, mine);
  const theirs = new Map(byCategory(bare.summary, bareMain));
  const rows = [
    ["all threads of the web process (/proc)", ms(mine + otherThreadsPerRequest(route)), ms(bareMain + otherThreadsPerRequest(bare))],
    ["main thread (/proc)", ms(mine), ms(bareMain)],
    ...ours.map(([label, x]) => [`– ${label}`, ms(x), ms(theirs.get(label))]),
    ["other threads (all less main)", ms(otherThreadsPerRequest(route)), ms(otherThreadsPerRequest(bare))],
  ];
  if (route.cpu?.worker) rows.push(["the jobs it caused: the worker process's main thread", ms(workerPerRequest(route)), "–"]);
  return [
    `CPU per request in its profile window and the bare app's read in its own (wrk), ms; the main thread divided by the shares of its busy profile samples (idle: ${pct(route.summary.idle)} of its samples, the bare app's ${pct(bare.summary.idle)}). Main thread, the bare app's over this call's: ${fmt(bareMain / mine, 2)}. ${statementsOf(row)} ${bodyOf(row, anchor)}`.trim(),
    "",
    table(["CPU per request", "this call", "bare app's read"], rows),
    "",
    callLever(route, bare, row),
  ].join("\n");
}

/** What each part of a call's CPU would take to shrink: the lever named for the part that exceeds the bare read's most. */
const CALL_LEVERS = {
  "Node internals": {
    read: "Node's HTTP and socket work and the promise turns of the request pipeline, which grow with the request's headers (API key, token) and the answer's size; the lever that removes most of it with Next's part is serving /v1 without the App Router (a plain Node handler for /v1 in scripts/start.mjs, in front of Next), since our handlers themselves are a small share",
    write:
      "the statements' round trips: each costs Node a socket write, a read and the promise turns around them; the lever is fewer round trips per call (the call's statements sent as one: its writes as data-modifying CTEs of one statement, db/write-together.ts, or one PostgreSQL function per write)",
  },
  Next: {
    read: "Next's own work per request beyond the bare route's (routing, wrapping the Request and Response, its headers); the lever is serving /v1 without the App Router (a plain Node handler for /v1 in scripts/start.mjs, in front of Next)",
    write:
      "Next's own work per request beyond the bare route's; the lever is serving /v1 without the App Router (a plain Node handler for /v1 in scripts/start.mjs, in front of Next)",
  },
  "other threads": {
    read: "Node's other threads: GC's helpers (allocations per request) and libuv's pool; the lever is less garbage per request (the envelope's and the row mapping's objects)",
    write:
      "Node's other threads: GC's helpers (the parallel scavenges and marking of the garbage each write leaves) and libuv's pool (WebCrypto's RS256, for the quote's signature and confirm's verification); the levers are less garbage per write, V8's young generation sized for it (`--max-semi-space-size`, scripts/server-node-args.mjs), and for quote and confirm the signature's cost",
  },
  GC: {
    read: "garbage collection on the main thread; the lever is fewer allocations per request",
    write: "garbage collection on the main thread; the lever is fewer allocations per request",
  },
  Drizzle: {
    read: "Drizzle's query building and row mapping; the lever is the call's statement prepared once per process (db/prepared.ts)",
    write: "Drizzle's query building and row mapping; the lever is the call's statements prepared once per process (db/prepared.ts), as the reads' are",
  },
  "postgres.js": {
    read: "postgres.js's parsing of the rows; the lever is fewer and smaller rows",
    write: "postgres.js's work per statement; the lever is fewer statements",
  },
  "our code": { read: "our own code; its owners are in the Profile section", write: "our own code; its owners are in the Profile section" },
};

/**
 * The lever for a call that misses its target: how much less CPU per request it must cost (all
 * threads, against the bare read's at the target ratio), which parts exceed the bare read's, how
 * much of it our code and its database packages are, and the lever of the largest excess.
 */
export function callLever(route, bare, row) {
  const kind = row.kind === "read" ? "read" : "write";
  const all = (r) => cpuPerRequest(r) + otherThreadsPerRequest(r);
  const ratio = kind === "read" ? READ_TARGET : WRITE_OF_READ;
  const target = all(bare) / ratio;
  const gap = all(route) - target;
  const theirs = new Map(byCategory(bare.summary, cpuPerRequest(bare)));
  const ours = byCategory(route.summary, cpuPerRequest(route));
  const excess = [
    ...ours.map(([label, x]) => [label, x - (theirs.get(label) ?? 0)]),
    ["other threads", otherThreadsPerRequest(route) - otherThreadsPerRequest(bare)],
  ]
    .filter(([label]) => label !== "the rest (other packages, V8, unmapped)")
    .sort((a, b) => b[1] - a[1]);
  const own = ours.filter(([label]) => ["our code", "Drizzle", "postgres.js"].includes(label)).reduce((a, [, x]) => a + x, 0);
  const [top] = excess;
  const lever = CALL_LEVERS[top[0]]?.[kind] ?? "";
  const withoutOwn = all(bare) / (all(route) - own);
  if (gap <= 0) {
    return `Its CPU per request in its profile window, ${fmt(all(route), 2)} ms (all threads), is within what the target allows (${fmt(target, 2)} ms: the bare read's ${fmt(all(bare), 2)} / ${fmt(ratio, 1)}): its rate falls short by waiting, not by CPU. Its server was idle ${pct(route.summary.idle)} of its profile window against the bare app's ${pct(bare.summary.idle)}, waiting on PostgreSQL (which shares the machine's cores with the server and the load generator); the lever is in what it waits on, not measured apart in this run.`;
  }
  return [
    `At the target (${pct(ratio)} of the bare read) the call may cost ${fmt(target, 2)} ms per request, all threads (the bare read's ${fmt(all(bare), 2)} / ${fmt(ratio, 1)}): ${fmt(gap, 2)} ms less than now.`,
    `Its parts over the bare read's: ${excess
      .filter(([, x]) => x > 0.005)
      .slice(0, 4)
      .map(([label, x]) => `${label} +${fmt(x, 2)}`)
      .join(", ")} ms.`,
    `Our code, Drizzle and postgres.js together spend ${fmt(own, 2)} ms on the main thread: at zero the call would be at ${pct(withoutOwn)} of the bare read${withoutOwn < ratio ? ", still under the target" : ""}.`,
    `The largest part, ${top[0]} (+${fmt(top[1], 2)} ms), is ${lever}.`,
  ].join(" ");
}

// The journey's calls (bench/journey.ts names) by the profile's window of each.
const JOURNEY_CALLS = [
  ["POST quotes", "POST /v1/core/quotes (RS256-signed)"],
  ["GET disclosure", "GET /v1/core/quotes/{id}/disclosure"],
  ["POST accept", "POST /v1/core/quotes/{id}/accept"],
  ["POST submit", "POST /v1/core/transfers/{id}/submit"],
  ["GET transfer (poll)", "GET /v1/core/transfers/{id} (registered)"],
  ["POST confirm", "POST /v1/core/transfers/{id}/confirm"],
  ["POST funding complete (sandbox)", "POST /v1/sandbox/funding-sessions/{id}/complete"],
];

/** A run's main threads and the rest of its CPU per journey, ms (bench/journey.ts `cpu`: web, worker from /proc). */
function runThreads(journey) {
  const n = Math.max(1, journey.completed);
  const total = journey.cpu.serverMsPerJourney;
  const { web, worker } = journey.cpu;
  if (!web) return { total, main: NaN, other: NaN };
  const main = (web.main + (worker?.main ?? 0)) / n;
  return { total, main, other: total - main };
}

/**
 * The jobs per journey, by job kind: the worker process's main thread in the profiled journey window
 * (/proc) divided by the owner of its busy samples (the job whose handler is on the stack, the
 * worker's loop, GC, none of them); without that window, each call's window's worker time times
 * the call's count.
 */
export function jobsPerJourney(profile, perCall) {
  const j = profile?.journey;
  if (j?.worker && j.cpu?.worker) {
    const ms = j.cpu.worker.main / j.requests;
    const kinds = ownersWhere(j.worker, (name) => name.startsWith("job ")).map((o) => [o.name.replace(/^job /, ""), o.share * ms]);
    const loop = ownerShare(j.worker, "the worker (lib/platform/jobs)") * ms;
    const gc = ownerShare(j.worker, "GC") * ms;
    const none = ms - kinds.reduce((a, [, x]) => a + x, 0) - loop - gc;
    const parts = [...kinds, ["the worker's loop (lib/platform/jobs)", loop], ["GC", gc], ["no handler on the stack", none]];
    return {
      ms,
      how: `the worker process's main thread in the profiled journey window (${j.requests} journeys at ${fmt(j.rate, 1)}/s, /proc), by the handler on its samples' stacks: ${parts.map(([k, x]) => `${k} ${fmt(x, 1)}`).join(", ")}`,
    };
  }
  const ms = perCall.reduce((a, c) => a + c.perJourney * c.jobs, 0);
  if (perCall.every((c) => c.jobs === 0)) return { ms: 0, how: "no worker process profiled in this run: in the calls' own CPU" };
  return { ms, how: "each call's window: the worker process's main thread per call times its calls per journey" };
}

/**
 * The jobs' CPU per journey without a profiler: the worker process of the split deployment's
 * journey run (`npm run worker` beside the web process, the saturation run's arrivals), all its
 * threads over the run's completed journeys (/proc); null without that run.
 */
export function splitJobs(split) {
  if (!split?.cpu?.worker || !(split.completed > 0)) return null;
  const n = split.completed;
  return {
    ms: split.cpu.worker.all / n,
    main: split.cpu.worker.main / n,
    other: split.cpu.worker.otherThreads / n,
    how: `the worker process of the split deployment's journey run (${n} journeys at ${fmt(split.rate, 1)}/s, no profiler), all threads, /proc`,
  };
}

/**
 * The journey's floor on this framework: the run's calls per journey (every call it made,
 * failed ones included, over its completed journeys) at the bare app's CPU per request (all threads
 * of its process, /proc, its profile window), and the same calls each exactly at its per-call target
 * plus the jobs as measured. A ratio is a rate against the bare read on the same machine, so a call
 * at ratio r costs the bare app's CPU per request / r: a read at 0.8, a write at 0.5 (of the bare
 * read). The jobs: the worker process's CPU (all threads, /proc) per journey in the profiled journey
 * window; null without the bare app's window.
 */
export function journeyFloor(journey, profile, split) {
  const bare = bareOf(profile);
  if (!bare?.cpu?.web || !(bare.requests > 0)) return null;
  const n = Math.max(1, journey.completed);
  const perCall = bare.cpu.web.all / bare.requests;
  const count = (test) => journey.calls.filter((c) => test(c.name)).reduce((a, c) => a + c.count, 0) / n;
  const reads = count((name) => name.startsWith("GET"));
  const writes = count((name) => !name.startsWith("GET"));
  const j = profile.journey;
  const jobs =
    splitJobs(split) ??
    (j?.cpu?.worker
      ? {
          ms: j.cpu.worker.all / j.requests,
          how: `the worker process's CPU in the profiled journey window (${j.requests} journeys at ${fmt(j.rate, 1)}/s), all threads, /proc`,
        }
      : { ms: 0, how: "no worker process profiled in this run: not counted" });
  const read = perCall / READ_TARGET;
  const write = perCall / WRITE_OF_READ;
  const floor = (reads + writes) * perCall;
  const atTarget = reads * read + writes * write + jobs.ms;
  return { n, perCall, bareRequests: bare.requests, bareMs: bare.cpu.web.all, reads, writes, read, write, floor, jobs, atTarget };
}

/** The floor as a table and a sentence for the CPU per journey's remainder (journeyFloor). */
function floorText(journey, f) {
  const ms = (x) => fmt(x, 1);
  const rows = [
    ["every call at the bare app's CPU per request", `${fmt(f.reads + f.writes, 2)}`, fmt(f.perCall, 2), ms(f.floor)],
    [`at target: the reads at ${fmt(READ_TARGET, 1)} of the bare read`, fmt(f.reads, 2), fmt(f.read, 2), ms(f.reads * f.read)],
    [`at target: the writes at ${fmt(WRITE_OF_READ, 1)} of the bare read`, fmt(f.writes, 2), fmt(f.write, 2), ms(f.writes * f.write)],
    [`at target: the jobs as measured (${f.jobs.how})`, "", "", ms(f.jobs.ms)],
    ["**at target: total**", "", "", `**${ms(f.atTarget)}**`],
  ];
  return [
    `The floor, from the run's calls (${fmt(f.reads + f.writes, 2)} per journey: every call it made over its ${f.n} completed journeys; the reads are its GETs, ${fmt(f.reads, 2)}, the writes its POSTs, ${fmt(f.writes, 2)}) and the bare app's CPU per request, ${fmt(f.perCall, 2)} ms (all threads of its process over its profile window, /proc: ${fmt(f.bareMs)} ms over ${f.bareRequests} requests). A call at ratio r of the bare read costs the bare app's CPU per request / r (the ratios are rates on the same machine):`,
    "",
    table(["", "calls per journey", "ms per call", "ms per journey"], rows),
    "",
    `Target ${JOURNEY_CPU_TARGET} ms per journey; the bare app's CPU for the same calls ${ms(f.floor)} ms (${pct(f.floor / JOURNEY_CPU_TARGET)} of the target); every call at its per-call target and the jobs as measured ${ms(f.atTarget)} ms (${pct(f.atTarget / JOURNEY_CPU_TARGET)} of it); the run ${ms(journey.cpu.serverMsPerJourney)} ms.`,
  ].join("\n");
}

/**
 * Server CPU per journey in the run, split into parts that are each measured and add up: each
 * call's CPU (its calls per journey × its window's main-thread CPU per call), the jobs (the worker's
 * main thread per journey, by job kind), Node's other threads (the run's CPU less its main threads,
 * from /proc), and the residual: what the run's main threads spent beyond the calls and jobs as
 * measured in their windows, with its sign explained.
 */
export function journeyCpuRemainder(journey, profile, calls, split) {
  const n = Math.max(1, journey.completed);
  const run = runThreads(journey);
  const perCall = [];
  for (const [name, routeName] of JOURNEY_CALLS) {
    const call = journey.calls.find((c) => c.name === name);
    const route = profiled(profile, routeName);
    if (!call || !route) continue;
    const row = calls?.rows.find((r) => r.route === routeName);
    perCall.push({ name, perJourney: call.count / n, cpu: cpuPerRequest(route), jobs: workerPerRequest(route), statements: row?.statementsPerRequest });
  }
  if (perCall.length === 0) return `${fmt(run.total, 1)} ms of server CPU per journey; none of its calls is in this run's profile.`;
  const missing = journey.calls.filter((c) => !perCall.some((p) => p.name === c.name)).map((c) => c.name);
  const callsMs = perCall.reduce((a, c) => a + c.perJourney * c.cpu, 0);
  const jobs = jobsPerJourney(profile, perCall);
  const residual = run.main - callsMs - jobs.ms;
  const rows = [
    ...perCall.map((c) => [
      c.name,
      `${fmt(c.perJourney, 1)} calls × ${fmt(c.cpu, 2)} ms (its window's main thread)${c.statements === undefined ? "" : `; ${fmt(c.statements, 1)} statements each`}`,
      fmt(c.perJourney * c.cpu, 1),
    ]),
    ["The jobs", jobs.how, fmt(jobs.ms, 1)],
    ["Node's other threads", "the run's CPU (/proc, all threads) less its main threads: GC's helpers, libuv's pool (gzip, crypto)", fmt(run.other, 1)],
    ["Residual", "the run's main threads less the calls and the jobs above", `${residual >= 0 ? "+" : ""}${fmt(residual, 1)}`],
    [
      `**Total**`,
      `the run (${journey.completed} journeys completed of ${journey.completed + journey.failed}, arrivals at ${fmt(journey.rate, 1)}/s), /proc`,
      `**${fmt(run.total, 1)}**`,
    ],
  ];
  const sign =
    residual >= 0
      ? `The residual is positive: the run's main threads spent ${fmt(residual, 1)} ms per journey more than its calls and jobs cost measured apart${missing.length ? ` (in it, the calls not profiled: ${missing.join(", ")})` : ""}. The run differs from the windows by its load: its calls interleaved at ${fmt(journey.rate, 1)} arrivals/s${journey.worker === "process" ? "" : " with the jobs and the worker's claims on the web process's event loop"}, against one call at a time in a closed loop of 50 callers; which of these costs it is not measured apart.`
      : `The residual is negative: the parts measured apart cost ${fmt(-residual, 1)} ms per journey more than the run's main threads spent. Those windows ran under the profiler (\`--cpu-prof\`: its sampling costs CPU in the profiled processes only) and at another load (one call at a time in a closed loop of 50 callers, the worker in a process of its own): either makes a call or a job cost more there than in the run; which one is not measured apart.`;
  const text = [
    `Server CPU per journey in the run, ${fmt(run.total, 1)} ms (${fmt(run.main, 1)} of it on the main threads, /proc), in parts each measured (ms per journey):`,
    "",
    table(["Part", "measured as", "ms"], rows),
    "",
    sign,
  ];
  const floor = journeyFloor(journey, profile, split);
  if (floor) {
    text.push("", floorText(journey, floor));
    text.push(
      "",
      floor.atTarget <= JOURNEY_CPU_TARGET
        ? `The lever: the calls' own (each call's remainder above names its lever) and the jobs': with every call at its per-call target and the jobs as measured the journey costs ${fmt(floor.atTarget, 1)} ms, within the ${JOURNEY_CPU_TARGET} ms target, so meeting the per-call targets meets this one.`
        : `The lever: the calls' own (each call's remainder above names its lever) and the jobs': every call at its per-call target with the jobs as measured is still ${fmt(floor.atTarget, 1)} ms, so the jobs must also come down (their target: ${JOBS_CPU_TARGET} ms per journey).`,
    );
  }
  const j = profile?.journey;
  if (j?.cpu?.web) {
    const web = cpuPerRequest(j);
    const gap = web - callsMs;
    text.push(
      "",
      `In the profiled journey window itself, the web process's main thread spent ${fmt(web, 1)} ms per journey against its calls' ${fmt(callsMs, 1)} ms measured in their windows: ${gap >= 0 ? "+" : ""}${fmt(gap, 1)} ms: ${gap >= 0 ? "the journey's calls cost more there than the same calls in closed loops" : "the same calls cost more in closed loops than in the journey"}, with the profiler and the worker process alike in both.`,
    );
  }
  return text.join("\n");
}

const eventLoopOf = (journey) => {
  const d = journey.eventLoopDelay;
  return d ? `the server's event loop ran its 10 ms timer late by p50 ${fmt(d.p50, 1)} ms, p99 ${fmt(d.p99, 1)} ms, max ${fmt(d.max, 1)} ms over the load` : "";
};

/** Journeys/s one process sustains: what its CPU per journey allows, on one core and on the main thread alone. */
export function sustainedRemainder(journey, rate, profile, split) {
  const ms = journey.cpu.serverMsPerJourney;
  const text = [
    `At ${fmt(ms, 1)} ms of server CPU per journey, one core serves at most ${fmt(1000 / ms, 1)} journeys/s; the server used ${pct(journey.cpu.serverCores)} of one core (the machine ${pct(journey.cpu.machineBusy)} busy) and kept up with ${fmt(rate, 1)}/s, ${journey.completed} of ${journey.completed + journey.failed} journeys completed.`,
  ];
  const { main } = runThreads(journey);
  if (Number.isFinite(main)) {
    text.push(
      `The JavaScript runs on one thread: ${fmt(main, 1)} ms per journey on the main thread${journey.worker === "process" ? "s" : ""} (/proc, ${pct(main / ms)} of the server's CPU) allows at most ${fmt(1000 / main, 1)} journeys/s.`,
    );
  }
  const loop = eventLoopOf(journey);
  if (loop) text.push(`${loop[0].toUpperCase()}${loop.slice(1)}.`);
  const f = journeyFloor(journey, profile, split);
  if (f) {
    text.push(
      `On the bare app's CPU per request (${fmt(f.perCall, 2)} ms, all threads, its profile window) the run's ${fmt(f.reads + f.writes, 2)} calls per journey cost ${fmt(f.floor, 1)} ms: one core serves at most ${fmt(1000 / f.floor, 1)} journeys/s; with every call at its per-call target and the jobs as measured, ${fmt(f.atTarget, 1)} ms: at most ${fmt(1000 / f.atTarget, 1)} journeys/s.`,
    );
  }
  text.push(
    `The lever is the CPU per journey's: at ${JOURNEY_CPU_TARGET} ms one core serves ${fmt(1000 / JOURNEY_CPU_TARGET, 1)} journeys/s, so the levers that bring the journey to its CPU target bring the rate to ${fmt(1000 / JOURNEY_CPU_TARGET, 1)}/s, if the server keeps the core to itself (here it shares two with PostgreSQL and the load generator).`,
  );
  return text.join(" ");
}

/** The per-call p99 at 80 % of the sustained rate: the worst call, its own CPU, and the server's event loop then. */
export function p99Remainder(journey, profile) {
  const worst = journey.calls.reduce((w, c) => (c.p99 > w.p99 ? c : w));
  const route = profiled(profile, JOURNEY_CALLS.find(([name]) => name === worst.name)?.[1]);
  const own = route
    ? ` Its own main-thread CPU is ${fmt(cpuPerRequest(route), 2)} ms per call (its profile window, /proc): the rest of its p99 is waiting.`
    : "";
  const loop = eventLoopOf(journey);
  const over = journey.calls.filter((c) => c.p99 >= 100).map((c) => `${c.name} ${fmt(c.p99, 1)} ms`);
  return `Worst: ${worst.name}, p50 ${fmt(worst.p50, 1)} ms, p99 ${fmt(worst.p99, 1)} ms over ${worst.count} calls.${own} At ${fmt(journey.rate, 1)} arrivals/s the server used ${pct(journey.cpu.serverCores)} of one core, ${fmt(journey.cpu.serverMsPerJourney, 1)} ms per journey; the machine was ${pct(journey.cpu.machineBusy)} busy${loop ? `; ${loop}: a request arriving while the loop is busy waits up to that long before any of its code runs` : ""}. Calls with a p99 of 100 ms or more: ${over.join(", ")}. ${waitLever(journey.databaseWaits)}`;
}

/** The lever for a wait, by what PostgreSQL's sessions did most while busy (bench/lib/pg-waits.mjs). */
function waitLever(waits) {
  if (!waits?.states?.length)
    return "The lever is in what those calls wait on, which this run did not sample: a lock the call's rows share with the jobs it causes, a free connection of the pool, or PostgreSQL's own turn on the shared cores.";
  const states = waits.states.slice(0, 5).map((w) => `${w.name} ${pct(w.share)}`);
  const top = waits.states.find((w) => w.name !== "running") ?? waits.states[0];
  const lever = top.name.startsWith("Lock:")
    ? "the lever is the row the calls queue on: a call and the jobs it causes lock the same transfer (or customer), so the job's lock held shorter (its network call and its reads before the lock) or taken later shortens the queue"
    : top.name.startsWith("idle in transaction")
      ? "the sessions wait inside their transactions for our server's next statement: the lever is fewer round trips inside a transaction (statements sent together) and a freer event loop"
      : top.name.startsWith("IO:") || top.name.startsWith("LWLock: WAL")
        ? "the commits wait for the log's flush: the lever is fewer commits per journey (the jobs' settlements batched)"
        : top.name.startsWith("Client:")
          ? "the sessions wait for our server to read or send: the lever is the server's event loop (less CPU per call)"
          : "PostgreSQL itself is running: the lever is fewer and cheaper statements, and PostgreSQL's own core";
  return `PostgreSQL's sessions over the load (pg_stat_activity every 20 ms, ${waits.samples} samples, ${fmt(waits.busyPerSample, 1)} busy on average), by share of their busy samples: ${states.join(", ")}. After running, the most is ${top.name} (${pct(top.share)}): ${lever}.`;
}

export function jobLatencyRemainder(journey) {
  const { submitToValidated: v, fundingToFunded: f } = journey.jobLatency;
  const where = journey.worker === "process" ? "its own process" : "the web process";
  return `submit → validated p50 ${fmt(v.p50)} ms, p99 ${fmt(v.p99)} ms; funding → funded p50 ${fmt(f.p50)} ms, p99 ${fmt(f.p99)} ms; the worker runs in ${where}, which used ${pct(journey.cpu.serverCores)} of one core.`;
}

/** PGlite's reads: PGlite's part of the detail read's main-thread CPU on PGlite, against the same read on PostgreSQL. */
export function pgliteRemainder(pgliteProfile, postgresProfile) {
  const name = "GET /v1/core/transfers/{id} (registered)";
  const route = profiled(pgliteProfile, name);
  if (!route) return "No PGlite profile in this run.";
  const onPostgres = profiled(postgresProfile, name);
  const main = cpuPerRequest(route);
  const [wasm, js] = PGLITE.map((c) => shareOf(route.summary, c) * main);
  const others = byCategory(route.summary, main)
    .map(([label, ms]) => `${label} ${fmt(ms, 2)}`)
    .join(", ");
  const against = onPostgres ? ` (the same read on PostgreSQL: ${fmt(cpuPerRequest(onPostgres), 2)} ms)` : "";
  return `The transfer detail on PGlite (${route.requests} requests in its profile window): ${fmt(main, 2)} ms of main-thread CPU per request (/proc)${against}, of it PGlite ${fmt(wasm + js, 2)} ms (WebAssembly ${fmt(wasm, 2)}, its JavaScript ${fmt(js, 2)}), by the shares of its busy samples; the others: ${others}, PGlite among the rest. PGlite runs in the server's process, on its main thread. The lever: PGlite's own part is PostgreSQL compiled to WebAssembly, not ours to shrink; the rest is the same pipeline as on PostgreSQL plus its in-process bookkeeping, so the reads' lever above (serving /v1 without the App Router) is this target's too.`;
}

/** Monitoring (bench/monitoring.ts): the evaluation's times against one round trip on its connection. */
export function monitoringRemainder(m) {
  return `Over ${m.samples} evaluations: p50 ${m.p50} ms, p99 ${m.p99} ms, max ${m.max} ms. One round trip on the same connection: p50 ${m.roundTripP50} ms, p99 ${m.roundTripP99} ms; the evaluation's p50 is ${fmt(m.p50 / m.roundTripP50, 1)} round trips, its p99 ${fmt(m.p99 / m.roundTripP99, 1)} × the round trip's p99.${m.p99 > 5 ? ` The lever: the evaluation is already one prepared statement, so its tail is mostly the round trip's own (a bare statement's p99 is ${m.roundTripP99} ms of its ${m.p99} ms): PostgreSQL on cores of its own (here it shares two with the bench process), not fewer statements; of ours, the statement's execution (its aggregates over the sender's window; docs/performance.md's notes measured bind + execute p50 at 1.2 ms on the Xeon).` : ""}`;
}

/** The limit reservation (bench/limits.ts): its time, one round trip, and the usage statement inside PostgreSQL. */
export function limitsRemainder(l) {
  const u = l.usageStatement;
  return `Over ${l.runs} reservations: p50 ${l.reservation.p50} ms, p99 ${l.reservation.p99} ms, max ${l.reservation.max} ms; the bench process's CPU in the call p50 ${l.processCpu.p50} ms, p99 ${l.processCpu.p99} ms. One round trip before it in the same transaction: p50 ${l.roundTrip.p50} ms, p99 ${l.roundTrip.p99} ms. The usage statement inside PostgreSQL (EXPLAIN ANALYZE, ${u.runs} runs): p50 ${u.p50} ms, p99 ${u.p99} ms, ${u.scan}${u.index ? ` on ${u.index}` : ""}, ${u.heapFetches ?? 0} heap fetches, ${u.buffers} buffers.`;
}

const mb = (bytes) => Math.round(bytes / 2 ** 20);

/** RSS after the journey, and what it is made of (bench/lib/probe.mjs and /proc, the web process). */
export function memoryRemainder(journey) {
  const rss = `RSS ${journey.rss.before} MB before the load, peak ${journey.rss.peak} MB, ${journey.rss.after} MB after.`;
  const m = journey.memory;
  if (!m) return rss;
  const rest = m.rss - m.heapTotal - m.external;
  const resident = m.resident
    ? ` By /proc: ${m.resident.anon} MB anonymous, ${m.resident.file} MB file-backed (the node binary and libraries mapped from disk), ${m.resident.shmem} MB shared.`
    : "";
  const slack = mb(m.heapTotal - m.heapUsed);
  const lever = ` The lever: ${slack} MB of V8's heap is allocated and not in use (the heap grows ahead of its use by \`--heap-growing-percent\`, scripts/server-node-args.mjs): a smaller growth step or an old-generation cap (\`--max-old-space-size\`) keeps it nearer its use, at the cost of more collections (the KYC checks' image and OCR libraries already load with the first check, not at start).`;
  return `${rss} After, in the web process (process.memoryUsage): RSS ${mb(m.rss)} MB; V8's heap ${mb(m.heapTotal)} MB (${mb(m.heapUsed)} MB of it in use); memory V8 counts outside its heap ${mb(m.external)} MB: ArrayBuffers ${mb(m.arrayBuffers)} MB, the rest of it (WebAssembly memory: on PGlite, its PostgreSQL) ${mb(m.external - m.arrayBuffers)} MB; heap and external are sizes allocated, not all of them resident, so RSS less both, ${mb(rest)} MB, is at least what V8 does not count (compiled code, malloc's arenas, thread stacks, the binary's pages).${resident}${lever}`;
}

/**
 * The jobs' CPU per journey over its target: the worker process in the profiled journey window
 * (all threads, /proc) and its main thread by the job kind on its samples' stacks.
 */
export function jobsRemainder(profile, target, split) {
  const j = profile.journey;
  const all = j.cpu.worker.all / j.requests;
  const main = jobsPerJourney(profile, []);
  const lever = `The lever: fewer statements per job (each job's claim, its own statements and its settlement: most of the main thread is Node's socket work and postgres.js, "no handler on the stack"), the per-batch claim and settlement only paying off where jobs come due together, and less garbage per job (its other threads are GC's helpers).`;
  const profiled = (goal) =>
    `the worker process's CPU per journey, all threads, ${fmt(all, 1)} ms${goal}: ${fmt(main.ms, 1)} ms of it on its main thread, ${main.how}; the rest, ${fmt(all - main.ms, 1)} ms, its other threads (GC's helpers, libuv)`;
  const s = splitJobs(split);
  if (!s) return `The ${profiled(` (target ${target} ms)`).slice(4)}. ${lever}`;
  return `Measured without a profiler, ${s.how}: ${fmt(s.ms, 1)} ms per journey (target ${target} ms), ${fmt(s.main, 1)} ms on its main thread and ${fmt(s.other, 1)} ms on its other threads. In the profiled journey window (the profiler's sampling costs CPU in the process it samples, and at ${fmt(j.rate, 1)} journeys/s the worker's idle claims and timers are shared by fewer journeys) ${profiled("")}. ${lever}`;
}
