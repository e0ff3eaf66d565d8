// What explains the remainder of each target a run did not meet (issue 26), computed from that
// run's own figures (the results object of bench/run.mjs): which share of a route's profile goes
// where against the bare app's, statements per request, CPU per call, step times. Sentences of
// figures only; bench/lib/report.mjs decides which targets are met and lists these beside them.
import { fmt } from "./stats.mjs";

const pct = (x) => `${Math.round(x * 100)} %`;

// The profile's categories (bench/lib/cpu-profile.ts) named in a comparison, in this order.
const CATEGORIES = [
  ["next", "Next"],
  ["node (internals, native)", "Node internals"],
  ["GC", "GC"],
  ["drizzle-orm", "Drizzle"],
  ["postgres.js", "postgres.js"],
  ["our code (lib/, app/, db/)", "our code"],
  ["idle", "idle"],
];
const PGLITE = ["PGlite (WebAssembly)", "PGlite (JS)"];

export const shareOf = (route, category) => route.summary.categories.find((c) => c.name === category)?.share ?? 0;
/** Main-thread CPU per request in a profile's window: its samples less the idle ones, over its requests. */
export const cpuPerRequest = (route) => (route.summary.ms * (1 - shareOf(route, "idle"))) / route.requests;
const profiled = (profile, name) => profile?.routes.find((r) => r.route === name);
const bareOf = (profile) => profile?.routes.find((r) => r.route.startsWith("bare"));

function statementsOf(row) {
  if (row?.statementsPerRequest === undefined) return "";
  return `${fmt(row.statementsPerRequest, 1)} statements per request, ${fmt(row.controlPerRequest, 1)} of them BEGIN/COMMIT (the bare read: 1, none).`;
}

/** An owner's time (bench/lib/owners.ts) in a profile summary, ms per request (per journey in the journey's window). */
const ownerMs = (summary, requests, name) => ((summary.owners?.find((o) => o.name === name)?.share ?? 0) * summary.ms) / requests;
const ownersOf = (summary, requests, test) =>
  (summary.owners ?? []).filter((o) => test(o.name)).map((o) => ({ name: o.name, ms: ownerMs(summary, requests, o.name) }));
/** The jobs whose handler was on the stack, ms per request. */
const jobsOnStack = (summary, requests) => ownersOf(summary, requests, (name) => name.startsWith("job "));
const sum = (list) => list.reduce((a, x) => a + x.ms, 0);
const listed = (list, digits = 2) => list.map((x) => `${x.name.replace(/^job /, "")} ${fmt(x.ms, digits)} ms`).join(", ");
const busyMs = (summary, requests) => (summary.ms * (1 - (summary.categories.find((c) => c.name === "idle")?.share ?? 0))) / requests;

/**
 * The jobs a window's calls caused, ms per request: with the worker in a profiled process of its
 * own (bench/profile.ts on PostgreSQL), all its busy samples in the window, named by the handlers
 * on their stacks; else the samples of the web process with a job's handler on the stack (a floor).
 */
function jobsOf(route) {
  if (route.worker) return { ms: busyMs(route.worker, route.requests), kinds: jobsOnStack(route.worker, route.requests), inWorker: true };
  const kinds = jobsOnStack(route.summary, route.requests);
  return { ms: sum(kinds), kinds, inWorker: false };
}
/** A call's own main-thread CPU per request: the web process's, less the jobs when they ran there too. */
const ownCpu = (route) => cpuPerRequest(route) - (route.worker ? 0 : jobsOf(route).ms);

function jobsSentence(route) {
  const jobs = jobsOf(route);
  if (jobs.ms < 0.005) return "";
  const kinds = jobs.kinds.filter((k) => k.ms >= 0.005);
  return jobs.inWorker
    ? `The jobs it caused, in the worker's process meanwhile: ${fmt(jobs.ms, 2)} ms per request${kinds.length ? ` (with their handler on the stack: ${listed(kinds)})` : ""}.`
    : `Of it, the jobs it caused, run in its window with their handler on the stack: ${listed(kinds)}.`;
}

