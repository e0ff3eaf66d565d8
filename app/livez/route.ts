import { methods } from "@/lib/platform/http/methods";
import { livenessResponse } from "@/lib/platform/http/operations";

// GET /livez: the process serves. No key, no database, not logged per call.
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: livenessResponse });
