// Renders bench/run.mjs results as docs/performance.md: machine, commands, figures, and each
// target (docs/decisions.md, "Performance measured against a bare app") with the measured figure and, where it is not met, what explains it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import {
  JOBS_CPU_TARGET,
  JOURNEY_CPU_TARGET,
  PGLITE_READ_TARGET,
  READ_TARGET,
  WRITE_OF_READ,
  WRITE_OF_WRITE,
  callRemainder,
  jobLatencyRemainder,
  jobsRemainder,
  journeyCpuRemainder,
  limitsRemainder,
  memoryRemainder,
  monitoringRemainder,
  p99Remainder,
  pgliteRemainder,
  splitJobs,
  sustainedRemainder,
} from "./remainders.mjs";
import { fmt, table } from "./stats.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const pctOf = (x) => `${Math.round(x * 100)} %`;
const verdict = (ok) => (ok ? "**met**" : "**not met**");

// A row's ratios are to the bare app (bench/bare-app) measured by the same load generator (wrk for
// reads, the Node closed loop for writes) in the same run.
const bareRead = (run, row) => run.rows.find((r) => r.kind === "bare-read" && r.driver === row.driver);
const bareWrite = (run) => run.rows.find((r) => r.kind === "bare-write");
const readRatio = (run, row) => row.rps / bareRead(run, row).rps;
const writeRatio = (run, row) => row.rps / bareWrite(run).rps;

function statementsOf(r) {
  if (r.statementsPerRequest === undefined) return "";
  return `${fmt(r.statementsPerRequest, 1)} (${fmt(r.controlPerRequest, 1)})`;
}

// The words for an error kind of bench/calls.ts (wrk's and the Node driver's), in this order.
const ERROR_KINDS = [
  ["timeout", "timeouts"],
  ["read", "read errors"],
  ["connect", "connect errors"],
  ["write", "write errors"],
  ["non2xx", "non-2xx"],
  ["failed", "failed"],
];

/** A row's errors by kind ("timeouts 23, non-2xx 1"), "0" when none; a bare number (an older run's) as it is. */
export function errorsText(errors) {
  if (typeof errors === "number") return String(errors);
  const parts = ERROR_KINDS.filter(([k]) => errors?.[k] > 0).map(([k, words]) => `${words} ${errors[k]}`);
  return parts.length ? parts.join(", ") : "0";
}
const timeoutsOf = (row) => (typeof row.errors === "object" ? (row.errors?.timeout ?? 0) : 0);

/** The answer's body per request, bytes, with its Content-Encoding when it has one. */
export function bodyText(row) {
  if (row.bodyBytes === undefined) return "";
  return `${fmt(row.bodyBytes)}${row.contentEncoding ? ` (${row.contentEncoding})` : ""}`;
}

/** The per-call target of a row: reads on PGlite at 0.5 of the bare read; PGlite's writes have none. */
function targetOf(run, r) {
  if (r.kind === "read") return `≥ ${fmt(run.database === "PGlite" ? PGLITE_READ_TARGET : READ_TARGET, 2)} of read`;
  if (r.kind !== "write") return "";
  return run.database === "PGlite" ? "none (issue 26: PGlite's reads only)" : `≥ ${fmt(WRITE_OF_READ, 2)} of read, ≥ ${fmt(WRITE_OF_WRITE, 2)} of write`;
}

/** How a per-call run's server was started. */
function deploymentOf(run) {
  const launched = run.launcher === "cluster" ? "bench/cluster.mjs" : "`npm start` (scripts/start.mjs)";
  return run.worker === "process"
    ? `the split deployment, \`IN_PROCESS_WORKER=false\` ${launched} beside \`npm run worker\``
    : `${launched}, the job worker in the web process`;
}

/** The in-process run on PostgreSQL (what `npm start` serves): the targets are judged on it. */
const npmStartCalls = (r) => r.calls?.find((run) => run.database === "PostgreSQL" && run.worker !== "process");
const splitCalls = (r) => r.calls?.find((run) => run.database === "PostgreSQL" && run.worker === "process");

