// Renders bench/run.mjs results as docs/performance.md: machine, commands, figures, and each
// target of issue 13 with the measured figure and, where it is not met, what explains it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import { fmt, table } from "./stats.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const pctOf = (x) => `${Math.round(x * 100)} %`;
const verdict = (ok) => (ok ? "**met**" : "**not met**");

// A row's ratio is to the bare anchor measured by the same load generator (wrk for reads, the Node
// closed loop for writes); runs from before the Node anchor existed have only wrk's.
const anchorOf = (run, row) =>
  run.rows.find((r) => r.kind === "anchor" && (r.driver ?? "wrk") === (row.driver ?? "wrk")) ?? run.rows.find((r) => r.kind === "anchor");

function callsSection(run) {
  const rows = run.rows.map((r) => [
    r.route,
    r.kind,
    fmt(r.rps),
    fmt(r.p50, 1),
    fmt(r.p99, 1),
    fmt(r.rps / anchorOf(run, r).rps, 2),
    r.kind === "read" ? "≥ 0.80" : r.kind === "write" ? "≥ 0.50" : "",
    fmt(r.statementsPerRequest, 1),
    String(r.errors),
  ]);
  return [
    `Per call, ${run.database}, ${run.connections} connections (reads: wrk ${run.seconds} s after a warm-up; writes: a Node closed loop of ${run.connections} callers over prepared inputs, counted over the steady middle 80 % of calls). Each row's × anchor is to the bare anchor measured by the same load generator. Server RSS after: ${run.rss} MB.`,
    "",
    table(["Call", "kind", "req/s", "p50 ms", "p99 ms", "× anchor", "target", "statements/request", "errors"], rows),
  ].join("\n");
}

// A journey's own length at the spec's polling cadence with no load (two poll waits of 1 s and the
// calls between): the last arrival may finish this long after the arrivals end.
const JOURNEY_SECONDS = 3;
/** Journeys per second the server kept up with: all of them, over the arrivals or the time it
 * needed to finish them (less one journey's own length), whichever is longer. */
export const sustained = (j) => j.completed / Math.max(j.arrivals, j.elapsed - JOURNEY_SECONDS);

function journeySection(j) {
  const calls = j.calls.map((c) => [c.name, String(c.count), fmt(c.p50, 1), fmt(c.p99, 1), String(c.errors)]);
  return [
    `Journeys, ${j.database}${j.instances > 1 ? `, ${j.instances} \`next start\` processes behind one port (Node cluster)` : ", one `next start`"}: arrivals at ${j.rate}/s for ${j.seconds} s over ${j.customers} customers, polling at the spec's cadence:`,
    "",
    `- **${fmt(sustained(j), 1)} journeys/s sustained**: ${j.completed} of ${j.completed + j.failed} completed, the last ${fmt(j.elapsed, 1)} s after the first arrival (arrivals lasted ${fmt(j.arrivals, 1)} s; one journey takes about ${JOURNEY_SECONDS} s at the spec's cadence unloaded), so the rate kept up with is ${j.completed} / ${fmt(Math.max(j.arrivals, j.elapsed - JOURNEY_SECONDS), 1)} s`,
    `- job latency, submit → validated: p50 ${fmt(j.jobLatency.submitToValidated.p50)} ms, p99 ${fmt(j.jobLatency.submitToValidated.p99)} ms; funding call sent → funded: p50 ${fmt(j.jobLatency.fundingToFunded.p50)} ms, p99 ${fmt(j.jobLatency.fundingToFunded.p99)} ms`,
    `- server RSS: ${j.rss.before} MB before the load, peak ${j.rss.peak} MB, **${j.rss.after} MB after**`,
    ...(j.cpu
      ? [
          `- server CPU: ${fmt(j.cpu.serverMsPerJourney, 1)} ms per journey, ${fmt(j.cpu.serverCores * 100)} % of one core over the load (a Node process runs its JavaScript on one core); the machine (${cpus().length} cores: load generator, PostgreSQL and server) was ${fmt(j.cpu.machineBusy * 100)} % busy`,
        ]
      : []),
    `- bare anchor in the same run (wrk, c=50): ${fmt(j.anchor.rps)} req/s, p50 ${fmt(j.anchor.p50, 1)} ms, p99 ${fmt(j.anchor.p99, 1)} ms`,
    "",
    table(["Call", "count", "p50 ms", "p99 ms", "errors"], calls),
  ].join("\n");
}

