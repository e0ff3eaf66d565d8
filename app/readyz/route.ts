import { methods } from "@/lib/platform/http/methods";
import { readinessResponse } from "@/lib/platform/http/operations";

// GET /readyz: ready to do its work (lib/platform/readiness.ts); 503 in the error envelope otherwise.
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: readinessResponse });
