import { methods } from "@/lib/http/methods";
import { metricsResponse } from "@/lib/operations/metrics-endpoint";

// GET /metrics: Prometheus text format for operations' monitoring (README "Metrics").
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: metricsResponse });