/** A read or a write of the per-call table: its profile against the bare app's, and its statements. */
export function callRemainder(profile, row) {
  const route = profiled(profile, row.route);
  const bare = bareOf(profile);
  if (!route || !bare) return ["Not profiled in this run.", statementsOf(row)].filter(Boolean).join(" ");
  const shares = CATEGORIES.map(([category, label]) => `${label} ${pct(shareOf(route, category))} (${pct(shareOf(bare, category))})`);
  return [
    `Share of its profile's samples (the bare app's in brackets): ${shares.join(", ")}.`,
    `Main-thread CPU per request: ${fmt(cpuPerRequest(route), 2)} ms (${fmt(cpuPerRequest(bare), 2)} ms).`,
    jobsSentence(route),
    statementsOf(row),
  ]
    .filter(Boolean)
    .join(" ");
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

// The labels of the owners of a sample no handler owns, by category (bench/lib/cpu-profile.ts).
const unownedLabel = (name) => CATEGORIES.find(([category]) => name === `unowned: ${category}`)?.[1] ?? name.replace(/^unowned: /, "");
const unownedOf = (summary, requests) => ownersOf(summary, requests, (name) => name.startsWith("unowned: ")).filter((o) => o.ms >= 0.05);
const unownedList = (list) => list.map((o) => `${unownedLabel(o.name)} ${fmt(o.ms, 1)}`).join(", ");

/** The profiled journey window (bench/profile.ts): all threads and each process's main thread per journey, each by owner. */
function journeyWindow(j) {
  const n = j.requests;
  const web = cpuPerRequest(j);
  const worker = j.worker ? busyMs(j.worker, n) : 0;
  const all = j.procMs / n;
  const jobsSummary = j.worker ?? j.summary;
  return {
    web,
    worker,
    main: web + worker,
    all,
    threads: all - web - worker,
    jobs: jobsOnStack(jobsSummary, n),
    loop: ownerMs(jobsSummary, n, "the worker (lib/jobs)"),
    routes: sum(ownersOf(j.summary, n, (name) => name.startsWith("route "))),
    pipeline: ownerMs(j.summary, n, "the request pipeline (lib/http)"),
    gc: ownerMs(j.summary, n, "GC") + (j.worker ? ownerMs(j.worker, n, "GC") : 0),
    unowned: unownedOf(j.summary, n),
    workerUnowned: j.worker ? unownedOf(j.worker, n) : [],
  };
}

/**
 * Server CPU per journey: each call's main-thread CPU from its own profile window, and the jobs it
 * caused there (the worker's process), times its calls per journey; Node's other threads from the
 * profiled journey window's /proc time less its main threads, that window split by the job or
 * route on each sample's stack; and what is left of the run's figure.
 */
export function journeyCpuRemainder(journey, profile, calls) {
  const started = Math.max(1, journey.completed + journey.failed);
  const parts = [];
  let callsMs = 0;
  let jobsMs = 0;
  for (const [name, routeName] of JOURNEY_CALLS) {
    const call = journey.calls.find((c) => c.name === name);
    const route = profiled(profile, routeName);
    if (!call || !route) continue;
    const perJourney = call.count / started;
    const own = ownCpu(route);
    const jobs = jobsOf(route);
    callsMs += perJourney * own;
    jobsMs += perJourney * jobs.ms;
    const row = calls?.rows.find((r) => r.route === routeName);
    const statements =
      row?.statementsPerRequest === undefined ? "" : `, ${fmt(row.statementsPerRequest, 1)} statements (${fmt(row.controlPerRequest, 1)} BEGIN/COMMIT) each`;
    const kinds = jobs.kinds.filter((k) => k.ms >= 0.005).map((k) => k.name.replace(/^job /, ""));
    const caused = jobs.ms >= 0.005 ? ` + its jobs ${fmt(perJourney * jobs.ms, 1)} ms${kinds.length ? ` (${kinds.join(", ")})` : ""}` : "";
    parts.push(`${name} ${fmt(perJourney, 1)} × ${fmt(own, 2)} ms = ${fmt(perJourney * own, 1)} ms${caused}${statements}`);
  }
  const total = journey.cpu.serverMsPerJourney;
  if (parts.length === 0) return `${fmt(total, 1)} ms of server CPU per journey; none of its calls is in this run's profile.`;
  const others = journey.calls.filter((c) => !parts.some((p) => p.startsWith(`${c.name} `))).map((c) => c.name);
  const inWorker = JOURNEY_CALLS.some(([, routeName]) => profiled(profile, routeName)?.worker);
  const text = [
    `${fmt(total, 1)} ms of server CPU per journey (all threads).`,
    `Each call by its own profile window: its main-thread CPU per request times its calls per journey, and the jobs it caused (${inWorker ? "the worker's process in that window" : "their handlers' samples in that window, a floor"}): ${parts.join("; ")}; the calls together ${fmt(callsMs, 1)} ms, their jobs ${fmt(jobsMs, 1)} ms${others.length ? ` (not profiled: ${others.join(", ")})` : ""}.`,
  ];
  const j = profile?.journey;
  if (!j) {
    text.push(
      `The other ${fmt(total - callsMs - jobsMs, 1)} ms: Node's threads besides the main one and whatever the windows miss (no journey window in this run's profile).`,
    );
    return text.join(" ");
  }
  const w = journeyWindow(j);
  text.push(
    `The profiled journey window (${j.requests} journeys at ${fmt(j.rate, 1)}/s): ${fmt(w.all, 1)} ms per journey on all threads (/proc), ${fmt(w.web, 1)} ms on the web process's main thread${j.worker ? ` and ${fmt(w.worker, 1)} ms on the worker process's` : ""}, ${w.threads >= 0 ? `so ${fmt(w.threads, 1)} ms on Node's other threads (GC's helpers, libuv's pool: gzip, crypto) and the cluster primary the profile runs the server under.` : `more than /proc counted: the profile weighs each sample by the time to the next, which a busy machine stretches while the process waits for a core, so this run cannot tell Node's other threads apart (its profile figures are high by as much).`}`,
    `${j.worker ? "The worker's main thread" : "Its main thread"}, by the handler on each sample's stack: the jobs ${fmt(sum(w.jobs), 1)} ms (${listed(w.jobs, 1)}), the worker's own code (lib/jobs: claims, the run loop) ${fmt(w.loop, 1)} ms${j.worker ? `, no handler on the stack ${fmt(sum(w.workerUnowned), 1)} ms (${unownedList(w.workerUnowned)})` : ""}. The web process's: the routes' handlers ${fmt(w.routes, 1)} ms, the request pipeline (lib/http) ${fmt(w.pipeline, 1)} ms, no handler on the stack ${fmt(sum(w.unowned), 1)} ms (${unownedList(w.unowned)}): Next's routing and response writing, postgres.js reading replies, and awaited continuations, whose callers a stack does not show. GC ${fmt(w.gc, 1)} ms in all.`,
    w.threads >= 0
      ? `So, of the ${fmt(total, 1)} ms: the calls ${fmt(callsMs, 1)} ms and their jobs ${fmt(jobsMs, 1)} ms on the main thread, Node's other threads ${fmt(w.threads, 1)} ms; left ${fmt(total - callsMs - jobsMs - w.threads, 1)} ms: what the journey's main threads do that the calls' windows do not (in the journey window ${fmt(w.main - callsMs - jobsMs, 1)} ms of its ${fmt(w.main, 1)}), and the difference between this run's load and the profile's.`
      : `So, of the ${fmt(total, 1)} ms: the calls ${fmt(callsMs, 1)} ms and their jobs ${fmt(jobsMs, 1)} ms by their windows' profiles, which this machine's load stretched too.`,
  );
  return text.join(" ");
}

const eventLoopOf = (journey) => {
  const d = journey.eventLoopDelay;
  return d ? `the server's event loop ran its 10 ms timer late by p50 ${fmt(d.p50, 1)} ms, p99 ${fmt(d.p99, 1)} ms, max ${fmt(d.max, 1)} ms over the load` : "";
};

/** Journeys/s one process sustains: what its CPU per journey allows, on one core and on the main thread alone. */
export function sustainedRemainder(journey, rate, profile) {
  const ms = journey.cpu.serverMsPerJourney;
  const text = [
    `At ${fmt(ms, 1)} ms of server CPU per journey, one core serves at most ${fmt(1000 / ms, 1)} journeys/s; the server used ${pct(journey.cpu.serverCores)} of one core (the machine ${pct(journey.cpu.machineBusy)} busy) and kept up with ${fmt(rate, 1)}/s, ${journey.completed} of ${journey.completed + journey.failed} journeys completed.`,
  ];
  const j = profile?.journey;
  // A profile stretched by a busy machine (more main-thread time than /proc's) gives no share.
  if (j && journeyWindow(j).threads >= 0) {
    const w = journeyWindow(j);
    const mainMs = ms * (w.main / w.all);
    text.push(
      `The JavaScript runs on one thread: at the profiled journey window's share of it (${pct(w.main / w.all)} of the server's CPU), ${fmt(mainMs, 1)} ms per journey on the main thread allows at most ${fmt(1000 / mainMs, 1)} journeys/s.`,
    );
  }
  const loop = eventLoopOf(journey);
  if (loop) text.push(`${loop[0].toUpperCase()}${loop.slice(1)}.`);
  return text.join(" ");
}

/** The per-call p99 at 80 % of the sustained rate: the worst call, its own CPU, and the server's event loop then. */
export function p99Remainder(journey, profile) {
  const worst = journey.calls.reduce((w, c) => (c.p99 > w.p99 ? c : w));
  const route = profiled(profile, JOURNEY_CALLS.find(([name]) => name === worst.name)?.[1]);
  const own = route ? ` Its own main-thread CPU is ${fmt(cpuPerRequest(route), 2)} ms per call (its profile window): the rest of its p99 is waiting.` : "";
  const loop = eventLoopOf(journey);
  return `Worst: ${worst.name}, p50 ${fmt(worst.p50, 1)} ms, p99 ${fmt(worst.p99, 1)} ms over ${worst.count} calls.${own} At ${fmt(journey.rate, 1)} arrivals/s the server used ${pct(journey.cpu.serverCores)} of one core, ${fmt(journey.cpu.serverMsPerJourney, 1)} ms per journey; the machine was ${pct(journey.cpu.machineBusy)} busy${loop ? `; ${loop}: a request arriving while the loop is busy waits up to that long before any of its code runs` : ""}.`;
}

export function jobLatencyRemainder(journey) {
  const { submitToValidated: v, fundingToFunded: f } = journey.jobLatency;
  const where = journey.worker === "process" ? "its own process" : "the web process";
  return `submit → validated p50 ${fmt(v.p50)} ms, p99 ${fmt(v.p99)} ms; funding → funded p50 ${fmt(f.p50)} ms, p99 ${fmt(f.p99)} ms; the worker runs in ${where}, which used ${pct(journey.cpu.serverCores)} of one core.`;
}

/** PGlite's reads: PGlite's share of the detail read's profile on PGlite, against the same read on PostgreSQL. */
export function pgliteRemainder(pgliteProfile, postgresProfile) {
  const name = "GET /v1/core/transfers/{id} (registered)";
  const route = profiled(pgliteProfile, name);
  if (!route) return "No PGlite profile in this run.";
  const onPostgres = profiled(postgresProfile, name);
  const [wasm, js] = PGLITE.map((c) => shareOf(route, c));
  const others = CATEGORIES.map(([category, label]) => `${label} ${pct(shareOf(route, category))}`).join(", ");
  const against = onPostgres ? ` (on PostgreSQL: ${fmt(cpuPerRequest(onPostgres), 2)} ms)` : "";
  return `In the PGlite profile of the transfer detail (${route.requests} requests), PGlite takes ${pct(wasm + js)} of the samples (WebAssembly ${pct(wasm)}, its JavaScript ${pct(js)}); ${others}. Main-thread CPU per request: ${fmt(cpuPerRequest(route), 2)} ms${against}. PGlite runs in the server's process, on its main thread.`;
}

/** Monitoring (bench/monitoring.ts): the evaluation's times against one round trip on its connection. */
export function monitoringRemainder(m) {
  return `Over ${m.samples} evaluations: p50 ${m.p50} ms, p99 ${m.p99} ms, max ${m.max} ms. One round trip on the same connection: p50 ${m.roundTripP50} ms, p99 ${m.roundTripP99} ms; the evaluation's p50 is ${fmt(m.p50 / m.roundTripP50, 1)} round trips, its p99 ${fmt(m.p99 / m.roundTripP99, 1)} × the round trip's p99.`;
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
  return `${rss} After, in the web process (process.memoryUsage): RSS ${mb(m.rss)} MB; V8's heap ${mb(m.heapTotal)} MB (${mb(m.heapUsed)} MB of it in use); memory V8 counts outside its heap ${mb(m.external)} MB: ArrayBuffers ${mb(m.arrayBuffers)} MB, the rest of it (WebAssembly memory: on PGlite, its PostgreSQL) ${mb(m.external - m.arrayBuffers)} MB; heap and external are sizes allocated, not all of them resident, so RSS less both, ${mb(rest)} MB, is at least what V8 does not count (compiled code, malloc's arenas, thread stacks, the binary's pages).${resident}`;
}
