import { clock } from "@/lib/platform/clock";
import { config, type Config } from "@/lib/platform/config";
import { constantTimeEqual } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse } from "@/lib/platform/http/envelope";
import { ready } from "@/lib/platform/ready";
import { metricsText, METRICS_CONTENT_TYPE } from "./metrics";
import { readOperations } from "./readings";

/**
 * Who may scrape: with METRICS_TOKEN set, only a bearer of it; without it, anyone in sandbox and
 * nobody in production (the route answers 404 as if it did not exist: metrics are served in
 * production only once an operator has chosen a token). Exported for the configuration test.
 */
export function metricsAccess(c: Pick<Config, "METRICS_TOKEN" | "sandbox">, authorization: string | null): "open" | "unauthorized" | "hidden" {
  if (!c.METRICS_TOKEN) return c.sandbox ? "open" : "hidden";
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return m && constantTimeEqual(m[1], c.METRICS_TOKEN) ? "open" : "unauthorized";
}

/**
 * GET /metrics: the Prometheus text exposition (lib/operations/observability/metrics.ts). Outside the partner
 * API's pipeline like the probes (no subscription key, no access log line, not counted itself).
 */
export async function metricsResponse(req: Request): Promise<Response> {
  const correlationId = correlationIdOf(req);
  const access = metricsAccess(config(), req.headers.get("authorization"));
  if (access === "hidden") return errorResponse(new DomainError("route.notFound", { message: "No such route." }), correlationId);
  if (access === "unauthorized") {
    const res = errorResponse(new DomainError("auth.tokenInvalid", { message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>." }), correlationId);
    res.headers.set("www-authenticate", 'Bearer realm="metrics"');
    return res;
  }
  const db = await ready();
  const body = await metricsText(await readOperations(db, clock.now()));
  return new Response(body, { status: 200, headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" } });
}
