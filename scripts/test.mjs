#!/usr/bin/env node
/**
 * npm test: the whole suite.
 *  0. formatting (Prettier), lint (ESLint), typecheck (tsc over the whole tree), import-cycle
 *     (scripts/check-import-cycles.mjs), dependency rules (.dependency-cruiser.cjs) and OpenAPI (scripts/openapi-lint.ts: redocly lint) checks:
 *     CI fails on drift, on a type error, on a cycle among lib/, db/, app/ and components/, or on any
 *     Redocly error or warning;
 *  1. unit tests (pure modules, and database-level tests on PGlite; on PostgreSQL too when
 *     TEST_DATABASE_URL is set);
 *  2. a production build;
 *  3. HTTP integration tests against the real app, once on a fresh PGlite directory and, when
 *     TEST_DATABASE_URL is set, once on a fresh PostgreSQL database;
 *  4. browser end-to-end tests (e2e/, Chromium via playwright-core) against the production build,
 *     on a fresh PostgreSQL database when TEST_DATABASE_URL is set, else on PGlite. Chromium is
 *     installed with apt-get when it is missing and we are root.
 * Stages 0-2 run in two lanes: the unit tests on PGlite in one; the PostgreSQL unit tests, then the
 * checks, then the build, then the typecheck in the other (side()): the build skips its own type
 * check (NEXT_BUILD_TYPECHECK=off, next.config.mjs), which tsc over the whole tree, run after it on
 * its .next/types, covers. 3 and 4 follow, in three lanes at once: the integration tests on PGlite,
 * on PostgreSQL, and the browser tests.
 * `node scripts/test.mjs lint|unit|integration|e2e` runs one stage (the last two build first);
 * `node scripts/test.mjs integration e2e` runs both, in lanes at once.
 * Prints "N passed, N failed" at the end and exits non-zero on any failure.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_KEEP_ALIVE_MS } from "../test/support/server-flags.mjs";

const root = path.resolve(import.meta.dirname, "..");
// Every statement the suite sends is also rendered by Drizzle and compared with its kept text
// (db/statement-shapes.ts): the test processes and the servers they start inherit it.
process.env.STATEMENT_SHAPES_CHECK ??= "1";
// Optional: the stages to run ("lint", "unit", "integration", "e2e"; `integration e2e` runs both, in
// lanes at once as the whole suite does); none: the whole suite.
const only = process.argv.slice(2);
const runs = (stage) => only.length === 0 || only.includes(stage);
const totals = { passed: 0, failed: 0 };

/**
 * A stage's test files. TEST_FILTER (a substring of the path, or several separated by commas)
 * narrows every stage to the files that name one: `TEST_FILTER=claims node scripts/test.mjs
 * integration` builds, starts the servers and runs only those, for a developer working on one area.
 */
function testFiles(dir) {
  const abs = path.join(root, dir);
  const filter = process.env.TEST_FILTER;
  return readdirSync(abs, { recursive: true })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f))
    .filter((f) => !filter || filter.split(",").some((part) => f.includes(part)))
    .sort();
}

/**
 * Bounds on a hang (a test never settling, a file whose process does not exit): node's
 * --test-timeout stops a file after FILE_TIMEOUT_MS (Node 20 applies it to each file as a whole,
 * its process included: one that does not exit after its tests is stopped too), reported by
 * scripts/test-watch.mjs with what was running; a stage still going after STAGE_TIMEOUT_MS (a
 * backstop, before CI's own 90-minute kill) is killed whole. Either counts as a failure.
 */
const FILE_TIMEOUT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 600_000);
const STAGE_TIMEOUT_MS = Number(process.env.TEST_STAGE_TIMEOUT_MS ?? 3_600_000);

/** Test processes run in process groups of their own (for the watchdog): stopped with us. */
const groups = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    for (const pid of groups) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {}
    }
    process.exit(1);
  });
}

/**
 * Where a step's output goes: `null` streams it to ours; a lane run beside another (side()) passes
 * an array that keeps it, printed whole once both lanes ended.
 */
function say(out, text) {
  if (out) out.push(Buffer.from(`${text}\n`));
  else console.log(text);
}

/**
 * Runs a child process to its end, its output streamed to ours or kept in `out`; resolves with
 * its exit code (or signal). A process group of its own, stopped with us.
 */
