import { buildOpenApiDocument } from "@/lib/interface/api/openapi";
import { config } from "@/lib/platform/config";

// GET /v1/openapi.json: the OpenAPI 3.1 document of every implemented route.
export async function GET() {
  return Response.json(buildOpenApiDocument(config().publicBaseUrl), { headers: { "cache-control": "public, max-age=60" } });
}
