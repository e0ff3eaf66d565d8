import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { z } from "zod";
import type { Tx } from "@/db";
import type { CustomerContext } from "@/lib/auth/customer-context";
import { resolveAccessToken } from "@/lib/auth/access-tokens";
import { clock } from "@/lib/clock";
import { enforceGate, type GatedCustomer } from "@/lib/customers/gating";
import { config } from "@/lib/config";
import { DomainError } from "@/lib/errors";
import { claimKey, completeKey, existingKeyOutcome, releaseKey, type KeyRef } from "@/lib/idempotency/store";
import { wakeWorker } from "@/lib/jobs/wake";
import { logger } from "@/lib/log";
import { partnerForApiKey, type Partner } from "@/lib/partners/authenticate";
import { ready } from "@/lib/platform/ready";
import { readJsonBody } from "./body";
import type { AuthLevel, Contract } from "./contract";
import { correlationIdOf } from "./correlation";
import { errorResponse, jsonResponse, unexpected } from "./envelope";
import { parseOrThrow } from "./validate";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<B, Q, P, A extends AuthLevel> {
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
  correlationId: string;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

function fingerprintOf(method: string, path: string, body: unknown): string {
  let canonical = "";
  try {
    canonical = body === undefined ? "" : (canonicalize(body) ?? "");
  } catch {
    canonical = JSON.stringify(body);
  }
  return createHash("sha256").update(`${method} ${path}\n${canonical}`).digest("hex");
}

/**
 * The request pipeline, written once: correlation id, subscription key, bearer token, params,
 * query and body validation, Idempotency-Key, one transaction around the handler, the error
 * envelope. A route handler is left with its business rule.
 */
export function endpoint<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, P extends z.ZodType | undefined, A extends AuthLevel>(
  contract: Contract<B, Q, P, A>,
  handler: (ctx: HandlerContext<B, Q, P, A>) => Promise<Reply | Response>,
): RouteHandler {
  return async (req, routeCtx) => {
    const started = performance.now();
    const correlationId = correlationIdOf(req);
    const url = new URL(req.url);
    let partnerId: string | undefined;
    let idem: KeyRef | undefined;
    let response: Response;
    try {
      if (contract.sandboxOnly && !config().sandbox) throw new DomainError("route.notFound", { message: "No such route." });
      const db = await ready();
      const now = clock.now();
      const partner = contract.auth === "none" ? undefined : await partnerForApiKey(db, req.headers.get("ocp-apim-subscription-key"));
      partnerId = partner?.id;
      const customer = contract.auth === "customer" ? await resolveAccessToken(db, bearerTokenOf(req), partner!.id, now) : undefined;

      const rawParams = await routeCtx.params;
      const params = contract.params ? parseOrThrow(contract.params, rawParams, "path") : undefined;
      const query = contract.query ? parseOrThrow(contract.query, Object.fromEntries(url.searchParams), "query") : undefined;
      const rawBody = contract.body ? await readJsonBody(req, { required: true }) : undefined;

      // A key already used answers first (replay or conflict), even for a body that no longer validates.
      let keyRef: KeyRef | undefined;
      if (contract.idempotency === "required") {
        keyRef = {
          scope: customer?.subscriptionId ?? partner?.id ?? "public",
          key: idempotencyKeyOf(req),
          fingerprint: fingerprintOf(req.method, url.pathname, rawBody),
        };
        const earlier = await existingKeyOutcome(db, keyRef, now);
        if (earlier?.kind === "replay") return finish(replay(earlier.status, earlier.body, correlationId));
      }
      const body = contract.body ? parseOrThrow(contract.body, rawBody) : undefined;
      // Gate before the key is claimed: validation failures and refusals are not stored against it.
      const gated = contract.gate && customer ? await enforceGate(db, contract.gate, customer) : undefined;
      if (keyRef) {
        const claim = await claimKey(db, keyRef, {
          now,
          lockSeconds: config().IDEMPOTENCY_LOCK_SECONDS,
          retentionSeconds: config().IDEMPOTENCY_RETENTION_SECONDS,
        });
        if (claim.kind === "replay") return finish(replay(claim.status, claim.body, correlationId));
        idem = keyRef;
      }

      const key = idem;
      response = await db.transaction(async (tx) => {
        let status: number;
        let text: string | null;
        let headers: Record<string, string> = {};
        try {
          const reply = await handler({ req, body, query, params, partner, customer, gated, tx, now, correlationId } as HandlerContext<B, Q, P, A>);
          if (reply instanceof Response) return reply;
          status = reply.status ?? contract.success.status;
          text = reply.body === undefined ? null : JSON.stringify(reply.body);
          headers = reply.headers ?? {};
        } catch (err) {
          // keepChanges errors commit the transaction's writes (a counted failure, an expiry).
          if (!(err instanceof DomainError && err.keepChanges)) throw err;
          const failed = errorResponse(err, correlationId);
          if (key && storable(err)) await completeKey(tx, key, failed.status, await failed.clone().text());
          return failed;
        }
        if (key) await completeKey(tx, key, status, text ?? "");
        return jsonResponse(status, text, { ...headers, "x-correlation-id": correlationId });
      });
      if (req.method !== "GET") wakeWorker();
    } catch (err) {
      const domain = err instanceof DomainError ? err : unexpected();
      if (!(err instanceof DomainError)) logger().error({ err, correlationId, route: contract.operationId }, "unexpected error");
      response = errorResponse(domain, correlationId);
      if (idem) {
        const db = await ready().catch(() => undefined);
        // Business refusals are replayed like successes; validation errors, 5xx and 429 free the key.
        if (db && storable(domain)) {
          await completeKey(db, idem, response.status, await response.clone().text()).catch(() => undefined);
        } else if (db) {
          await releaseKey(db, idem).catch(() => undefined);
        }
      }
    }
    return finish(response);

    function finish(res: Response): Response {
      logger().info(
        { correlationId, method: req.method, route: contract.path, status: res.status, ms: Math.round(performance.now() - started), partnerId },
        "request",
      );
      return res;
    }
  };
}

/**
 * Whether an error answer is kept under its Idempotency-Key. A request that never validated, a
 * throttle or a server fault is not an outcome: the client may fix it and retry with the same key.
 */
function storable(err: DomainError): boolean {
  return err.status < 500 && err.status !== 429 && !err.code.startsWith("validation.");
}

function replay(status: number, body: string, correlationId: string): Response {
  return jsonResponse(status, body || null, { "idempotent-replayed": "true", "x-correlation-id": correlationId });
}

function bearerTokenOf(req: Request): string | null {
  const header = req.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  return match ? match[1] : null;
}
