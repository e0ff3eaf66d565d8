import * as api from "@/lib/interface/api/contracts/auth";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// GET /v1/auth/health: liveness for partners (needs the subscription key, spec 5.2).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.health, async ({ now }) => ({ body: { status: "ok" as const, service: "remit-core", timestamp: now.toISOString() } })),
});
