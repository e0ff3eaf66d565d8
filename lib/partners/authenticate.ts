import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { partnerApiKeys, partners } from "@/db/schema";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";

export type Partner = typeof partners.$inferSelect;

export const invalidKey = () =>
  new DomainError("auth.subscriptionKeyInvalid", {
    message: "Missing or unknown Ocp-Apim-Subscription-Key.",
    hint: "check_subscription_key",
  });

/** The partner owning an Ocp-Apim-Subscription-Key (keys are stored as SHA-256 hashes). */
export async function partnerForApiKey(db: Executor, apiKey: string | null): Promise<Partner> {
  if (!apiKey || apiKey.length > 256) throw invalidKey();
  const [row] = await db
    .select({ partner: partners })
    .from(partnerApiKeys)
    .innerJoin(partners, eq(partners.id, partnerApiKeys.partnerId))
    .where(and(eq(partnerApiKeys.keyHash, sha256Hex(apiKey)), isNull(partnerApiKeys.revokedAt)))
    .limit(1);
  if (!row) throw invalidKey();
  return row.partner;
}
