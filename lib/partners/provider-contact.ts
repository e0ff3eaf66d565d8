import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { partners, type ProviderContact } from "@/db/schema";
import { notFound } from "@/lib/platform/errors";

/**
 * The contact disclosures and receipts state for a partner's customers: who to call,
 * where to read more, and the regulator to complain to. Set by an admin in the console.
 */
export async function setProviderContact(tx: Tx, partnerId: string, contact: ProviderContact, now: Date): Promise<{ before: ProviderContact | null }> {
  const [row] = await tx.select({ contact: partners.providerContact }).from(partners).where(eq(partners.id, partnerId)).for("update");
  if (!row) throw notFound("partner");
  await tx.update(partners).set({ providerContact: contact, updatedAt: now }).where(eq(partners.id, partnerId));
  return { before: row.contact };
}
