import type { z } from "zod";
import type { Executor, InTransaction, Tx } from "@/db";
import { authenticateCustomerWith, type PartnerRef, type ReadWithCaller, type CustomerContext, enforceGate, type GatedCustomer } from "@/lib/identity";
import { clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { fingerprintOf, RequestKey, type Answer } from "@/lib/platform/idempotency/request-key";
import type { Partner } from "@/lib/partners";
import { observeRequest } from "@/lib/operations";
import { ready } from "@/lib/platform/ready";
import { inUnit, runUnit, toDomainError, type Actor, type Effects } from "@/lib/platform/unit-of-work";
import { readJsonBody, readXmlBody } from "@/lib/platform/http/body";
import { apiKeyOf, bearerTokenOf, callerOf, logRequest } from "./caller";
import type { AuthLevel, Contract } from "./contract";
import { withCorrelation } from "@/lib/platform/log/correlation";
import { correlationIdOf } from "@/lib/platform/http/correlation";
import { errorResponse, jsonResponse, xmlResponse } from "@/lib/platform/http/envelope";
import { parseOrThrow } from "@/lib/platform/http/validate";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<B, Q, P, A extends AuthLevel> extends Effects {
  req: Request;
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  partner: A extends "none" ? undefined : Partner;
  customer: A extends "customer" ? CustomerContext : undefined;
  /** The customer's status row, when the contract names a gate (already checked). */
  gated: GatedCustomer | undefined;
  /** The request's transaction: state changes, the jobs they cause and their events commit together. */
  tx: Tx;
  now: Date;
  /** Who the request acts for (the customer, else the partner). */
  actor: Actor;
  correlationId: string;
}

/** Runs a write found on the way of a read (an overdue expiry, a fresh challenge) as one unit of work. */
export type Writer = InTransaction;

export interface ReadContext<Q, P, A extends AuthLevel, R = undefined> {
  req: Request;
  /**
   * The route's read, made in the caller's statement (readEndpoint's withCaller), already past
   * its not-found; undefined when the request could not be joined: the handler reads it itself.
   */
  found: R | undefined;
  query: Out<Q>;
  params: Out<P>;
  /** A read knows its caller's partner by id (lib/identity/auth/authenticate.ts PartnerRef). */
  partner: A extends "none" ? undefined : PartnerRef;
  customer: A extends "customer" ? CustomerContext : undefined;
  gated: GatedCustomer | undefined;
  /** The database outside any transaction: a read is plain selects, no BEGIN/COMMIT. */
  db: Executor;
  write: Writer;
  now: Date;
  correlationId: string;
}

/**
 * A handler's answer. Its body is what the contract's success schema accepts, so a view cannot
 * drift from the contract unseen (the typed client is generated from the same schemas). A
 * document answer (XML) is its text.
 */
export interface Reply<S extends z.ZodType | undefined = undefined> {
  status?: number;
  body?: S extends z.ZodType ? z.input<S> : unknown;
  headers?: Record<string, string>;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const hasIdempotencyKey = (req: Request) => req.headers.has("idempotency-key") || req.headers.has("x-idempotency-key");

function idempotencyKeyOf(req: Request): string {
  const key = req.headers.get("idempotency-key") ?? req.headers.get("x-idempotency-key");
  if (!key) {
    throw new DomainError("validation.fieldMissing", {
      message: "Idempotency-Key header is required on this call.",
      details: { issues: [{ field: "header.Idempotency-Key", code: "validation.fieldMissing", message: "Send a UUID v4." }] },
      hint: "fix_request",
    });
  }
  if (!UUID.test(key)) {
    throw new DomainError("validation.fieldInvalid", {
      message: "Idempotency-Key must be a UUID.",
      details: { issues: [{ field: "header.Idempotency-Key", code: "validation.fieldInvalid", message: "Not a UUID." }] },
      hint: "fix_request",
    });
  }
  return key.toLowerCase();
}

/**
 * The request pipeline, written once: correlation id, subscription key, bearer token, params,
 * query and body validation, Idempotency-Key, the handler in the unit of work, the error envelope.
 * A route handler is left with its business rule.
 */
export function endpoint<
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
  A extends AuthLevel,
  S extends z.ZodType | undefined,
>(contract: Contract<B, Q, P, A, S>, handler: (ctx: HandlerContext<B, Q, P, A>) => Promise<Reply<NoInfer<S>>>): RouteHandler {
  return correlated(async (req, routeCtx, correlationId) => {
    const started = performance.now();
    const url = new URL(req.url);
    let partnerId: string | undefined;
    let key: RequestKey | undefined;
    let response: Response;
    try {
      if (contract.sandboxOnly && !config().sandbox) throw new DomainError("route.notFound", { message: "No such route." });
      const db = await ready();
      const now = clock.now();
      const { partner, customer, gateRow } = await callerOf(contract.auth, req, db, now);
      partnerId = partner?.id;

      const params = contract.params ? parseOrThrow(contract.params, await routeCtx.params, "path") : undefined;
      const query = contract.query ? parseOrThrow(contract.query, Object.fromEntries(url.searchParams), "query") : undefined;
      const xmlBody = contract.bodyMediaType === "application/xml";
      const rawBody = contract.body ? (xmlBody ? await readXmlBody(req) : await readJsonBody(req, { required: true })) : undefined;

      // A key already used answers first (replay or conflict), even for a body that no longer
      // validates; a new one is claimed in the same statement.
      const keyed = contract.idempotency === "required" || (contract.idempotency === "optional" && hasIdempotencyKey(req));
      if (keyed) {
        const scope = customer?.subscriptionId ?? partner?.id ?? "public";
        key = new RequestKey({ scope, key: idempotencyKeyOf(req), fingerprint: fingerprintOf(req.method, url.pathname, rawBody) });
        const earlier = await key.claimOrEarlier(db, now);
        if (earlier) return finish(replay(earlier, correlationId, contract.successMediaType));
      }
      let body, gated;
      try {
        body = contract.body ? parseOrThrow(contract.body, rawBody) : undefined;
        gated = contract.gate && customer ? await enforceGate(db, contract.gate, customer, gateRow) : undefined;
      } catch (err) {
        // Validation failures and refusals are not stored against the key: its claim is freed.
        await key?.release(db);
        throw err;
      }
      const settled = await key?.begin(db, now);
      if (settled) return finish(replay(settled, correlationId, contract.successMediaType));

      const actor = actorOf(partner, customer);
      const outcome = await runUnit(
        async (unit) => {
          const reply = await handler({ req, body, query, params, partner, customer, gated, correlationId, ...unit } as HandlerContext<B, Q, P, A>);
          const headers = { ...reply.headers, "x-correlation-id": correlationId };
          if (contract.successMediaType === "application/xml" && typeof reply.body === "string")
            return xmlResponse(reply.status ?? contract.success.status, reply.body, headers);
          const text = reply.body === undefined ? null : JSON.stringify(reply.body);
          return jsonResponse(reply.status ?? contract.success.status, text, headers);
        },
        {
          // The answer is recorded with the work it answers (a kept error's too), in its effects' statement.
          seal: async (unit, done) => {
            const answer = await answerOf(done.ok ? done.value : errorResponse(done.error, correlationId));
            const write = key?.completion(unit.tx, answer, done.ok ? undefined : done.error);
            if (write) await unit.atCommit(write);
          },
          context: { correlationId, route: contract.operationId },
          actor,
          now,
          db,
        },
      );
      if (!outcome.ok && !outcome.committed) throw outcome.error;
      response = outcome.ok ? outcome.value : errorResponse(outcome.error, correlationId);
    } catch (err) {
      const error = toDomainError(err, { correlationId, route: contract.operationId });
      response = errorResponse(error, correlationId);
      const db = key && (await ready().catch(() => undefined));
      if (db) await key!.fail(db, await answerOf(response), error);
    }
    return finish(response);

    function finish(res: Response): Response {
      answered(req, { correlationId, route: contract.path, status: res.status, started, partnerId });
      return res;
    }
  });
}

/**
 * The pipeline of a GET that only reads: the same keys, token, gate, validation and
 * envelope as endpoint(), but no transaction and no Idempotency-Key work. A read that finds a write
 * to do (reads before it writes) runs it through `write`, one unit of work with row locks as before.
 */
export function readEndpoint<
  Q extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
  A extends AuthLevel,
  S extends z.ZodType | undefined,
  R = undefined,
>(
  contract: Contract<undefined, Q, P, A, S>,
  handler: (ctx: ReadContext<Q, P, A, R>) => Promise<Reply<NoInfer<S>>>,
  options: { withCaller?: A extends "customer" ? ReadWithCaller<ReadInput<Q, P>, R> : never } = {},
): RouteHandler {
  if (contract.method !== "GET") throw new Error(`readEndpoint: ${contract.operationId} is a ${contract.method}: it writes (use endpoint)`);
  const { withCaller } = options;
  return correlated(async (req, routeCtx, correlationId) => {
    const started = performance.now();
    let partnerId: string | undefined;
    let response: Response;
    try {
      if (contract.sandboxOnly && !config().sandbox) throw new DomainError("route.notFound", { message: "No such route." });
      const db = await ready();
      const now = clock.now();
      const rawParams = contract.params ? await routeCtx.params : undefined;
      const rawQuery = contract.query ? Object.fromEntries(new URL(req.url).searchParams) : undefined;
      // The read joins the caller's statement (one round trip) when its input is valid; an invalid
      // one is refused as before: after the caller (its key and token errors come first).
      const input = withCaller ? validInput(contract, rawParams, rawQuery, now) : undefined;
      const values = input && withCaller!.values(input);
      const { partner, customer, gateRow, rows } = values
        ? await authenticateCustomerWith(db, apiKeyOf(req), bearerTokenOf(req), now, withCaller!, input!, values)
        : { ...(await callerOf(contract.auth, req, db, now)), rows: undefined };
      partnerId = partner?.id;
      const params = input ? input.params : contract.params ? parseOrThrow(contract.params, rawParams, "path") : undefined;
      const query = input ? input.query : contract.query ? parseOrThrow(contract.query, rawQuery, "query") : undefined;
      const gated = contract.gate && customer ? await enforceGate(db, contract.gate, customer, gateRow) : undefined;
      // Its not-found after the caller's and the gate's refusals, as when it was read after them.
      const found = rows && withCaller!.answer(rows, input!);
      const context = { correlationId, route: contract.operationId };
      const write: Writer = (work) => inUnit((unit) => work(unit.tx), { context, actor: actorOf(partner, customer), db });
      const reply = await handler({ req, query, params, partner, customer, gated, db, write, now, correlationId, found } as ReadContext<Q, P, A, R>);
      const text = reply.body === undefined ? null : JSON.stringify(reply.body);
      response = jsonResponse(reply.status ?? contract.success.status, text, { ...reply.headers, "x-correlation-id": correlationId });
    } catch (err) {
      response = errorResponse(toDomainError(err, { correlationId, route: contract.operationId }), correlationId);
    }
    answered(req, { correlationId, route: contract.path, status: response.status, started, partnerId });
    return response;
  });
}

/**
 * A pipeline run with its request's correlation id current (lib/platform/log/correlation.ts): its log lines
 * carry it, and the jobs it enqueues keep it for their own runs (request → jobs → webhooks).
 */
function correlated(pipeline: (req: Request, routeCtx: RouteContext, correlationId: string) => Promise<Response>): RouteHandler {
  return (req, routeCtx) => {
    const correlationId = correlationIdOf(req);
    return withCorrelation(correlationId, () => pipeline(req, routeCtx, correlationId));
  };
}

/** Every answer of both pipelines: its access log line, and its count and latency by the contract's route template (GET /metrics). */
function answered(req: Request, fields: Parameters<typeof logRequest>[1]): void {
  logRequest(req, fields);
  observeRequest({ method: req.method, route: fields.route, status: fields.status, seconds: (performance.now() - fields.started) / 1000 });
}

/** What a read joined to its caller is keyed by: the request's valid path and query, and the time. */
export interface ReadInput<Q, P> {
  params: Out<P>;
  query: Out<Q>;
  now: Date;
}

function validInput<Q extends z.ZodType | undefined, P extends z.ZodType | undefined>(
  contract: Contract<undefined, Q, P>,
  rawParams: unknown,
  rawQuery: unknown,
  now: Date,
): ReadInput<Q, P> | undefined {
  try {
    const params = contract.params ? parseOrThrow(contract.params, rawParams, "path") : undefined;
    const query = contract.query ? parseOrThrow(contract.query, rawQuery, "query") : undefined;
    return { params: params as Out<P>, query: query as Out<Q>, now };
  } catch {
    return undefined;
  }
}

function actorOf(partner: PartnerRef | undefined, customer: CustomerContext | undefined): Actor {
  if (customer) return { kind: "customer", id: customer.customerId, partnerId: customer.partnerId };
  return partner ? { kind: "partner", id: partner.id } : { kind: "system" };
}

export async function answerOf(res: Response): Promise<Answer> {
  return { status: res.status, body: await res.clone().text() };
}

export function replay(answer: Answer, correlationId: string, successMediaType?: "application/xml"): Response {
  const headers = { "idempotent-replayed": "true", "x-correlation-id": correlationId };
  // A document answer (the sandbox's pain.001) replays as the document; errors are JSON envelopes.
  if (successMediaType === "application/xml" && answer.status < 300) return xmlResponse(answer.status, answer.body, headers);
  return jsonResponse(answer.status, answer.body || null, headers);
}
