import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { partners } from "@/db/schema";
import { config } from "@/lib/config";
import { randomToken } from "@/lib/crypto/hash";
import { DomainError } from "@/lib/errors";
import { assertDeliverableUrl } from "@/lib/webhooks/url-policy";
import { validReturnOrigins } from "./origins";

export interface PartnerSettingsInput {
  jwks?: { keys: Record<string, unknown>[] };
  pricingMode?: "SERVICE_PRICED" | "PARTNER_SIGNED";
  webhookUrl?: string | null;
  returnOrigins?: string[];
  deepLinkBase?: string | null;
}

export interface PartnerSettings {
  partnerId: string;
  pricingMode: string;
  jwks: { keys: Record<string, unknown>[] };
  webhookUrl: string | null;
  webhookSecret: string | null;
  returnOrigins: string[];
  deepLinkBase: string | null;
}

/** A Standard Webhooks secret: whsec_ followed by base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${Buffer.from(randomToken(24), "base64url").toString("base64")}`;
}

/**
 * Updates a partner's integration settings (PUT /v1/sandbox/partner, and the console later).
 * Setting a webhook URL for the first time creates its signing secret.
 */
export async function updatePartnerSettings(tx: Tx, partnerId: string, input: PartnerSettingsInput, now: Date): Promise<PartnerSettings> {
  const origins = input.returnOrigins && validReturnOrigins(input.returnOrigins, { allowLocalHttp: config().sandbox });
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for("update");
  if (!partner) throw new DomainError("partner.notFound");
  if (input.webhookUrl) {
    try {
      await assertDeliverableUrl(input.webhookUrl, config().sandbox || config().WEBHOOK_ALLOW_PRIVATE);
    } catch (err) {
      const message = err instanceof Error ? err.message : "not deliverable";
      throw new DomainError("validation.fieldInvalid", {
        message: `webhookUrl is not acceptable: ${message}.`,
        details: { issues: [{ field: "webhookUrl", code: "validation.fieldInvalid", message }] },
      });
    }
  }
  const webhookUrl = input.webhookUrl === undefined ? partner.webhookUrl : input.webhookUrl;
  const [updated] = await tx
    .update(partners)
    .set({
      jwks: input.jwks ?? partner.jwks,
      pricingMode: input.pricingMode ?? partner.pricingMode,
      webhookUrl,
      webhookSecret: webhookUrl ? (partner.webhookSecret ?? newWebhookSecret()) : partner.webhookSecret,
      returnOrigins: origins ?? partner.returnOrigins,
      deepLinkBase: input.deepLinkBase === undefined ? partner.deepLinkBase : input.deepLinkBase,
      updatedAt: now,
    })
    .where(eq(partners.id, partnerId))
    .returning();
  return {
    partnerId: updated.id,
    pricingMode: updated.pricingMode,
    jwks: updated.jwks,
    webhookUrl: updated.webhookUrl,
    webhookSecret: updated.webhookUrl ? updated.webhookSecret : null,
    returnOrigins: updated.returnOrigins,
    deepLinkBase: updated.deepLinkBase,
  };
}