/** Each call's ratios under both deployments side by side (PostgreSQL). */
export function deploymentsSection(r) {
  const one = npmStartCalls(r);
  const split = splitCalls(r);
  if (!one || !split) return "(not run: both PostgreSQL per-call runs are needed)";
  const ratio = (run, route, of) => {
    const row = run.rows.find((x) => x.route === route);
    if (!row) return "";
    return fmt(of === "read" ? readRatio(run, row) : writeRatio(run, row), 2);
  };
  const rows = one.rows
    .filter((x) => x.kind === "read" || x.kind === "write")
    .map((row) => [
      row.route,
      row.kind,
      ratio(one, row.route, "read"),
      ratio(split, row.route, "read"),
      row.kind === "write" ? ratio(one, row.route, "write") : "",
      row.kind === "write" ? ratio(split, row.route, "write") : "",
    ]);
  const sat = r.journeys?.find((j) => j.database === "PostgreSQL" && j.role === "saturation");
  const wp = r.journeys?.find((j) => j.role === "worker-process");
  const journeyRow = (label, j) =>
    j
      ? [
          label,
          fmt(sustained(j), 1),
          fmt(j.cpu?.serverMsPerJourney, 1),
          j.cpu?.web ? fmt(j.cpu.web.all / Math.max(1, j.completed), 1) : "",
          j.cpu?.worker ? fmt(j.cpu.worker.all / Math.max(1, j.completed), 1) : "(in the web process)",
          `${j.rss.after}${j.rss.worker ? ` + ${j.rss.worker}` : ""}`,
        ]
      : [label, "(not run)", "", "", "", ""];
  return [
    "Per call, PostgreSQL, both runs in this bench (each against the bare app measured in its own run):",
    "",
    table(["Call", "kind", "× bare read, npm start", "× bare read, split", "× bare write, npm start", "× bare write, split"], rows),
    "",
    "The journey on PostgreSQL at the same arrivals (CPU per completed journey, all threads, from /proc; the server's figure includes scripts/start.mjs, idle):",
    "",
    table(
      [
        "Deployment",
        "journeys/s sustained",
        "server CPU ms per journey",
        "web process ms per journey",
        "worker process ms per journey",
        "RSS after, MB (web + worker)",
      ],
      [journeyRow("npm start (worker in the web process)", sat), journeyRow("split: web + `npm run worker`", wp)],
    ),
  ].join("\n");
}

function callsSection(run) {
  const rows = run.rows.map((r) => [
    r.route,
    r.kind,
    r.driver,
    fmt(r.rps),
    fmt(r.p50, 1),
    fmt(r.p99, 1),
    r.kind === "bare-read" ? "1.00" : fmt(readRatio(run, r), 2),
    r.kind === "write" || r.kind === "bare-write" ? fmt(writeRatio(run, r), 2) : "",
    targetOf(run, r),
    statementsOf(r),
    bodyText(r),
    errorsText(r.errors),
  ]);
  const timedOut = run.rows.filter((r) => timeoutsOf(r) > 0);
  const timeouts = timedOut.length
    ? ` ${timedOut.length} of the wrk rows had timeouts (no answer within wrk's 2 s): wrk leaves those requests out of its latencies, so those rows' p50 and p99 are of the answered requests only.`
    : "";
  return [
    `### ${run.database}: ${deploymentOf(run)}`,
    "",
    `Per call, ${run.database}, ${run.connections} connections (reads: wrk ${run.seconds} s after a warm-up; writes: a Node closed loop of ${run.connections} callers over prepared inputs, counted over the steady middle 80 % of calls). The bare app (bench/bare-app, PostgreSQL) is measured by both load generators in the same run; each row's ratios are to the bare app measured by its own generator. Statements per request: counted on the wire between a server of ours and PostgreSQL (bench/lib/pg-count-proxy.mjs, sequential calls outside the load; in brackets, how many of them are BEGIN/COMMIT); a write's count includes the jobs it causes meanwhile (its event's delivery, submit's fast-check). PGlite runs inside the server's process: nothing to count on a wire. Body bytes: the answer's body, one request alone before the row's load with that load's headers (wrk asks for no compression; the Node driver asks \`accept-encoding: identity\`), as it came over the wire; a Content-Encoding in brackets. Errors by kind: wrk's non-2xx answers and socket errors (connect, read: the connection closed or reset, write, timeout: no answer within 2 s), the Node driver's non-2xx answers and failed calls (no answer).${timeouts} Server RSS after: ${run.rss} MB${run.workerRss ? ` (the worker process: ${run.workerRss} MB)` : ""}.`,
    "",
    table(
      [
        "Call",
        "kind",
        "driver",
        "req/s",
        "p50 ms",
        "p99 ms",
        "× bare read",
        "× bare write",
        "target",
        "statements/request (BEGIN/COMMIT)",
        "body bytes",
        "errors",
      ],
      rows,
    ),
  ].join("\n");
}

