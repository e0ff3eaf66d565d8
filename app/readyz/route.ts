import { methods } from "@/lib/interface/http/methods";
import { readinessResponse } from "@/lib/interface/http/operations";

// GET /readyz: ready to do its work (lib/platform/readiness.ts); 503 in the error envelope otherwise.
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: readinessResponse });