async function run(args, { env, out = null, label, timeoutMs } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", out ? "pipe" : "inherit", out ? "pipe" : "inherit"],
    detached: true,
  });
  groups.add(child.pid);
  if (out) {
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => out.push(chunk));
  }
  let killed = false;
  const watchdog =
    timeoutMs &&
    setTimeout(() => {
      killed = true;
      say(out, `\n=== ${label}: still running after ${timeoutMs / 60_000} min: killed (see [watch] lines above for what ran)\n`);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, timeoutMs);
  const closed = new Promise((resolve) => child.once("close", resolve));
  const status = await new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  clearTimeout(watchdog);
  // What the child wrote last may still be in its pipes when it exits: read until they close, but
  // not forever (a process it left behind may hold them open).
  if (out) {
    let timer;
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
    clearTimeout(timer);
  }
  groups.delete(child.pid);
  return { status, killed };
}

/**
 * Runs test files one after another (--test-concurrency=1) in one node --test process, its output
 * streamed to ours or kept in `out` (a lane run beside another: see say()).
 */
async function runNodeTests(label, files, env, out = null) {
  say(out, `\n=== ${label}: ${files.length} files${out ? " (ran beside the stage above)" : ""}`);
  // node --test given no file looks for tests itself (and finds this script): a filter that
  // matched none of a stage's files runs nothing.
  if (files.length === 0) return;
  const tapDir = mkdtempSync(path.join(tmpdir(), "remit-tap-"));
  const tap = path.join(tapDir, "out.tap");
  const started = Date.now();
  const { status, killed } = await run(
    [
      "--import",
      "tsx",
      "--test",
      "--test-concurrency=1",
      `--test-timeout=${FILE_TIMEOUT_MS}`,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      `--test-reporter=${path.join(root, "scripts/test-watch.mjs")}`,
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { env, out, label, timeoutMs: STAGE_TIMEOUT_MS },
  );
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const text = existsSync(tap) ? readFileSync(tap, "utf8") : "";
  rmSync(tapDir, { recursive: true, force: true });
  const count = (what) => Number(new RegExp(`^# ${what} (\\d+)`, "m").exec(text)?.[1] ?? 0);
  const passed = count("pass");
  // A file stopped by --test-timeout is "cancelled", not "fail", in node's counts: both fail here.
  const failed = count("fail") + count("cancelled");
  const extra = (status !== 0 || killed) && failed === 0 ? 1 : 0;
  totals.passed += passed;
  totals.failed += failed + extra;
  say(out, `=== ${label}: ${passed} passed, ${failed + extra} failed (${minutes} min)`);
}

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function withServer(label, env, fn) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", String(SERVER_KEEP_ALIVE_MS)],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "warn", SANDBOX_CLOCK_CONTROL: "true", PUBLIC_BASE_URL: baseUrl, ...env },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  try {
    for (let i = 0; i < 120; i++) {
      const ok = await fetch(`${baseUrl}/v1/auth/health`, { headers: { "ocp-apim-subscription-key": "sandbox-demo-key" } })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (i === 119) throw new Error(`${label}: server did not become ready`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await fn(baseUrl);
  } finally {
    const exited = new Promise((r) => (server.exitCode !== null || server.signalCode !== null ? r() : server.once("exit", r)));
    server.kill("SIGTERM");
    // A shutdown that hangs must not hang the suite: killed after 10 s.
    const kill = setTimeout(() => server.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(kill);
  }
}

async function withFreshPostgres(fn) {
  const { default: postgres } = await import("postgres");
  const admin = postgres(process.env.TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  // Lanes run at once (integration and e2e): two fresh databases can be asked for in the same
  // millisecond, so the name carries a random part too (a clash failed the e2e lane's start).
  const name = `remit_test_${process.pid}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    await fn(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}

/** Chromium for the e2e tests: Debian's package (playwright-core downloads no browser). */
function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(chromium)) return;
  if (process.getuid?.() !== 0) throw new Error(`Chromium not found at ${chromium}: apt-get install chromium, or set CHROMIUM_PATH`);
  console.log(`\n=== installing Chromium (${chromium} is missing)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "chromium"]]) {
    if (spawnSync("apt-get", args, { stdio: "inherit", env }).status !== 0) throw new Error(`apt-get ${args.join(" ")} failed`);
  }
  if (!existsSync(chromium)) throw new Error(`Chromium still not found at ${chromium}`);
}

