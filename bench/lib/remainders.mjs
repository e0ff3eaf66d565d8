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

/** A read or a write of the per-call table: its profile against the bare app's, and its statements. */
export function callRemainder(profile, row) {
  const route = profiled(profile, row.route);
  const bare = bareOf(profile);
  if (!route || !bare) return ["Not profiled in this run.", statementsOf(row)].filter(Boolean).join(" ");
  const shares = CATEGORIES.map(([category, label]) => `${label} ${pct(shareOf(route, category))} (${pct(shareOf(bare, category))})`);
  return [
    `Share of its profile's samples (the bare app's in brackets): ${shares.join(", ")}.`,
    `Main-thread CPU per request: ${fmt(cpuPerRequest(route), 2)} ms (${fmt(cpuPerRequest(bare), 2)} ms).`,
    statementsOf(row),
  ]
    .filter(Boolean)
    .join(" ");
}

// The journey's calls (bench/journey.ts names) that the profile measures, by the profile's route.
const JOURNEY_CALLS = [
  ["POST quotes", "POST /v1/core/quotes (RS256-signed)"],
  ["POST accept", "POST /v1/core/quotes/{id}/accept"],
  ["POST submit", "POST /v1/core/transfers/{id}/submit"],
  ["GET transfer (poll)", "GET /v1/core/transfers/{id} (registered)"],
  ["POST confirm", "POST /v1/core/transfers/{id}/confirm"],
];

/** Server CPU per journey: the main-thread CPU of each profiled call times its calls per journey. */
export function journeyCpuRemainder(journey, profile, calls) {
  const started = Math.max(1, journey.completed + journey.failed);
  const parts = [];
  let profiledMs = 0;
  for (const [name, routeName] of JOURNEY_CALLS) {
    const call = journey.calls.find((c) => c.name === name);
    const route = profiled(profile, routeName);
    if (!call || !route) continue;
    const perJourney = call.count / started;
    const ms = perJourney * cpuPerRequest(route);
    profiledMs += ms;
    const row = calls?.rows.find((r) => r.route === routeName);
    const statements =
      row?.statementsPerRequest === undefined ? "" : `, ${fmt(row.statementsPerRequest, 1)} statements (${fmt(row.controlPerRequest, 1)} BEGIN/COMMIT) each`;
    parts.push(`${name} ${fmt(perJourney, 1)} × ${fmt(cpuPerRequest(route), 2)} ms = ${fmt(ms, 1)} ms${statements}`);
  }
  const total = journey.cpu.serverMsPerJourney;
  if (parts.length === 0) return `${fmt(total, 1)} ms of server CPU per journey; none of its calls is in this run's profile.`;
  const others = journey.calls.filter((c) => !JOURNEY_CALLS.some(([name]) => name === c.name)).map((c) => c.name);
  return `${fmt(total, 1)} ms of server CPU per journey (all threads). Main-thread CPU of the profiled calls, per journey: ${parts.join("; ")}; together ${fmt(profiledMs, 1)} ms. The other ${fmt(total - profiledMs, 1)} ms: the calls not profiled (${others.join(", ")}), the jobs the worker runs, and Node's threads besides the main one.`;
}

/** Journeys/s one process sustains: what its CPU per journey allows on one core, and what it used. */
export function sustainedRemainder(journey, rate) {
  const ms = journey.cpu.serverMsPerJourney;
  return `At ${fmt(ms, 1)} ms of server CPU per journey, one core serves at most ${fmt(1000 / ms, 1)} journeys/s; the server used ${pct(journey.cpu.serverCores)} of one core (the machine ${pct(journey.cpu.machineBusy)} busy) and kept up with ${fmt(rate, 1)}/s, ${journey.completed} of ${journey.completed + journey.failed} journeys completed.`;
}

/** The per-call p99 at 80 % of the sustained rate: the worst call and the server's load then. */
export function p99Remainder(journey) {
  const worst = journey.calls.reduce((w, c) => (c.p99 > w.p99 ? c : w));
  return `Worst: ${worst.name}, p50 ${fmt(worst.p50, 1)} ms, p99 ${fmt(worst.p99, 1)} ms over ${worst.count} calls. At ${fmt(journey.rate, 1)} arrivals/s the server used ${pct(journey.cpu.serverCores)} of one core, ${fmt(journey.cpu.serverMsPerJourney, 1)} ms per journey; the machine was ${pct(journey.cpu.machineBusy)} busy.`;
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

export function memoryRemainder(journey) {
  return `RSS ${journey.rss.before} MB before the load, peak ${journey.rss.peak} MB, ${journey.rss.after} MB after.`;
}
