import { and, eq, isNull, sql } from "drizzle-orm";
import type { PgSelect, SelectedFields } from "drizzle-orm/pg-core";
import type { Db } from "@/db";
import { prepared as preparedOnce } from "@/db/prepared";
import { customers, partnerApiKeys, partners, sessions, subscriptions } from "@/db/schema";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import type { GatedCustomer } from "@/lib/identity/customers/gating";
import { type Partner, invalidKey } from "@/lib/partners";
import type { ReadWithCaller } from "@/lib/platform/read-with-caller";
import { checkSession, tokenError } from "./access-tokens";
import type { CustomerContext } from "./customer-context";

export type { ReadWithCaller } from "@/lib/platform/read-with-caller";

/**
 * The request's caller in one round trip: the subscription key's partner, and for
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

// The caller's columns: the key's partner, the token's session and subscription, the customer's gate fields.
const callerFields = {
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
};

/**
 * A read's caller knows its partner by id only: no read uses more of it, and the whole
 * partner row (21 columns, four of them jsonb) was sent, parsed and mapped with every row of the
 * read (each event of a page, each payout method of a beneficiary).
 */
const readCallerFields = { ...callerFields, partner: { id: partners.id } };

/** The partner of a read's caller (ReadWithCaller): its id. */
export type PartnerRef = Pick<Partner, "id">;

/** The caller's join; with a read, that read's columns and joins too (one row at most without one). */
function callerSelect(db: Db, readFields?: SelectedFields) {
  // Typed as the caller's columns: a read's own are the read's to map (ReadWithCaller.answer).
  return db
    .select((readFields ? { ...readCallerFields, ...readFields } : callerFields) as typeof callerFields)
    .from(partnerApiKeys)
    .innerJoin(partners, eq(partners.id, partnerApiKeys.partnerId))
    .leftJoin(sessions, eq(sessions.accessTokenHash, sql.placeholder("tokenHash")))
    .leftJoin(subscriptions, eq(subscriptions.id, sessions.subscriptionId))
    .leftJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(and(eq(partnerApiKeys.keyHash, sql.placeholder("keyHash")), isNull(partnerApiKeys.revokedAt)))
    .$dynamic();
}

function customerQuery(db: Db) {
  return callerSelect(db).limit(1).prepare("auth_customer");
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
  return callerOfRow(row, now);
}

/**
 * authenticateCustomer and a read in one statement (ReadWithCaller): the same answers and errors
 * in the same order, and the read's rows for the pipeline to answer once the gate has passed.
 */
export async function authenticateCustomerWith<I, R>(
  db: Db,
  apiKey: string | null,
  token: string | null,
  now: Date,
  read: ReadWithCaller<I, R>,
  input: I,
  values: Record<string, unknown>,
): Promise<{ partner: PartnerRef; customer: CustomerContext; gateRow: GatedCustomer | undefined; rows: Record<string, unknown>[] }> {
  if (!apiKey || apiKey.length > 256 || !token || token.length > 512) return { ...(await authenticateCustomer(db, apiKey, token, now)), rows: [] };
  const name = `auth_customer_${read.name}${read.shape?.(input) ?? ""}`;
  const query = preparedOnce(db, name, (e) => readQuery(e, read, input).prepare(name));
  const rows = (await query.execute({ ...values, keyHash: sha256Hex(apiKey), tokenHash: sha256Hex(token) })) as Record<string, unknown>[];
  return { ...callerOfRow(rows[0] as ReadCallerRow | undefined, now), rows };
}

function readQuery<I, R>(db: Db, read: ReadWithCaller<I, R>, input: I) {
  const clash = Object.keys(read.fields).find((k) => k in readCallerFields);
  if (clash) throw new Error(`ReadWithCaller ${read.name}: its column ${clash} is named like the caller's`);
  return read.join(callerSelect(db, read.fields) as unknown as PgSelect, { subscriptionId: subscriptions.id, customerId: subscriptions.customerId }, input);
}

type CallerRow = Awaited<ReturnType<ReturnType<typeof customerQuery>["execute"]>>[number];
type ReadCallerRow = Omit<CallerRow, "partner"> & { partner: PartnerRef };

function callerOfRow<R extends ReadCallerRow>(
  row: R | undefined,
  now: Date,
): { partner: R["partner"]; customer: CustomerContext; gateRow: GatedCustomer | undefined } {
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
