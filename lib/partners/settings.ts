import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { partners } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import type { MonitoringMode } from "@/db/schema/monitoring";
import { assertDeliverableUrl, assertDeliverableUrlShape } from "@/lib/partners/webhooks/url-policy";
import { validReturnOrigins } from "@/lib/platform/webviews/origins";
import { newWebhookSecret, rotateWebhookSecret } from "./webhook-secret";

/** A partner's mode: its own, or MONITORING_DEFAULT_MODE. */
export function modeOf(partner: { monitoringMode: MonitoringMode | null }): MonitoringMode {
  return partner.monitoringMode ?? config().MONITORING_DEFAULT_MODE;
}

export interface PartnerSettingsInput {
  jwks?: { keys: Record<string, unknown>[] };
  pricingMode?: "SERVICE_PRICED" | "PARTNER_SIGNED";
  webhookUrl?: string | null;
  returnOrigins?: string[];
  deepLinkBase?: string | null;
  /** Replace the webhook secret (the previous one stays valid for the rotation window). */
  rotateWebhookSecret?: boolean;
  /** Transaction monitoring mode: enforce or shadow. */
  monitoring?: MonitoringMode;
}

export interface PartnerSettings {
  partnerId: string;
  pricingMode: string;
  jwks: { keys: Record<string, unknown>[] };
  webhookUrl: string | null;
  webhookSecret: string | null;
  /** Until when the secret before the last rotation still signs deliveries (null: none). */
  previousWebhookSecretValidUntil: string | null;
  returnOrigins: string[];
  deepLinkBase: string | null;
  monitoring: MonitoringMode;
}

const privateAllowed = () => config().sandbox || config().WEBHOOK_ALLOW_PRIVATE;

function refuseUndeliverable<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    const message = err instanceof Error ? err.message : "not deliverable";
    throw new DomainError("validation.fieldInvalid", {
      message: `webhookUrl is not acceptable: ${message}.`,
      details: { issues: [{ field: "webhookUrl", code: "validation.fieldInvalid", message }] },
    });
  }
}

/**
 * The full webhook URL check, resolving its name (decisions section 9), for a helpful error when the
 * URL is set. Run it before the transaction opens; every delivery checks the connected address again.
 */
export async function checkWebhookUrl(url: string): Promise<void> {
  try {
    await assertDeliverableUrl(url, privateAllowed());
  } catch (err) {
    refuseUndeliverable(() => {
      throw err;
    });
  }
}

/**
 * Updates a partner's integration settings (PUT /v1/sandbox/partner, and the console later).
 * Setting a webhook URL for the first time creates its signing secret; `rotateWebhookSecret`
 * replaces it (the partner's own rotation, decisions: webhook secret rotation).
 */
export async function updatePartnerSettings(tx: Tx, partnerId: string, input: PartnerSettingsInput, now: Date): Promise<PartnerSettings> {
  return (await applyPartnerSettings(tx, partnerId, input, now)).settings;
}

/**
 * updatePartnerSettings, also saying whether this change created the partner's first webhook
 * secret (a URL set for the first time): the console shows that secret once.
 */
export async function applyPartnerSettings(
  tx: Tx,
  partnerId: string,
  input: PartnerSettingsInput,
  now: Date,
): Promise<{ settings: PartnerSettings; firstWebhookSecret: boolean }> {
  const origins = input.returnOrigins && validReturnOrigins(input.returnOrigins, { allowLocalHttp: config().sandbox });
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for("update");
  if (!partner) throw new DomainError("partner.notFound");
  // The shape only: no DNS inside the transaction (callers resolve the name first, checkWebhookUrl).
  if (input.webhookUrl) refuseUndeliverable(() => assertDeliverableUrlShape(input.webhookUrl!, privateAllowed()));
  const webhookUrl = input.webhookUrl === undefined ? partner.webhookUrl : input.webhookUrl;
  if (input.rotateWebhookSecret && !webhookUrl) {
    throw new DomainError("validation.fieldInvalid", {
      message: "rotateWebhookSecret needs a webhook URL: set webhookUrl first.",
      details: { issues: [{ field: "rotateWebhookSecret", code: "validation.fieldInvalid", message: "no webhook URL is set" }] },
    });
  }
  const [updated] = await tx
    .update(partners)
    .set({
      jwks: input.jwks ?? partner.jwks,
      pricingMode: input.pricingMode ?? partner.pricingMode,
      webhookUrl,
      // A new URL is a new endpoint: a 410 or Retry-After of the old one no longer applies.
      ...(webhookUrl !== partner.webhookUrl ? { webhookDisabledAt: null, webhookDisabledReason: null, webhookNotBefore: null } : {}),
      webhookSecret: webhookUrl ? (partner.webhookSecret ?? newWebhookSecret()) : partner.webhookSecret,
      returnOrigins: origins ?? partner.returnOrigins,
      deepLinkBase: input.deepLinkBase === undefined ? partner.deepLinkBase : input.deepLinkBase,
      monitoringMode: input.monitoring ?? partner.monitoringMode,
      updatedAt: now,
    })
    .where(eq(partners.id, partnerId))
    .returning();
  const rotated = input.rotateWebhookSecret ? await rotateWebhookSecret(tx, partnerId, now) : null;
  const validUntil = updated.webhookPreviousSecretExpiresAt;
  const settings = {
    partnerId: updated.id,
    pricingMode: updated.pricingMode,
    jwks: updated.jwks,
    webhookUrl: updated.webhookUrl,
    webhookSecret: updated.webhookUrl ? (rotated?.webhookSecret ?? updated.webhookSecret) : null,
    previousWebhookSecretValidUntil: (rotated ? rotated.previousValidUntil : validUntil && validUntil > now ? validUntil : null)?.toISOString() ?? null,
    returnOrigins: updated.returnOrigins,
    deepLinkBase: updated.deepLinkBase,
    monitoring: modeOf(updated),
  };
  return { settings, firstWebhookSecret: !partner.webhookSecret && !!updated.webhookSecret };
}
