import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A production server of this checkout's build (`npx next build` first) started by a test that
 * needs a configuration of its own (the server's configuration is fixed at start), on a free port
 * and a fresh PGlite directory, like scripts/test.mjs withServer.
 */
export interface OwnServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

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

export async function startOwnServer(env: Record<string, string>): Promise<OwnServer> {
  const root = path.resolve(__dirname, "..", "..");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(tmpdir(), "remit-e2e-own-"));
  const serverEnv: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: "warn",
    SANDBOX_CLOCK_CONTROL: "true",
    PUBLIC_BASE_URL: baseUrl,
    PGLITE_DIR: dir,
    DATABASE_URL: undefined,
    ...env,
  };
  const server: ChildProcess = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: serverEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((r) => server.once("exit", r));
  const stop = async () => {
    if (server.exitCode === null) server.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    const ok = await healthy(baseUrl);
    if (ok) return { baseUrl, stop };
    if (i === 120 || server.exitCode !== null) {
      await stop();
      throw new Error("the test's own server did not become ready (is there a production build? npx next build)");
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