// A journey's own length at the spec's polling cadence with no load (two poll waits of 1 s and the
// calls between): the last arrival may finish this long after the arrivals end.
const JOURNEY_SECONDS = 3;
/** Journeys per second the server kept up with: all of them, over the arrivals or the time it
 * needed to finish them (less one journey's own length), whichever is longer. */
export const sustained = (j) => j.completed / Math.max(j.arrivals, j.elapsed - JOURNEY_SECONDS);

const ROLE = {
  saturation: "the highest rate one process sustains (arrivals above it)",
  "at-80": "at 80 % of the sustained rate: per-call p99 and job latency",
  "worker-process": "the split deployment (`IN_PROCESS_WORKER=false npm start` beside `npm run worker`), arrivals as the saturation run",
  pglite: "the journey at its own arrival rate",
};

function journeySection(j) {
  const calls = j.calls.map((c) => [c.name, String(c.count), fmt(c.p50, 1), fmt(c.p99, 1), String(c.errors)]);
  const where =
    j.instances > 1
      ? `${j.instances} \`next start\` processes behind one port (Node cluster)`
      : "one server started as `npm start` starts it (scripts/start.mjs)";
  const worker = j.worker === "process" ? ", the job worker in its own process (`npm run worker`)" : ", the job worker in the web process";
  return [
    `### ${j.database}${j.role ? `: ${ROLE[j.role] ?? j.role}` : ""}`,
    "",
    `${where}${worker}: arrivals at ${fmt(j.rate, 1)}/s for ${j.seconds} s over ${j.customers} customers, polling at the spec's cadence:`,
    "",
    `- **${fmt(sustained(j), 1)} journeys/s sustained**: ${j.completed} of ${j.completed + j.failed} completed, the last ${fmt(j.elapsed, 1)} s after the first arrival (arrivals lasted ${fmt(j.arrivals, 1)} s; one journey takes about ${JOURNEY_SECONDS} s at the spec's cadence unloaded), so the rate kept up with is ${j.completed} / ${fmt(Math.max(j.arrivals, j.elapsed - JOURNEY_SECONDS), 1)} s`,
    `- job latency, submit → validated: p50 ${fmt(j.jobLatency.submitToValidated.p50)} ms, p99 ${fmt(j.jobLatency.submitToValidated.p99)} ms; funding call sent → funded: p50 ${fmt(j.jobLatency.fundingToFunded.p50)} ms, p99 ${fmt(j.jobLatency.fundingToFunded.p99)} ms`,
    `- server RSS: ${j.rss.before} MB before the load, peak ${j.rss.peak} MB, **${j.rss.after} MB after**${j.rss.worker ? ` (the worker process: ${j.rss.worker} MB)` : ""}`,
    ...(j.eventLoopDelay
      ? [
          `- the server's event loop over the load (bench/lib/probe.mjs: how late its 10 ms timer ran): p50 ${fmt(j.eventLoopDelay.p50, 1)} ms, p99 ${fmt(j.eventLoopDelay.p99, 1)} ms, max ${fmt(j.eventLoopDelay.max, 1)} ms`,
        ]
      : []),
    ...(j.cpu
      ? [
          `- server CPU: **${fmt(j.cpu.serverMsPerJourney, 1)} ms per journey**${j.worker === "process" ? " (web and worker processes together)" : ""}, ${fmt(j.cpu.serverCores * 100)} % of one core over the load (a Node process runs its JavaScript on one core); the machine (${cpus().length} cores: load generator, PostgreSQL and server) was ${fmt(j.cpu.machineBusy * 100)} % busy`,
        ]
      : []),
    `- the bare app's read in the same run (wrk, c=50): ${fmt(j.anchor.rps)} req/s, p50 ${fmt(j.anchor.p50, 1)} ms, p99 ${fmt(j.anchor.p99, 1)} ms`,
    "",
    table(["Call", "count", "p50 ms", "p99 ms", "errors"], calls),
  ].join("\n");
}

