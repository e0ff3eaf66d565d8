import * as api from "@/lib/platform/api/contracts/auth";
import { readEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// GET /v1/auth/health: liveness for partners (needs the subscription key, spec 5.2).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.health, async ({ now }) => ({ body: { status: "ok" as const, service: "remit-core", timestamp: now.toISOString() } })),
});
