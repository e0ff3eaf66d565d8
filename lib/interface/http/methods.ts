import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse } from "@/lib/platform/http/envelope";
import type { HttpMethod } from "./contract";
import type { RouteHandler } from "./endpoint";
import { DomainError } from "@/lib/platform/errors";

type Handlers = Partial<Record<HttpMethod, RouteHandler>>;

/**
 * Every method of a route file: the given handlers, and for the others a 405 in the error
 * envelope with an Allow header (Next's own 405 has no body).
 * Usage: `export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: endpoint(...) });`
 */
export function methods(handlers: Handlers): Record<HttpMethod, RouteHandler> {
  const allow = Object.keys(handlers).join(", ");
  const notAllowed: RouteHandler = async (req) => {
    const res = errorResponse(
      new DomainError("route.methodNotAllowed", { message: `${req.method} is not supported here. Allowed: ${allow}.`, details: { allow } }),
      correlationIdOf(req),
    );
    res.headers.set("allow", allow);
    return res;
  };
  return {
    GET: handlers.GET ?? notAllowed,
    POST: handlers.POST ?? notAllowed,
    PUT: handlers.PUT ?? notAllowed,
    PATCH: handlers.PATCH ?? notAllowed,
    DELETE: handlers.DELETE ?? notAllowed,
  };
}
