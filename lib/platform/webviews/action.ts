import type { z } from "zod";
import { readJsonBody } from "@/lib/platform/http/body";
import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse, jsonResponse } from "@/lib/platform/http/envelope";
import { parseOrThrow } from "@/lib/platform/http/validate";
import { ready } from "@/lib/platform/ready";
import { runUnit, toDomainError, type Outcome, type UnitContext } from "@/lib/platform/unit-of-work";

type Ctx = { params: Promise<Record<string, string | string[]>> };

/**
 * A POST made by a hosted webview page to its own origin. The capability token in the path is the
 * credential (no partner key or bearer: the page runs in the customer's browser); the body is
 * validated and the handler runs in the unit of work (a kept error's writes commit, as on the API),
 * with the API's error envelope.
 */
export function webviewAction<S extends z.ZodType>(schema: S, handler: (ctx: UnitContext & { token: string; body: z.output<S> }) => Promise<unknown>) {
  return async (req: Request, routeCtx: Ctx): Promise<Response> => {
    const correlationId = correlationIdOf(req);
    const headers = { "x-correlation-id": correlationId, "referrer-policy": "no-referrer" };
    try {
      const { token } = (await routeCtx.params) as { token: string };
      const body = parseOrThrow(schema, await readJsonBody(req, { required: true }));
      const outcome = await webviewUnit((unit) => handler({ ...unit, token, body }), correlationId);
      if (!outcome.ok) return errorResponse(outcome.error, correlationId);
      return jsonResponse(200, JSON.stringify(outcome.value), headers);
    } catch (err) {
      return errorResponse(toDomainError(err, { correlationId, route: "webview" }), correlationId);
    }
  };
}

/** A hosted page's or upload's unit of work (the webview acts for the customer holding its token). */
export function webviewUnit<T>(work: (unit: UnitContext) => Promise<T>, correlationId?: string): Promise<Outcome<T>> {
  return runUnit(work, { context: { correlationId, route: "webview" }, actor: { kind: "webview" }, db: ready });
}
