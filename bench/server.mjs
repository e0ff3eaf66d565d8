// Starts a production server for a benchmark (on a fresh PostgreSQL database when BENCH_DATABASE_URL
// or TEST_DATABASE_URL is set, else PGlite) and samples its resident memory.
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const next = path.join(root, "node_modules/next/dist/bin/next");

export function ensureBuild() {
  if (existsSync(path.join(root, ".next", "BUILD_ID")) && !process.env.BENCH_REBUILD) return;
  const res = spawnSync(process.execPath, [next, "build"], { cwd: root, stdio: "inherit" });
  if (res.status !== 0) throw new Error("next build failed");
}

async function freshPostgres(adminUrl) {
  const { default: postgres } = await import("postgres");
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `remit_bench_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Resident set size (MB) of a process and its children. */
export function rssMb(pid) {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "--ppid", String(pid), "-p", String(pid)], { encoding: "utf8" });
    return Math.round(
      out
        .split("\n")
        .filter(Boolean)
        .reduce((sum, kb) => sum + Number(kb), 0) / 1024,
    );
  } catch {
    return null;
  }
}

export async function startServer(env = {}) {
  ensureBuild();
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const db = adminUrl ? await freshPostgres(adminUrl) : null;
  const port = 3400 + Math.floor(Math.random() * 500);
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [next, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      PUBLIC_BASE_URL: baseUrl,
      ...(db ? { DATABASE_URL: db.url } : { PGLITE_DIR: mkdtempSync(path.join(tmpdir(), "remit-bench-")) }),
      ...env,
    },
  });
  for (let i = 0; ; i++) {
    const ok = await fetch(`${baseUrl}/v1/auth/health`, { headers: { "ocp-apim-subscription-key": "sandbox-demo-key" } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 120) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    baseUrl,
    database: db ? "PostgreSQL" : "PGlite",
    rss: () => rssMb(child.pid),
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      await db?.drop();
    },
  };
}
