import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { customers, partnerApiKeys, partners, sessions, subscriptions } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto/hash";
import type { GatedCustomer } from "@/lib/customers/gating";
import type { Partner } from "@/lib/partners/authenticate";
import { invalidKey } from "@/lib/partners/authenticate";
import { checkSession, tokenError } from "./access-tokens";
import type { CustomerContext } from "./customer-context";

/**
 * The request's caller in one round trip (issue 13): the subscription key's partner, and for
 * customer routes the bearer token's session, subscription and the customer's gate fields, as one
 * prepared statement. Same answers, in the same order, as partnerForApiKey, resolveAccessToken and
 * enforceGate asked one after the other.
 */
function partnerQuery(db: Db) {
  return db
    .select({ partner: partners })
    .from(partnerApiKeys)
    .innerJoin(partners, eq(partners.id, partnerApiKeys.partnerId))
    .where(and(eq(partnerApiKeys.keyHash, sql.placeholder("keyHash")), isNull(partnerApiKeys.revokedAt)))
    .limit(1)
    .prepare("auth_partner");
}

function customerQuery(db: Db) {
  return db
    .select({
      partner: partners,
      sessionId: sessions.id,
      state: sessions.state,
      sessionPartnerId: sessions.partnerId,
      accessExpiresAt: sessions.accessExpiresAt,
      subscriptionId: subscriptions.id,
      customerId: subscriptions.customerId,
      subscriptionStatus: subscriptions.status,
      gateId: customers.id,
      status: customers.status,
      kycStatus: customers.kycStatus,
      hasProfile: sql<boolean>`${customers.profile} is not null`,
    })
    .from(partnerApiKeys)
    .innerJoin(partners, eq(partners.id, partnerApiKeys.partnerId))
    .leftJoin(sessions, eq(sessions.accessTokenHash, sql.placeholder("tokenHash")))
    .leftJoin(subscriptions, eq(subscriptions.id, sessions.subscriptionId))
    .leftJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(and(eq(partnerApiKeys.keyHash, sql.placeholder("keyHash")), isNull(partnerApiKeys.revokedAt)))
    .limit(1)
    .prepare("auth_customer");
}

// Prepared once per database handle (one per process).
const prepared = new WeakMap<Db, { partner: ReturnType<typeof partnerQuery>; customer: ReturnType<typeof customerQuery> }>();
function statements(db: Db) {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = { partner: partnerQuery(db), customer: customerQuery(db) }));
  return s;
}

export async function authenticatePartner(db: Db, apiKey: string | null): Promise<Partner> {
  if (!apiKey || apiKey.length > 256) throw invalidKey();
  const [row] = await statements(db).partner.execute({ keyHash: sha256Hex(apiKey) });
  if (!row) throw invalidKey();
  return row.partner;
}

export async function authenticateCustomer(
  db: Db,
  apiKey: string | null,
  token: string | null,
  now: Date,
): Promise<{ partner: Partner; customer: CustomerContext; gateRow: GatedCustomer | undefined }> {
  if (!apiKey || apiKey.length > 256) throw invalidKey();
  // The key is checked first (a missing token with a bad key is still a key error).
  if (!token || token.length > 512) {
    await authenticatePartner(db, apiKey);
    throw tokenError("auth.tokenInvalid", "A Bearer access token is required.");
  }
  const [row] = await statements(db).customer.execute({ keyHash: sha256Hex(apiKey), tokenHash: sha256Hex(token) });
  if (!row) throw invalidKey();
  const found =
    row.sessionId && row.subscriptionId && row.customerId && row.sessionPartnerId && row.state && row.accessExpiresAt && row.subscriptionStatus
      ? {
          sessionId: row.sessionId,
          state: row.state,
          partnerId: row.sessionPartnerId,
          accessExpiresAt: row.accessExpiresAt,
          subscriptionId: row.subscriptionId,
          customerId: row.customerId,
          subscriptionStatus: row.subscriptionStatus,
        }
      : undefined;
  const customer = checkSession(found, row.partner.id, now);
  const gateRow =
    row.gateId && row.status && row.kycStatus ? { id: row.gateId, status: row.status, kycStatus: row.kycStatus, hasProfile: row.hasProfile } : undefined;
  return { partner: row.partner, customer, gateRow };
}
