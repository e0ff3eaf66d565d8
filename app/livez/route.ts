import { methods } from "@/lib/interface/http/methods";
import { livenessResponse } from "@/lib/interface/http/operations";

// GET /livez: the process serves. No key, no database, not logged per call.
export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: livenessResponse });
