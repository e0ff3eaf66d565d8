import { methods } from "@/lib/interface/http/methods";
import { metricsResponse } from "@/lib/operations/observability/metrics-endpoint";

// GET /metrics: Prometheus text format for operations' monitoring (README "Metrics").
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: metricsResponse });
