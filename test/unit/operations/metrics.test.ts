/**
 * GET /metrics: the Prometheus text exposition, read back with a Prometheus
 * text parser, carries every family operations watch, with the database's readings at the scrape;
 * and who may scrape it (a bearer of METRICS_TOKEN; in production without one, nobody).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import type { Db } from "@/db";
import { events, jobs, otpDeliveries, referenceRateSets } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { loadConfig } from "@/lib/platform/config";
import { observeRequest } from "@/lib/operations/observability/metrics";
import { metricsAccess, metricsResponse } from "@/lib/operations/observability/metrics-endpoint";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
const tag = `m${process.pid}${Date.now()}`;

before(async () => {
  ({ db, close } = await freshDb());
});
after(async () => close());

const family = (families: MetricFamily[], name: string) => {
  const f = families.find((x) => x.name === name);
  assert.ok(f, `family ${name} in the scrape`);
  return f;
};
const sample = (f: MetricFamily, labels: Record<string, string>) => f.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

describe("GET /metrics", () => {
  test("answers the Prometheus text format with HTTP, jobs, webhooks, e-mail, rates, lists, cases, claims, reconciliation and pool families", async () => {
    const now = clock.now();
    const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
    const kind = `test.kind.${tag}`;
    await db.insert(jobs).values([
      { id: `job_${tag}_1`, kind, payload: {}, state: "pending", runAt: minutesAgo(10), lastError: "boom", createdAt: minutesAgo(10) },
      { id: `job_${tag}_2`, kind, payload: {}, state: "dead", runAt: minutesAgo(60), finishedAt: minutesAgo(5), lastError: "boom", createdAt: minutesAgo(60) },
      // A refresh that found the list unchanged still makes it fresh.
      {
        id: `job_${tag}_3`,
        kind: "sanctions.refresh",
        payload: { list: "un-consolidated" },
        state: "done",
        runAt: minutesAgo(1),
        finishedAt: now,
        createdAt: now,
      },
    ]);
    const partnerId = `ptr_${tag}`;
    await db.insert(events).values({
      id: `evt_${tag}`,
      partnerId,
      subscriptionId: `sub_${tag}`,
      sequence: 1,
      eventType: "transfer.updated",
      body: {},
      occurredAt: minutesAgo(3),
      createdAt: minutesAgo(3),
    });
    await db.insert(otpDeliveries).values({
      id: `dlv_${tag}`,
      partnerId,
      channel: "EMAIL",
      provider: "smtp",
      recipient: "someone@example.com",
      purpose: "REGISTRATION",
      language: "en",
      state: "PENDING",
      attempts: 1,
      lastError: "535 Invalid login",
      createdAt: minutesAgo(2),
    });
    await db
      .insert(referenceRateSets)
      .values({ source: `ecb-${tag}`, base: "EUR", publishedAt: minutesAgo(120), rates: { USD: "1.1" }, fetchedAt: minutesAgo(100) });
    observeRequest({ method: "GET", route: "/v1/core/transfers/{transferId}", status: 200, seconds: 0.042 });

    const res = await metricsResponse(new Request("http://localhost/metrics"));
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(await res.text());

    const requests = family(families, "remit_http_requests_total");
    assert.equal(requests.type, "COUNTER");
    assert.ok(sample(requests, { route: "/v1/core/transfers/{transferId}", status: "200", method: "GET" }));
    const latency = family(families, "remit_http_request_duration_seconds");
    assert.equal(latency.type, "HISTOGRAM");
    // The parser folds a labelled histogram's lines into its buckets (it keeps no labels for them).
    assert.ok(Number(latency.metrics[0]?.buckets?.["+Inf"]) >= 1);

    assert.equal(sample(family(families, "remit_jobs"), { kind, state: "pending" })?.value, "1");
    assert.equal(sample(family(families, "remit_jobs"), { kind, state: "dead" })?.value, "1");
    const queueAge = Number(sample(family(families, "remit_job_queue_age_seconds"), { kind })?.value);
    assert.ok(queueAge >= 599 && queueAge < 700, `queue age ${queueAge}`);
    assert.equal(sample(family(families, "remit_jobs_retrying"), { kind })?.value, "1");
    assert.equal(sample(family(families, "remit_jobs_dead_last_day"), { kind })?.value, "1");
    assert.equal(sample(family(families, "remit_webhook_events"), { partner: partnerId, state: "pending" })?.value, "1");
    assert.ok(Number(sample(family(families, "remit_webhook_oldest_pending_age_seconds"), { partner: partnerId })?.value) >= 179);
    assert.equal(sample(family(families, "remit_webhook_endpoint_failing"), { partner: partnerId })?.value, "0");
    assert.ok(Number(sample(family(families, "remit_email_failures"), { state: "retrying" })?.value) >= 1);
    const ratesAge = Number(sample(family(families, "remit_reference_rates_age_seconds"), { source: `ecb-${tag}` })?.value);
    assert.ok(ratesAge >= 7199 && ratesAge < 7300, `rates age ${ratesAge}`);
    assert.ok(Number(sample(family(families, "remit_sanctions_list_age_seconds"), { list: "un-consolidated" })?.value) < 60);
    for (const name of [
      "remit_screening_cases_open",
      "remit_compliance_cases_open",
      "remit_compliance_cases_overdue",
      "remit_claims_overdue",
      "remit_reconciliation_differences",
      "remit_db_pool_max",
    ]) {
      const f = family(families, name);
      assert.equal(f.type, "GAUGE");
      assert.ok(Number.isFinite(Number(f.metrics[0]?.value)), `${name} has a value`);
    }
    family(families, "remit_db_connections");
    // Node's own process metrics (prom-client's defaults).
    family(families, "process_cpu_seconds_total");
  });
});

describe("who may scrape", () => {
  const token = "metrics-token-0123456789";
  test("sandbox without METRICS_TOKEN: open; production without it: not served (404)", async () => {
    assert.equal(metricsAccess({ sandbox: true, METRICS_TOKEN: undefined }, null), "open");
    assert.equal(metricsAccess({ sandbox: false, METRICS_TOKEN: undefined }, `Bearer ${token}`), "hidden");
  });
  test("with METRICS_TOKEN: only its bearer, in either mode", () => {
    for (const sandbox of [true, false]) {
      assert.equal(metricsAccess({ sandbox, METRICS_TOKEN: token }, `Bearer ${token}`), "open");
      assert.equal(metricsAccess({ sandbox, METRICS_TOKEN: token }, `Bearer ${token}x`), "unauthorized");
      assert.equal(metricsAccess({ sandbox, METRICS_TOKEN: token }, null), "unauthorized");
      assert.equal(metricsAccess({ sandbox, METRICS_TOKEN: token }, token), "unauthorized");
    }
  });
  test("the setting is checked at start: a short token is refused, naming it", () => {
    assert.throws(() => loadConfig({ METRICS_TOKEN: "short" }), /METRICS_TOKEN: at least 16 characters/);
    assert.equal(loadConfig({ METRICS_TOKEN: token }).METRICS_TOKEN, token);
  });
});
