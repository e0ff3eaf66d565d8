import { and, desc, eq, isNull } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { partnerApiKeys, partners, subscriptions } from "@/db/schema";
import { randomToken, sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import type { SubscriptionStatus } from "./subscription-status";
import { subscriptionMachine } from "./subscription-status-machine";

/** Partner administration for the console: every change goes through here. */
export async function createPartner(tx: Tx, input: { name: string; pricingMode: "SERVICE_PRICED" | "PARTNER_SIGNED"; now: Date }) {
  const id = `partner_${randomToken(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")}`;
  const [row] = await tx
    .insert(partners)
    .values({ id, name: input.name, pricingMode: input.pricingMode, createdAt: input.now, updatedAt: input.now })
    .returning();
  return row;
}

/** A new subscription key: returned once, stored as its SHA-256 only. */
export async function issueApiKey(tx: Tx, partnerId: string, now: Date): Promise<{ keyId: string; apiKey: string }> {
  const apiKey = `pk_${randomToken(24)}`;
  const keyId = newId("key");
  await tx.insert(partnerApiKeys).values({ id: keyId, partnerId, keyHash: sha256Hex(apiKey), keyPrefix: apiKey.slice(0, 8), createdAt: now });
  return { keyId, apiKey };
}

export async function revokeApiKey(tx: Tx, partnerId: string, keyId: string, now: Date): Promise<void> {
  const [row] = await tx
    .update(partnerApiKeys)
    .set({ revokedAt: now })
    .where(and(eq(partnerApiKeys.id, keyId), eq(partnerApiKeys.partnerId, partnerId), isNull(partnerApiKeys.revokedAt)))
    .returning();
  if (!row) throw new DomainError("apiKey.notFound", { message: "No such active key." });
}

/** The partner-customer relationship status (spec 3.5): suspended pauses money movement; closed ends everything. */
export async function setSubscriptionStatus(tx: Tx, subscriptionId: string, status: SubscriptionStatus, now: Date) {
  const [before] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for("update");
  if (!before) throw new DomainError("subscription.notFound", { message: "No such subscription." });
  const step = subscriptionMachine.next(before.status, "partner.setStatus", { target: status });
  await tx.update(subscriptions).set({ status: step.to, updatedAt: now }).where(eq(subscriptions.id, subscriptionId));
  return { before: before.status, after: step.to };
}

export async function partnerDetail(db: Executor, partnerId: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId));
  if (!partner) throw new DomainError("partner.notFound", { message: "No such partner." });
  const keys = await db.select().from(partnerApiKeys).where(eq(partnerApiKeys.partnerId, partnerId)).orderBy(desc(partnerApiKeys.createdAt));
  return { partner, keys };
}