/**
 * Each performance target measured in the run: what it asks, the figure, whether it is met, and
 * for one not met what explains the remainder, from the same run's figures (./remainders.mjs).
 */
const FEATURE_SHARE_TARGET = 0.05;
const pct1 = (x) => `${(x * 100).toFixed(1)} %`;

/**
 * Each feature's share (bench/lib/owners.ts FEATURES) of the busy samples of every profiled call,
 * of the journey window's web process and of its worker process (where the payout jobs run), with
 * the worst of them: the feature's CPU is at most that share of the thread's.
 */
export function featureShares(profile) {
  if (!profile?.routes) return [];
  const places = [
    ...profile.routes.filter((x) => x.summary?.features).map((x) => ({ where: x.route, summary: x.summary })),
    ...(profile.journey?.summary?.features ? [{ where: "the journey, web process", summary: profile.journey.summary }] : []),
    ...(profile.journey?.worker?.features ? [{ where: "the journey, worker process", summary: profile.journey.worker }] : []),
  ];
  if (!places.length) return [];
  return places[0].summary.features.map(({ name }) => {
    const each = places.map((p) => ({ where: p.where, share: p.summary.features.find((f) => f.name === name)?.share ?? 0 }));
    return { name, each, worst: { name, ...each.reduce((w, e) => (e.share > w.share ? e : w)) } };
  });
}

function featuresSection(features) {
  if (!features.length) return "(not profiled: the profile predates the measurement)";
  const places = features[0].each.map((e) => e.where);
  return [
    "Of each thread's busy samples in its profile window, those with a frame of the feature's files on the stack (bench/lib/owners.ts FEATURES; a floor: an awaited continuation has none of its callers on it). Target (issue 42): at most 5 % of a call's CPU each.",
    "",
    `| where | ${features.map((f) => f.name).join(" | ")} |`,
    `|---|${features.map(() => "---|").join("")}`,
    ...places.map((where, i) => `| ${where} | ${features.map((f) => pct1(f.each[i].share)).join(" | ")} |`),
  ].join("\n");
}

function featuresRemainder(features) {
  return (
    features
      .map(
        (f) =>
          `${f.name}: ${
            f.each
              .filter((e) => e.share > 0)
              .map((e) => `${e.where} ${pct1(e.share)}`)
              .join(", ") || "no sample"
          }.`,
      )
      .join(" ") +
    " Shares of the thread's busy samples with a frame of the feature's files on the stack (a floor: an awaited continuation has none of its callers on it). The lever: the part over 5 % is the feature's own work per call (the configuration in force is already kept per process and selected by effective time in memory; routing reads the providers' cover once per payout)."
  );
}

