import type { z } from "zod";
import type { Executor, InTransaction } from "@/db";
import type { CustomerContext } from "@/lib/auth/customer-context";
import { clock } from "@/lib/clock";
import { config } from "@/lib/config";
import { enforceGate, type GatedCustomer } from "@/lib/customers/gating";
import { DomainError } from "@/lib/errors";
import type { Partner } from "@/lib/partners/authenticate";
import { ready } from "@/lib/platform/ready";
import { unitOfWork } from "@/lib/platform/unit-of-work";
import { callerOf, logRequest } from "./caller";
import type { AuthLevel, Contract } from "./contract";
import { correlationIdOf } from "./correlation";
import { errorResponse, jsonResponse } from "./envelope";
import type { Reply } from "./endpoint";
import { answerableError } from "./unavailable";
import { parseOrThrow } from "./validate";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Runs a write found on the way of a read (an overdue expiry, a fresh challenge) as one unit of work. */
export type Writer = InTransaction;

export interface ReadContext<Q, P, A extends AuthLevel> {
  req: Request;
  query: Out<Q>;
  params: Out<P>;
  partner: A extends "none" ? undefined : Partner;
  customer: A extends "customer" ? CustomerContext : undefined;
  gated: GatedCustomer | undefined;
  /** The database outside any transaction: a read is plain selects, no BEGIN/COMMIT. */
  db: Executor;
  write: Writer;
  now: Date;
  correlationId: string;
}

/**
 * The pipeline of a GET (issue 13): the same keys, token, gate, validation and envelope as
 * endpoint(), but no transaction and no Idempotency-Key work. A read that finds a write to do
 * (reads before it writes) runs it through `write`, one unit of work with row locks as before.
 */
export function readEndpoint<Q extends z.ZodType | undefined, P extends z.ZodType | undefined, A extends AuthLevel>(
  contract: Contract<undefined, Q, P, A>,
  handler: (ctx: ReadContext<Q, P, A>) => Promise<Reply>,
) {
  return async (req: Request, routeCtx: { params: Promise<Record<string, string | string[]>> }): Promise<Response> => {
    const started = performance.now();
    const correlationId = correlationIdOf(req);
    let partnerId: string | undefined;
    let response: Response;
    try {
      if (contract.sandboxOnly && !config().sandbox) throw new DomainError("route.notFound", { message: "No such route." });
      const db = await ready();
      const now = clock.now();
      const { partner, customer, gateRow } = await callerOf(contract.auth, req, db, now);
      partnerId = partner?.id;
      const params = contract.params ? parseOrThrow(contract.params, await routeCtx.params, "path") : undefined;
      const query = contract.query ? parseOrThrow(contract.query, Object.fromEntries(new URL(req.url).searchParams), "query") : undefined;
      const gated = contract.gate && customer ? await enforceGate(db, contract.gate, customer, gateRow) : undefined;
      const write: Writer = async (work) => {
        const outcome = await unitOfWork(work, { context: { correlationId, route: contract.operationId } });
        if (!outcome.ok) throw outcome.error;
        return outcome.value;
      };
      const reply = await handler({ req, query, params, partner, customer, gated, db, write, now, correlationId } as ReadContext<Q, P, A>);
      const text = reply.body === undefined ? null : JSON.stringify(reply.body);
      response = jsonResponse(reply.status ?? contract.success.status, text, { ...reply.headers, "x-correlation-id": correlationId });
    } catch (err) {
      const error = answerableError(err, { correlationId, route: contract.operationId });
      response = errorResponse(error, correlationId);
    }
    logRequest(req, { correlationId, route: contract.path, status: response.status, started, partnerId });
    return response;
  };
}
