/**
 * A node:test reporter (scripts/test.mjs adds it next to spec and tap) that makes a hang readable
 * and shows where the time goes:
 *  - a test still running after SLOW_MS is named while it runs (the runner itself says nothing
 *    until the file ends);
 *  - a file cancelled by --test-timeout is reported with the tests it was running, the server's
 *    sandbox clock and, on PostgreSQL, the jobs not finished and the sessions not idle;
 *  - at the end, the slowest files and tests; with TEST_DURATIONS_FILE set, every file's and
 *    test's duration as JSON lines (for comparing runs).
 */
import { EventEmitter } from "node:events";
import { appendFileSync } from "node:fs";
import path from "node:path";

// Node 20 adds an "end" listener to the runner's event stream per file and reporter: with three
// reporters (spec, this, tap) a run of more than a few files warns of a leak that is none. This
// module is loaded only by the runner's own process (tests run in processes of their own).
EventEmitter.defaultMaxListeners = Math.max(EventEmitter.defaultMaxListeners, 100);

const SLOW_MS = 120_000;
const root = path.resolve(import.meta.dirname, "..");
const rel = (file) => (file ? path.relative(root, file) : "?");
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** What the server and its database were doing, for a file that timed out. */
async function diagnose() {
  const lines = [];
  const base = process.env.TEST_BASE_URL;
  if (base) {
    const clock = await fetch(`${base}/v1/sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json", "ocp-apim-subscription-key": process.env.TEST_PARTNER_KEY ?? "sandbox-demo-key" },
      body: JSON.stringify({ advanceSeconds: 0 }),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (r) => `server clock: ${r.status} ${await r.text()}`)
      .catch((err) => `server clock: no answer (${err.message})`);
    lines.push(clock);
  }
  const url = process.env.TEST_DB_URL;
  if (!url) {
    lines.push("jobs: not readable from here on PGlite (one process owns its directory)");
    return lines;
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const jobs = await sql`select kind, state, run_at, locked_until, attempts, left(coalesce(last_error, ''), 120) as last_error
      from jobs where state in ('pending', 'running') order by run_at limit 25`;
    lines.push(`jobs not finished (${jobs.length}${jobs.length === 25 ? "+" : ""}), database now ${(await sql`select now() as now`)[0].now.toISOString()}:`);
    for (const j of jobs) {
      lines.push(
        `  ${j.state} ${j.kind} run_at=${j.run_at.toISOString()} locked_until=${j.locked_until?.toISOString() ?? "-"} attempts=${j.attempts} ${j.last_error}`,
      );
    }
    const sessions = await sql`select pid, state, wait_event_type, wait_event, now() - xact_start as in_xact, left(query, 160) as query
      from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`;
    lines.push(`sessions not idle (${sessions.length}):`);
    for (const s of sessions)
      lines.push(`  pid ${s.pid} ${s.state} wait=${s.wait_event_type ?? "-"}/${s.wait_event ?? "-"} xact=${s.in_xact ?? "-"} ${s.query}`);
  } catch (err) {
    lines.push(`jobs: could not read (${err.message})`);
  } finally {
    await sql.end({ timeout: 1 });
  }
  return lines;
}

export default async function* watch(source) {
  /** Tests running now, by file: name -> start time (nested names joined with " › "). */
  const running = new Map();
  const files = [];
  const tests = [];
  const warned = new Set();
  // Written straight to stderr: while a test hangs no event comes that this reporter could answer.
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [file, open] of running) {
      for (const [name, started] of open) {
        const key = `${file}\0${name}\0${started}`;
        if (now - started < SLOW_MS || warned.has(key)) continue;
        warned.add(key);
        process.stderr.write(`\n[watch] still running after ${secs(now - started)}: ${rel(file)} › ${name}\n`);
      }
    }
  }, 10_000);
  timer.unref();

  const stacks = new Map(); // file -> names by nesting
  for await (const event of source) {
    const { file, name, nesting = 0 } = event.data ?? {};
    if (!file) continue;
    if (!running.has(file)) running.set(file, new Map());
    const open = running.get(file);
    const stack = stacks.get(file) ?? [];
    stacks.set(file, stack);
    const isFile = name === file;
    if (event.type === "test:dequeue" && !isFile) {
      stack[nesting] = name;
      stack.length = nesting + 1;
      open.set(stack.join(" › "), Date.now());
    } else if (event.type === "test:complete" && isFile) {
      const ms = event.data.details?.duration_ms ?? 0;
      files.push({ file: rel(file), ms });
      running.delete(file);
      stacks.delete(file);
      const error = event.data.details?.error;
      if (error?.failureType === "testTimeoutFailure" || error?.failureType === "cancelledByParent") {
        const names = [...open.entries()].map(([n, started]) => `  ${n} (for ${secs(Date.now() - started)})`);
        const diagnosis = await diagnose().catch((err) => [`diagnosis failed: ${err.message}`]);
        yield [
          `\n[watch] ${rel(file)} was stopped after ${secs(ms)} (${error.failureType}: ${error.message ?? error.cause ?? ""})`,
          names.length ? "running then:" : "no test was running then (a hook, or the process did not exit after its tests)",
          ...names,
          ...diagnosis,
          "",
        ].join("\n");
      }
    } else if (event.type === "test:complete") {
      const full = [...stack.slice(0, nesting), name].join(" › ");
      open.delete(full);
      if (!event.data.details?.type) tests.push({ file: rel(file), name: full, ms: event.data.details?.duration_ms ?? 0 });
    }
  }
  clearInterval(timer);

  const top = (list, n) => [...list].sort((a, b) => b.ms - a.ms).slice(0, n);
  const total = files.reduce((s, f) => s + f.ms, 0);
  const lines = [`\n[watch] ${files.length} files, ${secs(total)} in files; slowest files:`];
  for (const f of top(files, 8)) lines.push(`  ${secs(f.ms).padStart(8)}  ${f.file}`);
  lines.push("[watch] slowest tests:");
  for (const t of top(tests, 8)) lines.push(`  ${secs(t.ms).padStart(8)}  ${t.file} › ${t.name}`);
  yield lines.join("\n") + "\n";
  if (process.env.TEST_DURATIONS_FILE) {
    const rows = [...files.map((f) => ({ kind: "file", ...f })), ...tests.map((t) => ({ kind: "test", ...t }))];
    appendFileSync(process.env.TEST_DURATIONS_FILE, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  }
}
