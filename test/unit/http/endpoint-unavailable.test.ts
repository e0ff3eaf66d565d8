/**
 * lib/interface/http/endpoint.ts: when the database cannot be reached, every endpoint answers 503
 * internal.unavailable with Retry-After (the reference documents it on every operation), not 500.
 * The service here points at a PostgreSQL port nothing listens on (this file runs in its own
 * process: the configuration is read from the environment set below).
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { before, test } from "node:test";
import { z } from "zod";

let endpointOf: typeof import("@/lib/interface/http/endpoint").endpoint;
let defineContract: typeof import("@/lib/interface/http/contract").defineContract;
let readEndpointOf: typeof import("@/lib/interface/http/endpoint").readEndpoint;

before(async () => {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/unreachable`;
  process.env.LOG_LEVEL = "silent";
  // This process stands for the server: its entry point installs the start steps ready() runs.
  (await import("@/lib/operations/runtime/start-steps")).installStartSteps();
  ({ endpoint: endpointOf } = await import("@/lib/interface/http/endpoint"));
  ({ defineContract } = await import("@/lib/interface/http/contract"));
  ({ readEndpoint: readEndpointOf } = await import("@/lib/interface/http/endpoint"));
});

test("a route whose database is unreachable answers 503 internal.unavailable with Retry-After", async () => {
  let ran = false;
  const contract = defineContract({
    operationId: "probe",
    method: "GET",
    path: "/v1/probe",
    summary: "probe",
    tags: ["Auth"],
    auth: "none",
    success: { status: 200, description: "ok", schema: z.object({}) },
    errors: [],
  });
  const route = endpointOf(contract, async () => {
    ran = true;
    return { body: {} };
  });
  const res = await route(new Request("http://127.0.0.1/v1/probe"), { params: Promise.resolve({}) });
  assert.equal(res.status, 503, await res.clone().text());
  assert.equal(res.headers.get("retry-after"), "5");
  const body = await res.json();
  assert.equal(body.error.code, "internal.unavailable");
  assert.equal(body.error.remediation, "retry_later");
  assert.equal(ran, false);
});

test("a read (readEndpoint, no transaction) answers a database outage the same way", async () => {
  const contract = defineContract({
    operationId: "probeRead",
    method: "GET",
    path: "/v1/probe-read",
    summary: "probe",
    tags: ["Auth"],
    auth: "partner",
    success: { status: 200, description: "ok", schema: z.object({}) },
    errors: [],
  });
  const route = readEndpointOf(contract, async () => ({ body: {} }));
  const res = await route(new Request("http://127.0.0.1/v1/probe-read", { headers: { "ocp-apim-subscription-key": "k" } }), { params: Promise.resolve({}) });
  assert.equal(res.status, 503, await res.clone().text());
  assert.equal(res.headers.get("retry-after"), "5");
  assert.equal((await res.json()).error.code, "internal.unavailable");
});
