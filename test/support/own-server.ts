import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { get } from "node:http";
import { createServer } from "node:net";
import path from "node:path";
import { SERVER_KEEP_ALIVE_MS } from "./server-flags.mjs";
import { freshPgliteDir } from "./pglite-template";
import { stopProcess, waitUntilReady } from "./server-process";

/**
 * A production server of this checkout's build (`npx next build` first) for tests that need a
 * configuration of their own (the server's configuration is fixed at start), on a free port. Used by
 * the integration tests and the e2e tests. Its database is a fresh PGlite directory, or, with
 * `followTestDriver` and TEST_DRIVER=postgres, a fresh PostgreSQL database beside TEST_DB_URL; stop()
 * drops either.
 */
export interface OwnServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..", "..");

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
 * One health request on a connection of its own (agent: false): a pooled fetch connection would be
 * reused by the test's first call after the server's keep-alive timeout closed it ("fetch failed").
 */
function healthy(baseUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get(`${baseUrl}/v1/auth/health`, { agent: false, headers: { "ocp-apim-subscription-key": "sandbox-demo-key" } }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
  });
}

/** The server's database: PGlite unless asked to follow TEST_DRIVER=postgres. */
async function ownDatabase(followTestDriver: boolean): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (followTestDriver && process.env.TEST_DRIVER === "postgres" && process.env.TEST_DB_URL) {
    const { default: postgres } = await import("postgres");
    const admin = postgres(process.env.TEST_DB_URL, { max: 1, onnotice: () => {} });
    const name = `remit_own_${process.pid}_${Date.now()}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.TEST_DB_URL);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString() },
      drop: async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
        await admin.end();
      },
    };
  }
  const dir = freshPgliteDir("remit-own-");
  return { env: { PGLITE_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startOwnServer(env: Record<string, string>, { followTestDriver = false } = {}): Promise<OwnServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const db = await ownDatabase(followTestDriver);
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const server: ChildProcess = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", String(SERVER_KEEP_ALIVE_MS)],
    {
      cwd: root,
      env: { ...inherited, LOG_LEVEL: "warn", SANDBOX_CLOCK_CONTROL: "true", PUBLIC_BASE_URL: baseUrl, ...db.env, ...env },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const exited = new Promise((r) => server.once("exit", r));
  const stop = async () => {
    await stopProcess(server, exited);
    await db.drop();
  };
  if (await waitUntilReady(server, () => healthy(baseUrl))) return { baseUrl, stop };
  await stop();
  throw new Error("the test's own server did not become ready (is there a production build? npx next build)");
}
