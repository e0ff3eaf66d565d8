import assert from "node:assert/strict";
import http from "node:http";
import type { Socket } from "node:net";
import { after, before, test } from "node:test";
import { spawnServer, type SpawnedServer } from "../../support/spawned-server";

/**
 * On SIGTERM the server used to refuse new connections but keep answering on
 * kept-alive ones, /readyz included (200), and exit only when its clients went quiet. Now, on a
 * server of its own (SHUTDOWN_TIMEOUT_SECONDS=3): a request in flight at the signal finishes and
 * says `Connection: close`; its kept-alive connection then closes, or answers /readyz 503; and the
 * process exits within the bound though another client never finishes its request.
 */
const TIMEOUT_S = 3;
let server: SpawnedServer;

before(async () => {
  server = await spawnServer({ SHUTDOWN_TIMEOUT_SECONDS: String(TIMEOUT_S), LOG_LEVEL: "warn" }, "/livez");
});
after(() => server?.stop());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  socket: Socket;
}

/** One request through `agent`; `body` is written in two halves, the second when `release` settles. */
function request(agent: http.Agent, method: string, path: string, body?: { text: string; release: Promise<void> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "ocp-apim-subscription-key": "sandbox-demo-key" };
    if (body) Object.assign(headers, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body.text)) });
    const req = http.request(`${server.baseUrl}${path}`, { method, agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, socket: req.socket! }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (!body) return void req.end();
    const half = Math.floor(body.text.length / 2);
    req.write(body.text.slice(0, half));
    void body.release.then(() => req.end(body.text.slice(half)));
  });
}

async function readyWithin(ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const status = await fetch(`${server.baseUrl}/readyz`)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    if (Date.now() > until) assert.fail(`/readyz never answered 200 (last ${status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("SIGTERM: the request in flight finishes with Connection: close, its kept-alive connection closes or answers /readyz 503, and the process exits within SHUTDOWN_TIMEOUT_SECONDS", async () => {
  await readyWithin(60_000);
  // One kept-alive connection for the load balancer's probe and a client's request.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const first = await request(agent, "GET", "/readyz");
  assert.equal(first.status, 200);
  const kept = first.socket;

  // A request in flight at the signal (half its body sent), on that same connection.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const inFlight = request(agent, "POST", "/v1/auth/register/start", { text: JSON.stringify({ identifier: "sigterm@example.com" }), release: released });
  // Another client that never finishes its request: the bound must hold regardless.
  const stuck = new http.Agent({ keepAlive: true });
  const never = request(stuck, "POST", "/v1/auth/register/start", {
    text: JSON.stringify({ identifier: "never@example.com" }),
    release: new Promise(() => {}),
  });
  never.catch(() => {});
  await new Promise((r) => setTimeout(r, 500));

  const signalled = Date.now();
  server.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 300));
  release();
  const answered = await inFlight;
  assert.equal(answered.socket, kept, "the request in flight was on the kept-alive connection");
  assert.ok(answered.status > 0 && answered.status < 500, `the request in flight finished (${answered.status})`);
  assert.equal(answered.headers.connection, "close", "its response tells the client to reconnect elsewhere");

  // The same connection: closed by now, or, if still open, not ready.
  await new Promise((r) => setTimeout(r, 200));
  if (!kept.destroyed) {
    const probe = await request(agent, "GET", "/readyz").catch(() => null);
    if (probe) {
      assert.equal(probe.socket, kept, "probed on the kept-alive connection");
      assert.equal(probe.status, 503, "/readyz is not ready after SIGTERM");
    }
  }

  const exited = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), (TIMEOUT_S + 7) * 1000))]);
  const ms = Date.now() - signalled;
  assert.ok(exited, `still running ${ms} ms after SIGTERM:\n${server.output()}`);
  assert.ok(ms <= (TIMEOUT_S + 2) * 1000, `exited ${ms} ms after SIGTERM (bound ${TIMEOUT_S} s)`);
  agent.destroy();
  stuck.destroy();
});
