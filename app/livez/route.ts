import { methods } from "@/lib/http/methods";
import { livenessResponse } from "@/lib/http/operations";

// GET /livez: the process serves. No key, no database, not logged per call.
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: livenessResponse });