function targets(r) {
  const out = [];
  for (const run of r.calls ?? []) {
    for (const row of run.rows.filter((x) => x.kind === "read" || x.kind === "write")) {
      const need = row.kind === "read" ? 0.8 : 0.5;
      const ratio = row.rps / anchorOf(run, row).rps;
      out.push([`${row.route} (${run.database})`, `≥ ${need * 100} % of anchor`, pctOf(ratio), verdict(ratio >= need)]);
    }
  }
  const pg = r.journeys?.find((j) => j.database === "PostgreSQL" && j.instances === 1);
  const lite = r.journeys?.find((j) => j.database === "PGlite");
  if (pg) {
    const worstP99 = Math.max(...pg.calls.map((c) => c.p99));
    out.push(["Journeys/s sustained, PostgreSQL", "≥ 25", fmt(sustained(pg), 1), verdict(sustained(pg) >= 25 && pg.failed === 0)]);
    out.push(["Per-call p99 in the journey, PostgreSQL", "< 100 ms", `${fmt(worstP99)} ms (worst call)`, verdict(worstP99 < 100)]);
  }
  if (pg && lite)
    out.push(["Journeys/s, PGlite", "≥ 30 % of PostgreSQL", pctOf(sustained(lite) / sustained(pg)), verdict(sustained(lite) >= 0.3 * sustained(pg))]);
  for (const j of r.journeys ?? []) {
    if (j.instances > 1) continue;
    out.push([`Server RSS after the journey, ${j.database}`, "< 300 MB", `${j.rss.after} MB`, verdict(j.rss.after < 300)]);
  }
  return table(["Target", "target", "measured", ""], out);
}

const short = (route) =>
  route.startsWith("bare")
    ? "anchor"
    : route.startsWith("GET")
      ? "detail"
      : (/\/(quotes|accept|submit|cancel|confirm)\b[^/]*$/.exec(route.split(" ")[1])?.[1] ?? route);

/** The profile per route: self time by category (one column per route), then each route's top functions. */
export function profileSection(p) {
  if (!p?.routes) return "(not run)";
  const cats = [...new Set(p.routes.flatMap((r) => r.summary.categories.map((c) => c.name)))];
  const shareIn = (r, name) => r.summary.categories.find((c) => c.name === name)?.share ?? 0;
  cats.sort((a, b) => p.routes.reduce((s, r) => s + shareIn(r, b) - shareIn(r, a), 0));
  const perRoute = p.routes.map((r) =>
    [
      `**${r.route}** (${r.requests} requests, ${fmt(r.summary.ms / 1000, 1)} s of profile):`,
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
    ].join("\n"),
  );
  return [
    `CPU profile (\`node --cpu-prof\`) of one production server on ${p.database}, loaded in turn by each call below at c=50 (reads: wrk ${p.seconds} s after a warm-up; writes: ${p.writes} calls, a closed loop of 50 callers, as in the per-call table). The samples are split by each load's time window and mapped to source file:line through the build's source maps (Turbopack writes them next to the server chunks; they are read from disk after the run, nothing is loaded into the server). Shares are of all samples in the window, idle included. Inclusive time leaves out Node's own frames (the event loop's \`runMicrotasks\` and \`processTicksAndRejections\` hold nearly all of it).${p.at ? ` Run at ${p.at.slice(0, 16)} UTC, load average ${fmt(p.load, 1)} at the end.` : ""}`,
    "",
    "Self time by category and route:",
    "",
    table(
      ["Category", ...p.routes.map((r) => short(r.route))],
      cats.map((c) => [c, ...p.routes.map((r) => pctOf(shareIn(r, c)))]),
    ),
    "",
    "Top functions per route (self time, and inclusive time: the function and everything it called):",
    "",
    perRoute.join("\n\n"),
  ].join("\n");
}

export function render(r) {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${execFileSync("uname", ["-sr"], { encoding: "utf8" }).trim()}`;
  const notes = readFileSync(path.join(root, "bench/notes.md"), "utf8");
  return `# Performance

Measured by \`npm run bench\` (bench/run.mjs; \`BENCH_DATABASE_URL=postgres://… npm run bench\`) against a production
build, load generated from the same machine (client and server share the CPU), on ${new Date().toISOString().slice(0, 16)} UTC in
${fmt(r.minutes, 1)} minutes. Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}. Every route is compared with the bare anchor (a route handler doing one primary-key select, no
pipeline) measured in the same run: that ratio is the figure to read when the machine is shared.

Machine: ${machine}.

Commands: \`npm run build\`, then \`BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench\`;
one part alone: \`BENCH_ONLY=calls|journey|profile|auth|screening\`; one file: \`BENCH_DRIVER=pglite node --import tsx bench/calls.ts\`.

## Targets (issue 13)

${r.calls || r.journeys ? targets(r) : "(not run)"}

## Per call

${(r.calls ?? []).map(callsSection).join("\n\n")}

## Transfer journey

${(r.journeys ?? []).map(journeySection).join("\n\n")}

## Profile

${profileSection(r.profile)}

${notes}
## Auth API

${r.auth ?? "(not run)"}

## Sanctions screening

${r.screening ?? "(not run)"}
`;
}
