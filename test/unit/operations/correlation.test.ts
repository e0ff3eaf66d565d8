/**
 * The correlation id end to end: a request's id is current inside its handler
 * (every log line written there carries it), a job enqueued by the request stores it, the worker
 * runs that job under it, and a job that job enqueues (a webhook delivery of its event) stores it again.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { jobs } from "@/db/schema";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(async () => close());

test("request → job → the job it enqueues: one correlation id, in the rows and in the log lines' context", async () => {
  const { endpoint } = await import("@/lib/interface/http/endpoint");
  const { defineContract } = await import("@/lib/interface/http/contract");
  const { clock } = await import("@/lib/platform/clock");
  const { insertJob } = await import("@/lib/platform/jobs/queue");
  const { runDueJobs } = await import("@/lib/platform/jobs/worker");
  const { correlationMixin, currentCorrelationId } = await import("@/lib/platform/log/correlation");
  const kind = `test.correlation.${process.pid}`;
  const child = `${kind}.child`;
  const seen: Record<string, unknown> = {};

  const contract = defineContract({
    operationId: "correlationProbe",
    method: "POST",
    path: "/v1/correlation-probe",
    summary: "probe",
    tags: ["Auth"],
    auth: "none",
    idempotency: "none",
    success: { status: 200, description: "ok", schema: z.object({}) },
    errors: [],
  });
  const route = endpoint(contract, async ({ tx, now }) => {
    seen.handler = correlationMixin();
    await insertJob(tx, kind, {}, { runAt: now });
    return { body: {} };
  });
  const res = await route(new Request("http://127.0.0.1/v1/correlation-probe", { method: "POST", headers: { "x-correlation-id": "corr-e2e-1" } }), {
    params: Promise.resolve({}),
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual(seen.handler, { correlationId: "corr-e2e-1" }, "a log line in the handler carries the request's id");
  assert.equal(currentCorrelationId(), undefined, "nothing leaks outside the request");

  const [job] = await db.select().from(jobs).where(eq(jobs.kind, kind));
  assert.equal(job.correlationId, "corr-e2e-1");

  const registry = {
    [kind]: {
      kind,
      schema: z.object({}),
      perform: async (d: Db) => {
        seen.job = currentCorrelationId();
        await insertJob(d, child, {}, { runAt: clock.now() });
      },
    },
  };
  await runDueJobs(db, registry, 5, undefined, { kinds: [kind] });
  assert.equal(seen.job, "corr-e2e-1", "the worker runs the job under the request's id");
  const [next] = await db.select().from(jobs).where(eq(jobs.kind, child));
  assert.equal(next.correlationId, "corr-e2e-1", "and the job it enqueues keeps it");
});

test("tracing is off by default and switched on by the standard OTEL_* variables", async () => {
  const { tracingWanted, loadConfig } = await import("@/lib/platform/config");
  assert.equal(loadConfig({}).tracing, false);
  assert.equal(tracingWanted({}), false);
  assert.equal(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }), true);
  assert.equal(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }), true);
  assert.equal(tracingWanted({ OTEL_TRACES_EXPORTER: "console" }), true);
  assert.equal(tracingWanted({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }), false);
  assert.equal(tracingWanted({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" }), false);
});