/** A check that passes or fails as a whole (formatter, linter): one test in the totals. */
async function runCheck(label, args, out = null) {
  say(out, `\n=== ${label}`);
  const started = Date.now();
  const { status } = await run(args, { out });
  if (status === 0) totals.passed += 1;
  else totals.failed += 1;
  say(out, `=== ${label}: ${status === 0 ? "clean" : "FAILED"} (${((Date.now() - started) / 60_000).toFixed(1)} min)`);
}

/**
 * The whole tree, tests included (the build's own check covers app/, lib/ and db/ only): a
 * handler's reply typed by its contract (test/unit/http/reply-typing.test.ts) and every test's own
 * types; after a build, also the route types it wrote (.next/types), which the build's check covered.
 */
async function typecheck(out = null) {
  await runCheck("typecheck (tsc --noEmit)", [path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", path.join(root, "tsconfig.json")], out);
}

/**
 * Stage 0, one check after another. They read the tree as checked out: they end before the build
 * starts (tsc reads .next/types and next-env.d.ts, which the build writes; the whole suite runs the
 * typecheck after the build instead: `withTypecheck` false), and the unit tests write nothing inside it.
 */
async function lintChecks(out = null, { withTypecheck = true } = {}) {
  await runCheck("format (prettier --check)", [path.join(root, "node_modules/prettier/bin/prettier.cjs"), "--check", "--log-level", "warn", "."], out);
  await runCheck("lint (eslint)", [path.join(root, "node_modules/eslint/bin/eslint.js"), "--max-warnings", "0", "."], out);
  if (withTypecheck) await typecheck(out);
  await runCheck("import cycles in lib/, db/, app/, components/", [path.join(root, "scripts/check-import-cycles.mjs")], out);
  // Folder-level rules (.dependency-cruiser.cjs): platform imports no context, no context imports the
  // interface, a context reaches another only through its entry. No list of exceptions: any such
  // import fails.
  await runCheck(
    "dependency rules (dependency-cruiser)",
    [
      path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
      "lib",
      "app",
      "db",
      "components",
      "--config",
      ".dependency-cruiser.cjs",
      "--output-type",
      "err",
    ],
    out,
  );
  await runCheck("OpenAPI document (redocly lint, recommended)", ["--import", "tsx", path.join(root, "scripts/openapi-lint.ts")], out);
}

/**
 * Stage 2: the production build the integration and e2e stages start their servers from;
 * `typecheckAfter`: the build skips its own type check and the whole tree's follows it.
 */
async function productionBuild(out = null, { typecheckAfter = false } = {}) {
  const started = Date.now();
  say(out, `\n=== production build${out ? " (ran beside the stage above)" : ""}`);
  const env = typecheckAfter ? { NEXT_BUILD_TYPECHECK: "off" } : {};
  const { status } = await run([path.join(root, "node_modules/next/dist/bin/next"), "build"], { out, env });
  say(out, `=== production build: ${status === 0 ? "done" : "FAILED"} (${((Date.now() - started) / 60_000).toFixed(1)} min)`);
  if (status !== 0) {
    totals.failed += 1;
    throw new Error("next build failed");
  }
  if (typecheckAfter) await typecheck(out);
}

/**
 * Lanes at once: the first streams its output, every other's is kept and printed whole once all
 * ended. They mostly wait (on PGlite's single connection, on the server, on jobs), so together
 * they take little more than the longest one. A lane given as a falsy value (a PostgreSQL run
 * without TEST_DATABASE_URL) is left out. TEST_SEQUENTIAL=1 runs them one after the other, all
 * streamed.
 */
async function side(...lanes) {
  const [first, ...rest] = lanes.filter(Boolean);
  if (process.env.TEST_SEQUENTIAL === "1" || rest.length === 0) {
    for (const lane of [first, ...rest]) await lane(null);
    return;
  }
  const outs = rest.map(() => []);
  const results = await Promise.allSettled([first(null), ...rest.map((lane, i) => lane(outs[i]))]);
  for (const out of outs) process.stdout.write(Buffer.concat(out));
  for (const r of results) if (r.status === "rejected") throw r.reason;
}

async function main() {
  const pgUnit =
    process.env.TEST_DATABASE_URL &&
    ((out) => withFreshPostgres((url) => runNodeTests("database unit tests (PostgreSQL)", testFiles("test/unit/db"), { TEST_DB_URL: url }, out)));
  if (only.length > 0) {
    if (runs("lint")) await lintChecks();
    if (runs("unit")) await side((out) => runNodeTests("unit (PGlite)", testFiles("test/unit"), {}, out), pgUnit);
    if (runs("integration") || runs("e2e")) await productionBuild();
  } else {
    // The whole suite: the unit tests on PGlite take longest of stages 0-2 and mostly use one core,
    // so the other lane runs the PostgreSQL unit tests, then the checks, then the build and the
    // typecheck (one pass over the application's types, not the build's and tsc's).
    await side(
      (out) => runNodeTests("unit (PGlite)", testFiles("test/unit"), {}, out),
      async (out) => {
        if (pgUnit) await pgUnit(out);
        await lintChecks(out, { withTypecheck: false });
        await productionBuild(out, { typecheckAfter: true });
      },
    );
  }
  // Stages 3 and 4 as lanes at once: the integration tests on PGlite and on PostgreSQL, and the
  // browser tests on a database and server of their own. Each lane is mostly one test process
  // waiting on its server: one after another they left a core idle most of the time.
  const lanes = [];
  if (runs("integration")) lanes.push(...integrationLanes());
  if (runs("e2e")) {
    ensureChromium();
    lanes.push(e2eLane());
  }
  if (lanes.length > 0) await side(...lanes);
  if (runs("integration") && !process.env.TEST_DATABASE_URL) console.log("\n(TEST_DATABASE_URL not set: PostgreSQL runs skipped)");
}

/** A fresh PGlite directory for `fn`, removed after it. */
async function withPgliteDir(fn) {
  const dir = mkdtempSync(path.join(tmpdir(), "remit-pglite-"));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Stage 3: the HTTP integration tests against a server on PGlite and, with TEST_DATABASE_URL, one on PostgreSQL. */
function integrationLanes() {
  const files = testFiles("test/integration");
  // The HTTP tests of the bank-credit queue (test/integration/transfers/bank-statements.test.ts)
  // drive its forms without a browser, as one operator: its two actions run at once here
  // (DUAL_CONTROL_OFF, a documented setting). Their proposal and a second operator's approval
  // are tested in the browser (e2e/console-bank-credits.test.ts, default settings) and in
  // test/unit/db/dual-control.test.ts.
  const integrationEnv = { DUAL_CONTROL_OFF: "bankCredit.match,bankCredit.return" };
  return [
    (out) =>
      withPgliteDir((dir) =>
        withServer("PGlite", { PGLITE_DIR: dir, ...integrationEnv }, (baseUrl) =>
          runNodeTests("integration (PGlite)", files, { TEST_BASE_URL: baseUrl, TEST_DRIVER: "pglite" }, out),
        ),
      ),
    process.env.TEST_DATABASE_URL &&
      ((out) =>
        withFreshPostgres((url) =>
          withServer("PostgreSQL", { DATABASE_URL: url, ...integrationEnv }, (baseUrl) =>
            runNodeTests("integration (PostgreSQL)", files, { TEST_BASE_URL: baseUrl, TEST_DRIVER: "postgres", TEST_DB_URL: url }, out),
          ),
        )),
  ];
}

/** Stage 4: the browser tests, on a fresh PostgreSQL database when TEST_DATABASE_URL is set, else on PGlite. */
function e2eLane() {
  const files = testFiles("e2e");
  if (process.env.TEST_DATABASE_URL) {
    return (out) =>
      withFreshPostgres((url) =>
        withServer("PostgreSQL (e2e)", { DATABASE_URL: url }, (baseUrl) =>
          runNodeTests("e2e (PostgreSQL)", files, { TEST_BASE_URL: baseUrl, TEST_DRIVER: "postgres", TEST_DB_URL: url }, out),
        ),
      );
  }
  return (out) =>
    withPgliteDir((dir) =>
      withServer("PGlite (e2e)", { PGLITE_DIR: dir }, (baseUrl) => runNodeTests("e2e (PGlite)", files, { TEST_BASE_URL: baseUrl, TEST_DRIVER: "pglite" }, out)),
    );
}

main()
  .catch((err) => {
    console.error(err);
    totals.failed += totals.failed === 0 ? 1 : 0;
  })
  .finally(() => {
    console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
    process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
  });
