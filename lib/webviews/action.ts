import type { z } from "zod";
import type { Tx } from "@/db";
import { clock } from "@/lib/clock";
import { DomainError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { correlationIdOf } from "@/lib/http/correlation";
import { errorResponse, jsonResponse, unexpected } from "@/lib/http/envelope";
import { parseOrThrow } from "@/lib/http/validate";
import { logger } from "@/lib/log";
import { unitOfWork } from "@/lib/platform/unit-of-work";

type Ctx = { params: Promise<Record<string, string | string[]>> };

/**
 * A POST made by a hosted webview page to its own origin. The capability token in the path is the
 * credential (no partner key or bearer: the page runs in the customer's browser); the body is
 * validated and the handler runs in the unit of work (a kept error's writes commit, as on the API),
 * with the API's error envelope.
 */
export function webviewAction<S extends z.ZodType>(schema: S, handler: (ctx: { tx: Tx; token: string; body: z.output<S>; now: Date }) => Promise<unknown>) {
  return async (req: Request, routeCtx: Ctx): Promise<Response> => {
    const correlationId = correlationIdOf(req);
    const headers = { "x-correlation-id": correlationId, "referrer-policy": "no-referrer" };
    try {
      const { token } = (await routeCtx.params) as { token: string };
      const body = parseOrThrow(schema, await readJsonBody(req, { required: true }));
      const outcome = await unitOfWork((tx) => handler({ tx, token, body, now: clock.now() }), { context: { correlationId, route: "webview" } });
      if (!outcome.ok) return errorResponse(outcome.error, correlationId);
      return jsonResponse(200, JSON.stringify(outcome.value), headers);
    } catch (err) {
      if (!(err instanceof DomainError)) logger().error({ err, correlationId }, "webview action failed");
      return errorResponse(err instanceof DomainError ? err : unexpected(), correlationId);
    }
  };
}
