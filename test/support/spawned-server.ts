import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { SERVER_KEEP_ALIVE_MS } from "./server-flags.mjs";
import { freshPgliteDir } from "./pglite-template";
import { stopProcess, waitUntilReady } from "./server-process";

/**
 * A server process of its own for tests that need a configuration the shared test server does not
 * have (SMTP_URL, APP_MODE=production): `next start` on the existing build, a fresh PGlite
 * directory unless DATABASE_URL is given, and its whole log output kept for assertions.
 */
export interface SpawnedServer {
  baseUrl: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends a signal to the server process (SIGTERM: the server's drain). */
  kill(signal: NodeJS.Signals): void;
  /** Settles when the process exits: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function spawnServer(env: Record<string, string>, ready = "/v1/auth/health"): Promise<SpawnedServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dir = env.DATABASE_URL ? null : freshPgliteDir("remit-spawned-");
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => ["PATH", "HOME", "NODE_OPTIONS", "TMPDIR"].includes(k)));
  const child = spawn(
    process.execPath,
    [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", String(SERVER_KEEP_ALIVE_MS)],
    {
      env: { ...inherited, NODE_ENV: "production", PUBLIC_BASE_URL: baseUrl, ...(dir ? { PGLITE_DIR: dir } : {}), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const stop = async () => {
    await stopProcess(child, exited);
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  const answers = async () => {
    const status = await fetch(`${baseUrl}${ready}`)
      .then((r) => r.status)
      .catch(() => 0);
    return status !== 0 && status < 500;
  };
  if (!(await waitUntilReady(child, answers))) {
    await stop();
    throw new Error(`server did not start:\n${out}`);
  }
  return { baseUrl, output: () => out, kill: (signal) => child.kill(signal), exited, stop };
}

/**
 * Runs a command that should refuse to start and waits for it to exit: its exit
 * code and everything it printed. Killed after `limitMs` (then `code` is null), so a process that
 * wrongly starts fails the test instead of hanging it.
 */
export async function runUntilExit(
  args: string[],
  env: Record<string, string>,
  limitMs = 60_000,
): Promise<{ code: number | null; output: string; ms: number }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => ["PATH", "HOME", "NODE_OPTIONS", "TMPDIR"].includes(k)));
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, args, { env: { ...inherited, ...env } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output, ms: Date.now() - started };
}
