import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { ready } from "@/lib/platform/ready";
import { LISTS } from "@/lib/compliance";
import { readiness, type ReadinessCheck } from "@/lib/platform/readiness";
import { isShuttingDown } from "@/lib/platform/shutdown";
import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse, jsonResponse } from "@/lib/platform/http/envelope";

/**
 * The probes of a supervisor or load balancer: GET /livez and GET /readyz.
 * Outside the partner API's pipeline on purpose: no subscription key (the prober holds no
 * secret), no access log line (a probe every few seconds would drown the log), never cached.
 * /v1/auth/health stays as the spec has it (a partner's check, with its key).
 */
const NO_STORE = { "cache-control": "no-store" };

/** How long /readyz waits for the process's start (migrations, seeding) before it answers 503 "starting". */
const START_WAIT_MS = 2000;

export async function livenessResponse(): Promise<Response> {
  return jsonResponse(200, JSON.stringify({ status: "ok" }), NO_STORE);
}

const WHAT: Record<ReadinessCheck, string> = {
  database: "the database does not answer",
  migrations: "the database lacks migrations of this build",
  sanctionsLists: "the sanctions lists are not loaded yet",
  referenceRates: "no reference rates are loaded yet",
};

export async function readinessResponse(req: Request): Promise<Response> {
  const correlationId = correlationIdOf(req);
  const unavailable = (message: string, details?: Record<string, unknown>) =>
    errorResponse(new DomainError("internal.unavailable", { message, details, hint: "retry_later", retryAfterSeconds: 5 }), correlationId);
  // SIGTERM: a load balancer must stop sending here at once.
  if (isShuttingDown()) return unavailable("Not ready: the service is shutting down.");
  let timer: NodeJS.Timeout | undefined;
  const started = await Promise.race([
    ready().then(
      (db) => db,
      () => null,
    ),
    new Promise<"starting">((resolve) => (timer = setTimeout(() => resolve("starting"), START_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (started === "starting") return unavailable("Not ready: the service is still starting.");
  if (started === null) return unavailable("Not ready: the database does not answer.", { checks: { database: "failed" } });
  const state = await readiness(started, config().providers, LISTS);
  if (!state.ready) {
    const failed = (Object.keys(state.checks) as ReadinessCheck[]).filter((k) => state.checks[k] === "failed");
    return unavailable(`Not ready: ${failed.map((k) => WHAT[k]).join("; ")}.`, { checks: state.checks });
  }
  return jsonResponse(200, JSON.stringify({ status: "ready", checks: state.checks }), { ...NO_STORE, "x-correlation-id": correlationId });
}