export function targetRows(r) {
  const out = [];
  const add = (name, goal, measured, met, why) => out.push({ name, goal, measured, met, why: met ? undefined : why() });
  const pgCalls = npmStartCalls(r);
  const liteCalls = r.calls?.find((run) => run.database === "PGlite");
  if (pgCalls) {
    for (const row of pgCalls.rows.filter((x) => x.kind === "read")) {
      const ratio = readRatio(pgCalls, row);
      add(`${row.route} (PostgreSQL)`, `≥ ${pctOf(READ_TARGET)} of the bare read`, pctOf(ratio), ratio >= READ_TARGET, () =>
        callRemainder(r.profile, row, bareRead(pgCalls, row)),
      );
    }
    for (const row of pgCalls.rows.filter((x) => x.kind === "write")) {
      const ofRead = readRatio(pgCalls, row);
      const ofWrite = writeRatio(pgCalls, row);
      add(
        `${row.route} (PostgreSQL)`,
        `≥ ${pctOf(WRITE_OF_READ)} of the bare read and ≥ ${pctOf(WRITE_OF_WRITE)} of the bare write`,
        `${pctOf(ofRead)} and ${pctOf(ofWrite)}`,
        ofRead >= WRITE_OF_READ && ofWrite >= WRITE_OF_WRITE,
        () => callRemainder(r.profile, row, bareWrite(pgCalls)),
      );
    }
  }
  const pg = r.journeys?.find((j) => j.database === "PostgreSQL" && j.role === "saturation");
  // The split deployment's run: its worker process's CPU is the jobs' without a profiler.
  const split = r.journeys?.find((j) => j.role === "worker-process");
  const at80 = r.journeys?.find((j) => j.role === "at-80");
  if (pg) {
    const ms = pg.cpu.serverMsPerJourney;
    add("Server CPU per journey, PostgreSQL", `≤ ${JOURNEY_CPU_TARGET} ms`, `${fmt(ms, 1)} ms`, ms <= JOURNEY_CPU_TARGET, () =>
      journeyCpuRemainder(pg, r.profile, pgCalls, split),
    );
    const rate = sustained(pg);
    add("Journeys/s one process sustains, PostgreSQL, spec-cadence polling", "≥ 30", fmt(rate, 1), rate >= 30 && pg.failed === 0, () =>
      sustainedRemainder(pg, rate, r.profile, split),
    );
  }
  if (at80) {
    const worst = at80.calls.reduce((w, c) => (c.p99 > w.p99 ? c : w));
    add(`Per-call p99 at 80 % of that rate (${fmt(at80.rate, 1)}/s)`, "< 100 ms", `${fmt(worst.p99)} ms (worst: ${worst.name})`, worst.p99 < 100, () =>
      p99Remainder(at80, r.profile),
    );
    const v = at80.jobLatency.submitToValidated.p99;
    const f = at80.jobLatency.fundingToFunded.p99;
    add("Job latency p99 at that rate: submit → validated, funding → funded", "< 250 ms each", `${fmt(v)} ms, ${fmt(f)} ms`, v < 250 && f < 250, () =>
      jobLatencyRemainder(at80),
    );
  }
  // The jobs a journey causes: the split deployment's worker process (no profiler, the saturation
  // run's arrivals), else the worker process in the profiled journey window (bench/profile.ts);
  // the profile divides it by job kind.
  const pj = r.profile?.journey;
  const jobs = splitJobs(split);
  if (pj?.cpu?.worker && pj.requests > 0) {
    const ms = jobs ? jobs.ms : pj.cpu.worker.all / pj.requests;
    add(
      `Job CPU per journey, PostgreSQL (${jobs ? `the split deployment's worker process at ${fmt(split.rate, 1)} journeys/s` : "the worker process in the profiled journey window"})`,
      `≤ ${JOBS_CPU_TARGET} ms`,
      `${fmt(ms, 1)} ms`,
      ms <= JOBS_CPU_TARGET,
      () => jobsRemainder(r.profile, JOBS_CPU_TARGET, split),
    );
  }
  const features = featureShares(r.profile);
  if (features.length) {
    const worst = features.map((f) => f.worst);
    add(
      "New features' share of a call's CPU (configuration in force, payout routing), PostgreSQL profile",
      `≤ ${pctOf(FEATURE_SHARE_TARGET)} each`,
      worst.map((w) => `${pct1(w.share)} (${w.where})`).join("; "),
      worst.every((w) => w.share <= FEATURE_SHARE_TARGET),
      () => featuresRemainder(features),
    );
  }
  const m = r.monitoring;
  if (m) {
    add(`Monitoring evaluation p99 (issue 22), ${m.transfers.toLocaleString("en")} transfers in the windows`, "≤ 5 ms", `${m.p99} ms`, m.p99 <= 5, () =>
      monitoringRemainder(m),
    );
  }
  const l = r.limits;
  if (l) {
    add(
      `Limit reservation p99 (issue 23): what it adds to a quote accept, ${l.history} transfers counted`,
      "≤ 5 ms",
      `${l.reservation.p99} ms`,
      l.reservation.p99 <= 5,
      () => limitsRemainder(l),
    );
  }
  if (liteCalls) {
    const ratios = liteCalls.rows.filter((x) => x.kind === "read").map((row) => readRatio(liteCalls, row));
    const worst = Math.min(...ratios);
    add(
      "PGlite reads, of the bare app on PostgreSQL",
      `≥ ${pctOf(PGLITE_READ_TARGET)}`,
      `${pctOf(worst)}–${pctOf(Math.max(...ratios))}`,
      worst >= PGLITE_READ_TARGET,
      () => pgliteRemainder(r.profilePglite, r.profile),
    );
  }
  for (const j of r.journeys ?? []) {
    if (j.role !== "saturation" && j.role !== "pglite") continue;
    add(`Server RSS after the journey, ${j.database}`, "< 300 MB", `${j.rss.after} MB`, j.rss.after < 300, () => memoryRemainder(j));
  }
  return out;
}

