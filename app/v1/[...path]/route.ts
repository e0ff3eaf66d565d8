import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse } from "@/lib/platform/http/envelope";
import { DomainError } from "@/lib/platform/errors";

// Any other /v1 path: 404 in the error envelope, like every API answer.
async function notFound(req: Request): Promise<Response> {
  return errorResponse(new DomainError("route.notFound", { message: `No route ${req.method} ${new URL(req.url).pathname}.` }), correlationIdOf(req));
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
