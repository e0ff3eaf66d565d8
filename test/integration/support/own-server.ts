import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A server of the built app (`next build` first) with its own configuration, for tests whose
 * settings the shared test server cannot have (configuration is fixed at start). Its database is
 * a fresh PGlite directory, or a fresh PostgreSQL database beside TEST_DB_URL when
 * TEST_DRIVER=postgres; both are dropped by stop().
 */
export async function startOwnServer(env: Record<string, string>) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let dropDb: (() => Promise<void>) | undefined;
  const dbEnv: Record<string, string> = {};
  if (process.env.TEST_DRIVER === "postgres" && process.env.TEST_DB_URL) {
    const { default: postgres } = await import("postgres");
    const admin = postgres(process.env.TEST_DB_URL, { max: 1, onnotice: () => {} });
    const name = `remit_own_${process.pid}_${Date.now()}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.TEST_DB_URL);
    url.pathname = `/${name}`;
    dbEnv.DATABASE_URL = url.toString();
    dropDb = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    };
  } else {
    dbEnv.PGLITE_DIR = mkdtempSync(path.join(tmpdir(), "remit-own-"));
  }
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const server: ChildProcess = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...inherited, LOG_LEVEL: "warn", SANDBOX_CLOCK_CONTROL: "true", PUBLIC_BASE_URL: baseUrl, ...dbEnv, ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
    }
    await dropDb?.();
  };
  for (let i = 0; ; i++) {
    const ok = await fetch(`${baseUrl}/v1/auth/health`, { headers: { "ocp-apim-subscription-key": "sandbox-demo-key" } })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (i === 120) {
      await stop();
      throw new Error("own server did not become ready");
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { baseUrl, stop };
}
