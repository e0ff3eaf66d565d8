import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { OperationsReadings } from "./readings";

/**
 * Prometheus metrics (prom-client). Two kinds: what the process counts as it goes (HTTP requests,
 * Node's own process metrics), kept in one registry per process; and what the database holds
 * (queues, ages, failures), read at each scrape (lib/operations/observability/readings.ts) into a registry of
 * its own, so a label that no longer applies (a partner whose backlog cleared) simply disappears.
 */
interface ProcessMetrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route" | "status">;
}

// Kept on globalThis: Next bundles route handlers separately, and each must count into one registry.
const KEY = Symbol.for("remit.metrics");
type G = typeof globalThis & { [KEY]?: ProcessMetrics };

function processMetrics(): ProcessMetrics {
  const g = globalThis as G;
  if (g[KEY]) return g[KEY];
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "remit_http_requests_total",
    help: "API requests answered, by the contract's route template and status.",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "remit_http_request_duration_seconds",
    help: "API request latency, from the pipeline's start to its answer, by route template and status.",
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (g[KEY] = { registry, requests, duration });
}

/**
 * Counts one answered API request. `route` is the contract's path template (/v1/core/transfers/{transferId}),
 * never the raw path: ids would make a label value per transfer.
 */
export function observeRequest(fields: { method: string; route: string; status: number; seconds: number }): void {
  const m = processMetrics();
  const labels = { method: fields.method, route: fields.route, status: String(fields.status) };
  m.requests.inc(labels);
  m.duration.observe(labels, fields.seconds);
}

function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []) {
  return new Gauge<L>({ name, help, labelNames, registers: [registry] });
}

/** The database's readings as gauges, in a registry of this scrape's own. */
function readingsRegistry(r: OperationsReadings): Registry {
  const reg = new Registry();
  const jobs = gauge(reg, "remit_jobs", "Jobs waiting (pending), running, or given up (dead), by kind.", ["kind", "state"]);
  for (const j of r.jobs) jobs.set({ kind: j.kind, state: j.state }, j.n);
  const age = gauge(reg, "remit_job_queue_age_seconds", "Seconds the oldest due pending job of a kind has waited past its run time.", ["kind"]);
  for (const a of r.jobQueueAge) age.set({ kind: a.kind }, a.seconds);
  const retrying = gauge(reg, "remit_jobs_retrying", "Pending jobs whose last attempt failed, by kind.", ["kind"]);
  const deadDay = gauge(reg, "remit_jobs_dead_last_day", "Jobs given up in the last 24 hours, by kind.", ["kind"]);
  for (const f of r.jobFailures) {
    retrying.set({ kind: f.kind }, f.retrying);
    deadDay.set({ kind: f.kind }, f.deadLastDay);
  }
  const events = gauge(reg, "remit_webhook_events", "Partner events waiting for delivery (pending) or given up (failed), by partner.", ["partner", "state"]);
  const oldest = gauge(reg, "remit_webhook_oldest_pending_age_seconds", "Age of a partner's oldest event waiting for delivery.", ["partner"]);
  const failing = gauge(reg, "remit_webhook_endpoint_failing", "1 while a partner's webhook endpoint is failing (being probed), else 0.", ["partner"]);
  for (const w of r.webhooks) {
    events.set({ partner: w.partnerId, state: "pending" }, w.pending);
    events.set({ partner: w.partnerId, state: "failed" }, w.failed);
    oldest.set({ partner: w.partnerId }, w.oldestPendingSeconds);
    failing.set({ partner: w.partnerId }, w.endpointFailing ? 1 : 0);
  }
  const email = gauge(
    reg,
    "remit_email_failures",
    "E-mails whose last attempt failed and are retried (retrying), or given up since the last one sent (failed).",
    ["state"],
  );
  email.set({ state: "retrying" }, r.email.retrying);
  email.set({ state: "failed" }, r.email.failedSinceLastSent);
  const rates = gauge(reg, "remit_reference_rates_age_seconds", "Age of the newest stored reference rates' publication, by source.", ["source"]);
  for (const s of r.referenceRates) rates.set({ source: s.source }, (r.at.getTime() - s.publishedAt.getTime()) / 1000);
  const lists = gauge(reg, "remit_sanctions_list_age_seconds", "Seconds since a sanctions list was last stored or confirmed unchanged by a refresh.", ["list"]);
  for (const l of r.sanctionsLists) if (l.loadedAt) lists.set({ list: l.list }, (r.at.getTime() - l.loadedAt.getTime()) / 1000);
  gauge(reg, "remit_screening_cases_open", "Open screening cases.").set(r.screeningCasesOpen);
  gauge(reg, "remit_compliance_cases_open", "Compliance cases not closed.").set(r.complianceCasesOpen);
  gauge(reg, "remit_compliance_cases_overdue", "Compliance cases not closed past their due date.").set(r.complianceCasesOverdue);
  gauge(reg, "remit_claims_overdue", "Unresolved claims past their due date.").set(r.claimsOverdue);
  gauge(reg, "remit_reconciliation_differences", "Bank closing balances differing from the ledger and not explained.").set(r.reconciliation.differences);
  // Only while there is one: an unlabelled gauge never set would read 0 days.
  if (r.reconciliation.oldestDays !== null)
    gauge(reg, "remit_reconciliation_oldest_difference_days", "Days since the balance date of the oldest unexplained difference.").set(
      r.reconciliation.oldestDays,
    );
  gauge(reg, "remit_db_pool_max", "Connections this process's pool may open (1: the embedded database).").set(r.database.poolMax);
  const conns = gauge(reg, "remit_db_connections", "Connections to the database from every node, by state (PostgreSQL only).", ["state"]);
  for (const c of r.database.connections) conns.set({ state: c.state }, c.n);
  return reg;
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** The Prometheus text exposition: the process's metrics, then the database's readings. */
export async function metricsText(readings: OperationsReadings): Promise<string> {
  const [own, read] = await Promise.all([processMetrics().registry.metrics(), readingsRegistry(readings).metrics()]);
  return `${own.trimEnd()}\n${read}`;
}