function targets(rows) {
  return table(
    ["Target", "target", "measured", ""],
    rows.map((t) => [t.name, t.goal, t.measured, verdict(t.met)]),
  );
}

/** For each target not met, the figures of this run that explain the remainder. */
function remainderSection(rows) {
  const unmet = rows.filter((t) => !t.met);
  if (unmet.length === 0) return "Every target measured in this run is met.";
  return [
    "Computed from this run's figures (bench/lib/remainders.mjs). Every CPU figure is a process's or a thread's CPU over a window, from /proc; a CPU profile's busy samples only divide it (the Profile section). Per call: its CPU per request against the bare app's, its statements counted on the wire, and its answer's body against the bare app's; per journey: the run's CPU in parts each measured (its calls, its jobs, Node's other threads) and what is left, then the floor: the run's calls per journey at the bare app's CPU per request, and each at its per-call target plus the jobs; for the rate, the same floor in journeys/s; for the rate and p99, the server's event loop during the load; for memory, the process's own account of it; for monitoring and limits, their steps.",
    ...unmet.flatMap((t) => ["", `**${t.name}** (${t.measured}; target ${t.goal}): ${t.why}`]),
  ].join("\n");
}

const short = (route) =>
  route.startsWith("bare")
    ? "bare app"
    : route.startsWith("journeys")
      ? "journey"
      : route.startsWith("GET")
        ? route.replace(/^GET \/v1\/core\//, "").replace(/ \(registered\)$/, "")
        : (/\/(quotes|accept|submit|cancel|confirm|complete)\b[^/]*$/.exec(route.split(" ")[1])?.[1] ?? route);

/** A profile window's top functions: self time and inclusive time side by side. */
function topFunctions(r, unit = "requests") {
  return [
    `**${r.route}** (${r.requests} ${unit}, ${fmt(r.summary.ms / 1000, 1)} s of profile, ${r.summary.samples} samples, ${pctOf(r.summary.idle)} of them idle):`,
    "",
    table(
      ["#", "self time: function (source)", "share", "inclusive time: function (source)", "share"],
      r.summary.self.map((f, i) => [
        String(i + 1),
        `\`${f.name}\``,
        pctOf(f.share),
        r.summary.total[i] ? `\`${r.summary.total[i].name}\`` : "",
        r.summary.total[i] ? pctOf(r.summary.total[i].share) : "",
      ]),
    ),
  ].join("\n");
}

/** The journey window's main threads by owner (bench/lib/owners.ts), ms per journey: each one's /proc CPU by its busy samples' shares. */
function journeyOwners(j) {
  const rows = (process, summary, cpu) =>
    summary.owners.filter((o) => o.share >= 0.001).map((o) => [process, o.name, fmt((o.share * (cpu?.main ?? NaN)) / j.requests, 2), pctOf(o.share)]);
  return [
    `The journey window by owner: the job whose handler (a \`defineJob\` file in lib/) is on a sample's stack, else the route whose app/…/route.ts is, else the worker's own code (lib/platform/jobs) or the request pipeline (lib/interface/http, lib/platform/http); a sample with none of them by its category ("unowned"). A stack shows only what runs synchronously: an awaited continuation has the awaiting function on top and none of its callers, and postgres.js reading a reply has nothing of ours on it, so an owner's figure is a floor.${j.worker ? " The job worker runs in a profiled process of its own here (`npm run worker`'s scripts/worker.ts): all its busy samples are jobs and the worker's loop." : ""} Each process's main-thread CPU over the window (/proc) divided by the shares of its busy samples. Server CPU over the window by /proc: ${fmt(j.cpu.all / j.requests, 1)} ms per journey in all (all threads${j.worker ? ", both processes" : ""}, and the cluster primary bench/cluster.mjs runs the profiled server under), of it the web process's main thread ${fmt(j.cpu.web?.main / j.requests, 1)} ms${j.cpu.worker ? ` and the worker's ${fmt(j.cpu.worker.main / j.requests, 1)} ms` : ""}.`,
    "",
    table(
      ["Process", "Owner", "ms per journey", "share of its busy samples"],
      [...rows("web", j.summary, j.cpu.web), ...(j.worker ? rows("worker", j.worker, j.cpu.worker) : [])],
    ),
  ].join("\n");
}

/** The profile per route: self time by category (one column per window), then each window's top functions. */
export function profileSection(p) {
  if (!p?.routes) return "(not run)";
  const windows = p.journey ? [...p.routes, p.journey] : p.routes;
  const cats = [...new Set(windows.flatMap((r) => r.summary.categories.map((c) => c.name)))];
  const shareIn = (r, name) => r.summary.categories.find((c) => c.name === name)?.share ?? 0;
  cats.sort((a, b) => windows.reduce((s, r) => s + shareIn(r, b) - shareIn(r, a), 0));
  const perRoute = p.routes.map((r) => topFunctions(r));
  // Per request (per journey in the journey window), ms, from /proc over each window.
  const perRequest = (label, of) => [label, ...windows.map((r) => fmt(of(r) / r.requests, 2))];
  const journey = p.journey ? `\n\n${journeyOwners(p.journey)}\n\n${topFunctions(p.journey, "journeys")}` : "";
  return [
    `CPU profile (\`node --cpu-prof\`): first the bare app (bench/bare-app, its own process, under wrk), then one production server of ours on ${p.database}, loaded in turn by each call below at c=50 (reads: wrk ${p.seconds} s each after a ${p.warmup ?? 2} s warm-up${p.writes > 0 ? `; writes and the journey's calls between them: a closed loop of 50 callers, as in the per-call table, over ${p.writes} quotes, each disclosed and accepted, then half of them submitted, confirmed and funded and the other half cancelled: each window's calls are in its heading` : "; no writes"})${p.journey ? `, then by the transfer journey itself (bench/journey.ts's arrivals, ${fmt(p.journey.rate, 1)}/s for ${p.journey.seconds} s at the spec's polling cadence)` : ""}. Each window's CPU is read from /proc (each process's threads together and its main thread, which runs the JavaScript); the samples only divide it: they are split by each load's time window and mapped to source file:line through the build's source maps (Turbopack writes them next to the server chunks; they are read from disk after the run, nothing is loaded into the server). Shares are of the busy samples in the window, each sample counted once (a sample's wall-time gap to the next also holds any wait for a core); idle samples are no CPU. Inclusive time leaves out Node's own frames (the event loop's \`runMicrotasks\` and \`processTicksAndRejections\` hold nearly all of it).${p.at ? ` Run at ${p.at.slice(0, 16)} UTC, load average ${fmt(p.load, 1)} at the end.` : ""}`,
    "",
    "CPU per request by window, ms (/proc; the journey's per journey), then the main thread's busy samples by category (self time), each a share of them:",
    "",
    table(
      ["", ...windows.map((r) => short(r.route))],
      [
        perRequest("main thread, ms", (r) => r.cpu?.web?.main ?? NaN),
        perRequest("other threads, ms", (r) => r.cpu?.web?.otherThreads ?? NaN),
        perRequest("worker process's main thread, ms", (r) => r.cpu?.worker?.main ?? NaN),
        ["idle samples (no CPU)", ...windows.map((r) => pctOf(r.summary.idle))],
        ...cats.map((c) => [c, ...windows.map((r) => pctOf(shareIn(r, c)))]),
      ],
    ),
    "",
    "Top functions per window (self time, and inclusive time: the function and everything it called):",
    "",
    perRoute.join("\n\n") + journey,
  ].join("\n");
}

/** The Profile section: PostgreSQL's profile of every call, then PGlite's of the read. */
export function profilesSection(r) {
  const pglite = r.profilePglite ? `\n\n### PGlite\n\n${profileSection(r.profilePglite)}` : "";
  return `${profileSection(r.profile)}${pglite}`;
}

export function render(r) {
  const rows = targetRows(r);
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${execFileSync("uname", ["-sr"], { encoding: "utf8" }).trim()}`;
  const notes = readFileSync(path.join(root, "bench/notes.md"), "utf8");
  return `# Performance

Measured by \`npm run bench\` (bench/run.mjs; \`BENCH_DATABASE_URL=postgres://… npm run bench\`) against a production
build, load generated from the same machine (client and server share the CPU), on ${new Date().toISOString().slice(0, 16)} UTC in
${fmt(r.minutes, 1)} minutes. Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}. Every route is compared with the bare app (bench/bare-app: a separate Next app of the same version,
started with the same flags beside ours, one route handler doing one prepared postgres.js primary-key select, and one
doing one INSERT) measured in the same run: that ratio is the figure to read when the machine is shared.

Machine: ${machine}.

Commands: \`npm run build\`, then \`BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench\`;
one part alone: \`BENCH_ONLY=calls|journey|profile|auth|screening|monitoring|limits\`; one file: \`BENCH_DRIVER=pglite node --import tsx bench/calls.ts\`.

## Targets (issues 26 and 42)

${rows.length ? targets(rows) : "(not run)"}

## What explains the remainder, per target

${rows.length ? remainderSection(rows) : "(not run)"}

## Per call

${(r.calls ?? []).map(callsSection).join("\n\n")}

## npm start and the split deployment

${deploymentsSection(r)}

${readFileSync(path.join(root, "bench/deployments.md"), "utf8").trim()}

## Transfer journey

${(r.journeys ?? []).map(journeySection).join("\n\n")}

## Profile

${profilesSection(r)}

### New features' share of the calls and jobs

${featuresSection(featureShares(r.profile))}

${notes}
## Auth API

${r.auth ?? "(not run)"}

## Sanctions screening

${r.screening ?? "(not run)"}

## Transaction monitoring

${monitoringSection(r.monitoring)}

## Limit reservation

${limitsSection(r.limits)}
`;
}

/** The evaluation's cost at the fast-check (bench/monitoring.ts), against its 5 ms target. */
function monitoringSection(m) {
  if (!m) return "(not run)";
  const met = m.p99 <= 5 ? "met" : "not met";
  return `bench/monitoring.ts: ${m.transfers.toLocaleString("en")} transfers submitted over 7 days by ${m.customers} customers (PostgreSQL, seeded in SQL), then the live default pack's evaluation (one prepared statement: the rule sets in force and the partner's mode and values checked, every aggregate read; the evaluation's record is written at commit, outside the timing) for ${m.samples} of them, each in its own transaction.

| Evaluation p50 | p99 | max | one round trip p50 / p99 (same connection) | held by the pack |
|---|---|---|---|---|
| ${m.p50} ms | ${m.p99} ms | ${m.max} ms | ${m.roundTripP50} / ${m.roundTripP99} ms | ${Math.round(m.heldShare * 100)} % |

Target (issue 22): the evaluation adds at most 5 ms to the fast-check's p99: **${met}** (${m.p99} ms).`;
}

/** What the limit reservation adds to a quote accept (bench/limits.ts), against its 5 ms target. */
function limitsSection(l) {
  if (!l) return "(not run)";
  const u = l.usageStatement;
  return `bench/limits.ts (PostgreSQL, its own database): one customer with ${l.history} transfers counted over the last 180 days among ${l.transfers.toLocaleString("en")}, then ${l.runs} reservations (reserveWithinLimits, as at quote accept), each in a transaction already open, sequential on one connection. Timed: the reservation alone (the lock of the customer's subscription and the window sums, sent together), not the transaction's BEGIN and COMMIT, which are the accept's. Beside it, the bench process's CPU in the call (building the statements, postgres.js, the sums), which the machine's load does not change; the usage statement's time inside PostgreSQL is EXPLAIN ANALYZE's.

| Reservation p50 | p99 | max | process CPU p50 / p99 | one round trip p50 / p99 (same transaction) | usage statement in PostgreSQL p50 / p99 | its plan |
|---|---|---|---|---|---|---|
| ${l.reservation.p50} ms | ${l.reservation.p99} ms | ${l.reservation.max} ms | ${l.processCpu.p50} / ${l.processCpu.p99} ms | ${l.roundTrip.p50} / ${l.roundTrip.p99} ms | ${u.p50} / ${u.p99} ms | ${u.scan}${u.index ? ` on ${u.index}` : ""}, ${u.heapFetches ?? 0} heap fetches, ${u.buffers} buffers |

Target (issue 26): the limit reservation costs at most 5 ms p99: **${l.reservation.p99 <= 5 ? "met" : "not met"}** (${l.reservation.p99} ms).`;
}
