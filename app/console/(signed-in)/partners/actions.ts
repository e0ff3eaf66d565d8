"use server";

import { z } from "zod";
import { consoleAction, consoleFormAction } from "@/lib/console/action";
import { recordAudit } from "@/lib/operators/audit";
import { createPartner, issueApiKey, revokeApiKey } from "@/lib/partners/admin";
import { parsePartnerJwks } from "@/lib/partners/jwks";
import { applyPartnerSettings, checkWebhookUrl } from "@/lib/partners/settings";

export const createPartnerAction = consoleAction(
  "admin",
  z.object({ name: z.string().trim().min(2).max(100), pricingMode: z.enum(["SERVICE_PRICED", "PARTNER_SIGNED"]) }),
  async ({ tx, input, operator, now }) => {
    const partner = await createPartner(tx, { ...input, now });
    await recordAudit(
      tx,
      operator,
      { action: "partner.create", targetType: "partner", targetId: partner.id, after: { name: partner.name, pricingMode: partner.pricingMode } },
      now,
    );
    return `Partner ${partner.name} created (${partner.id}).`;
  },
);

// The new key is shown once, on the page that asked (useActionState: never in a URL), and never stored in clear.
export const issueKeyAction = consoleFormAction("admin", z.object({ partnerId: z.string().min(1) }), async ({ tx, input, operator, now }) => {
  const { keyId, apiKey } = await issueApiKey(tx, input.partnerId, now);
  await recordAudit(tx, operator, { action: "partner.apiKey.issue", targetType: "partner", targetId: input.partnerId, after: { keyId } }, now);
  return { notice: `Key ${keyId} issued.`, once: { apiKey, keyId } };
});

export const revokeKeyAction = consoleAction(
  "admin",
  z.object({ partnerId: z.string().min(1), keyId: z.string().min(1) }),
  async ({ tx, input, operator, now }) => {
    await revokeApiKey(tx, input.partnerId, input.keyId, now);
    await recordAudit(tx, operator, { action: "partner.apiKey.revoke", targetType: "partner", targetId: input.partnerId, before: { keyId: input.keyId } }, now);
    return `Key ${input.keyId} revoked.`;
  },
);

// A webhook URL set for the first time creates the partner's secret: shown once, on this page.
export const updatePartnerAction = consoleFormAction(
  "admin",
  z.object({
    partnerId: z.string().min(1),
    pricingMode: z.enum(["SERVICE_PRICED", "PARTNER_SIGNED"]),
    webhookUrl: z.string().trim().max(2048),
    returnOrigins: z.string().trim().max(2000),
    jwksJson: z.string().trim().max(65536),
    jwksUrl: z.string().trim().max(2048),
  }),
  {
    // Network work before the transaction opens: the webhook URL's name is resolved and the JWKS
    // (fetched from its URL when given) is read.
    prepare: async (input) => {
      if (input.webhookUrl) await checkWebhookUrl(input.webhookUrl);
      return input.jwksUrl ? parsePartnerJwks({ url: input.jwksUrl }) : input.jwksJson ? parsePartnerJwks({ json: input.jwksJson }) : undefined;
    },
    run: async ({ tx, input, prepared: jwks, operator, now }) => {
      const origins = input.returnOrigins.split(/[\s,]+/).filter(Boolean);
      const { settings: after, firstWebhookSecret } = await applyPartnerSettings(
        tx,
        input.partnerId,
        { pricingMode: input.pricingMode, webhookUrl: input.webhookUrl || null, returnOrigins: origins, ...(jwks ? { jwks } : {}) },
        now,
      );
      await recordAudit(
        tx,
        operator,
        {
          action: "partner.update",
          targetType: "partner",
          targetId: input.partnerId,
          after: {
            pricingMode: after.pricingMode,
            webhookUrl: after.webhookUrl,
            returnOrigins: after.returnOrigins,
            jwksKids: after.jwks.keys.map((k) => k.kid),
            ...(firstWebhookSecret ? { webhookSecretIssued: true } : {}),
          },
        },
        now,
      );
      return firstWebhookSecret && after.webhookSecret
        ? { notice: "Partner settings saved; the endpoint's first webhook secret was issued.", once: { webhookSecret: after.webhookSecret } }
        : { notice: "Partner settings saved." };
    },
  },
);
