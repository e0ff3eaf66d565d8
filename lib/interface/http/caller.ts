import type { Db } from "@/db";
import { authenticateCustomer, authenticatePartner, type CustomerContext, type GatedCustomer } from "@/lib/identity";
import { logger } from "@/lib/platform/log";
import type { Partner } from "@/lib/partners";
import type { AuthLevel } from "./contract";

/** Who calls: the subscription key's partner and, on customer routes, the token's customer (one query). */
export async function callerOf(
  auth: AuthLevel,
  req: Request,
  db: Db,
  now: Date,
): Promise<{ partner?: Partner; customer?: CustomerContext; gateRow?: GatedCustomer }> {
  const apiKey = apiKeyOf(req);
  if (auth === "none") return {};
  if (auth === "partner") return { partner: await authenticatePartner(db, apiKey) };
  return authenticateCustomer(db, apiKey, bearerTokenOf(req), now);
}

/** The partner's subscription key (spec: the Ocp-Apim-Subscription-Key header). */
export function apiKeyOf(req: Request): string | null {
  return req.headers.get("ocp-apim-subscription-key");
}

export function bearerTokenOf(req: Request): string | null {
  const header = req.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  return match ? match[1] : null;
}

/** The access log line of every API request. */
export function logRequest(req: Request, fields: { correlationId: string; route: string; status: number; started: number; partnerId?: string }): void {
  const log = logger();
  if (!log.isLevelEnabled("info")) return;
  log.info(
    {
      correlationId: fields.correlationId,
      method: req.method,
      route: fields.route,
      status: fields.status,
      ms: Math.round(performance.now() - fields.started),
      partnerId: fields.partnerId,
    },
    "request",
  );
}
