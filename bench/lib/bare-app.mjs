// The benchmark's anchor: bench/bare-app, a separate Next app with one route handler per
// floor (GET /v1/db/read: one prepared postgres.js primary-key select; POST /v1/db/write: one
// INSERT), built with the root node_modules' next and started with our server's flags
// (scripts/server-node-args.mjs, `next start -p -H`), on a database of its own on the same server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync, readdirSync } from "node:fs";
import path from "node:path";
import { serverEnv, serverNodeArgs } from "../../scripts/server-node-args.mjs";
import { portsFrom } from "./ports.mjs";

const root = path.resolve(import.meta.dirname, "../..");
export const bareDir = path.join(root, "bench/bare-app");
const next = path.join(root, "node_modules/next/dist/bin/next");

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== ".next")
    .reduce((m, e) => Math.max(m, e.isDirectory() ? newest(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).mtimeMs), 0);

export function ensureBareBuild() {
  const id = path.join(bareDir, ".next", "BUILD_ID");
  if (existsSync(id) && statSync(id).mtimeMs > newest(bareDir) && !process.env.BENCH_REBUILD) return;
  const res = spawnSync(process.execPath, [next, "build", bareDir], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (res.status !== 0) throw new Error("next build of bench/bare-app failed");
}

// BENCH_BARE_PORT pins the bare app's port (the next one up each time); unset, a free one.
const nextPort = portsFrom(process.env.BENCH_BARE_PORT);

/**
 * Starts the bare app on a fresh database made on `admin` (a PostgreSQL URL allowed to create
 * databases). nodeArgs (e.g. --cpu-prof) go before Next's, as for our server. The database is
 * dropped by stop(), and at once when the app does not start. `deps`: what it runs (tests give fakes).
 */
export async function startBareApp(admin, { port, nodeArgs = [] } = {}, deps = {}) {
  const { build = ensureBareBuild, postgres = (await import("postgres")).default, start = spawn, get = fetch } = deps;
  build();
  port ??= await nextPort();
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  const name = `${process.env.BENCH_DB_PREFIX ?? "remit_bench"}_bare_${Date.now()}`;
  await sql.unsafe(`create database ${name}`);
  let child;
  const drop = async () => {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
    await sql.end();
  };
  try {
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const own = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await own.unsafe(`create table bare_rows (id bigint primary key, note text not null);
        insert into bare_rows values (1, 'the anchor''s row');
        create table bare_writes (id bigserial primary key, note text not null)`);
    } finally {
      await own.end();
    }
    const env = { DATABASE_URL: url.toString() };
    child = start(process.execPath, [...serverNodeArgs(env), ...nodeArgs, next, "start", bareDir, "-p", String(port), "-H", "127.0.0.1"], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...serverEnv(env), ...process.env, ...env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await get(`${baseUrl}/v1/db/read`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 120 || child.exitCode !== null) throw new Error(`the bare app did not start on port ${port}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return {
      baseUrl,
      readUrl: `${baseUrl}/v1/db/read`,
      writeUrl: `${baseUrl}/v1/db/write`,
      pid: child.pid,
      stop: async () => {
        await stopped(child);
        await drop();
      },
    };
  } catch (err) {
    if (child) await stopped(child);
    await drop();
    throw err;
  }
}

async function stopped(child) {
  if (child.exitCode !== null) return;
  const exit = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exit;
}
