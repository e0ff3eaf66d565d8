#!/usr/bin/env node
// npm run bench: every benchmark against a production build, its servers started as `npm start`
// starts them (scripts/start.mjs; bench/server.mjs), on PostgreSQL (BENCH_DATABASE_URL or
// TEST_DATABASE_URL: a fresh database per run) and PGlite, each beside the bare app (bench/bare-app,
// built here too), then docs/performance.md. A measurement, not a test: run it on a quiet machine
// (about 15 minutes). BENCH_ONLY=calls,journey,... limits it; the parts that start no server
// (screening, monitoring, limits) need no build.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { benchAuth } from "./auth.mjs";
import { adminUrl, ensureBuild } from "./server.mjs";
import { ensureBareBuild } from "./lib/bare-app.mjs";
import { profilesSection, render, sustained } from "./lib/report.mjs";

const root = path.resolve(import.meta.dirname, "..");
const only = process.env.BENCH_ONLY?.split(",");
const want = (name) => !only || only.includes(name);
if (!adminUrl()) {
  console.error("npm run bench needs BENCH_DATABASE_URL (or TEST_DATABASE_URL): a PostgreSQL server where it may create databases.");
  process.exit(2);
}
if (["calls", "journey", "profile", "auth"].some(want)) {
  ensureBuild();
  ensureBareBuild();
}

function tsx(file, env = {}) {
  const started = Date.now();
  const res = spawnSync(process.execPath, ["--import", "tsx", path.join(root, file)], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 16 << 20,
  });
  console.error(`${file} ${JSON.stringify(env)}: ${Math.round((Date.now() - started) / 1000)} s`);
  if (res.status !== 0) {
    console.error(res.stderr);
    throw new Error(`${file} failed`);
  }
  const lines = res.stdout.trim().split("\n");
  return file.endsWith("screening.ts") ? res.stdout.trim() : JSON.parse(lines[lines.length - 1]);
}

const started = Date.now();
const results = {};
if (want("calls")) {
  // The server as `npm start` runs it (its worker in the web process), then the split deployment
  // (`IN_PROCESS_WORKER=false npm start` beside `npm run worker`), then PGlite.
  results.calls = [
    tsx("bench/calls.ts", { BENCH_DRIVER: "postgres" }),
    tsx("bench/calls.ts", { BENCH_DRIVER: "postgres", BENCH_WORKER: "process" }),
    tsx("bench/calls.ts", { BENCH_DRIVER: "pglite" }),
  ];
}
if (want("journey")) {
  // Arrivals above the target (30/s) find the highest rate one process keeps up with; then a run at
  // 80 % of it for the per-call p99 and the job latency; the split deployment (web + worker
  // processes) at the first run's arrivals; PGlite at its own rate. Every server as `npm start`.
  const RATE = process.env.BENCH_JOURNEY_RATE ?? "32";
  const SECONDS = process.env.BENCH_JOURNEY_SECONDS ?? "15";
  const journey = (role, env) => ({ role, ...tsx("bench/journey.ts", { BENCH_SECONDS: SECONDS, ...env }) });
  const saturation = journey("saturation", { BENCH_DRIVER: "postgres", BENCH_RATE: RATE });
  const at80 = 0.8 * sustained(saturation);
  results.journeys = [
    saturation,
    journey("at-80", { BENCH_DRIVER: "postgres", BENCH_RATE: at80.toFixed(1) }),
    journey("worker-process", { BENCH_DRIVER: "postgres", BENCH_RATE: RATE, BENCH_WORKER: "process" }),
    journey("pglite", { BENCH_DRIVER: "pglite" }),
  ];
}
if (want("profile")) {
  results.profile = tsx("bench/profile.ts", { BENCH_DRIVER: "postgres" });
  // PGlite's share of a read (its target's remainder): the detail read only, no writes, no journey.
  results.profilePglite = tsx("bench/profile.ts", { BENCH_DRIVER: "pglite", BENCH_WRITES: "0", BENCH_READS: "detail", BENCH_PROFILE_JOURNEY_RATE: "0" });
}
if (want("auth")) results.auth = await benchAuth();
if (want("screening")) results.screening = tsx("bench/screening.ts");
// What monitoring adds to the fast-check, with 100,000 transfers in the windows (PostgreSQL).
if (want("monitoring")) results.monitoring = tsx("bench/monitoring.ts");
// What the limit reservation adds to a quote accept (PostgreSQL, its own database).
if (want("limits")) results.limits = tsx("bench/limits.ts");
results.minutes = (Date.now() - started) / 60000;
// The raw figures, for a look after the run (not committed).
writeFileSync(path.join(tmpdir(), "remit-bench-last-run.json"), JSON.stringify(results, null, 2));
const docPath = path.join(root, "docs/performance.md");
// BENCH_ONLY=profile replaces the Profile section only; every other run writes the whole document.
const profileOnly = only?.length === 1 && only[0] === "profile" && existsSync(docPath);
const doc = profileOnly ? withSection(readFileSync(docPath, "utf8"), "Profile", profilesSection(results)) : render(results);
writeFileSync(docPath, doc);
console.log(doc);

function withSection(doc, title, text) {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/performance.md has no "## ${title}" section`);
  const bodyStart = start + `\n## ${title}\n`.length;
  const end = doc.indexOf("\n## ", bodyStart);
  return `${doc.slice(0, bodyStart)}\n${text}\n${end < 0 ? "" : doc.slice(end)}`;
}
