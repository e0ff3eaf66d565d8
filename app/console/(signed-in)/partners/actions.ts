"use server";

import { z } from "zod";
import { createPartner, issueApiKey, revokeApiKey, setPartnerLimits, updatePartner, updateProviderContact } from "@/lib/operations/commands/partners";
import { actedNotice, type Acted } from "@/lib/operations/commands/run";
import { consoleCommand, consoleFormCommand } from "@/lib/operations/console/action";
import { LIMIT_WINDOWS, VERIFICATION_TIERS, type TierLimits } from "@/lib/payments/limits/tiers";
import { parsePartnerJwks } from "@/lib/partners/jwks";
import { checkWebhookUrl } from "@/lib/partners/settings";

export const createPartnerAction = consoleCommand(
  "admin",
  z.object({ name: z.string().trim().min(2).max(100), pricingMode: z.enum(["SERVICE_PRICED", "PARTNER_SIGNED"]) }),
  (input) => ({ command: createPartner, input }),
);

/**
 * A controlled action's answer to a form read with useActionState: the notice, and what it shows
 * once; a proposal says where what it may create will be revealed (to this operator, once).
 */
function formAnswer(acted: Acted) {
  if (acted.kind === "performed") return acted.performed.once ? { notice: acted.performed.notice, once: acted.performed.once } : { notice: actedNotice(acted) };
  return {
    notice: `${actedNotice(acted)} Anything it creates to hand to the partner (a key, a first webhook secret) is then revealed to you once on the proposal's page.`,
  };
}

// The new key is shown once, on the page that asked (useActionState: never in a URL), and never
// stored in clear. Under dual control it is issued when a second operator approves, and revealed
// once to the proposer, never to the approver.
export const issueKeyAction = consoleFormCommand(
  "admin",
  z.object({ partnerId: z.string().min(1) }),
  ({ partnerId }) => ({ command: issueApiKey, input: { partnerId }, reason: "Issue a new API key" }),
  formAnswer,
);

export const revokeKeyAction = consoleCommand("admin", z.object({ partnerId: z.string().min(1), keyId: z.string().min(1) }), (input) => ({
  command: revokeApiKey,
  input,
  reason: "Revoke an API key",
}));

// A webhook URL set for the first time creates the partner's secret: shown once, to the operator
// who asked for the change (under dual control: revealed to the proposer after approval).
export const updatePartnerAction = consoleFormCommand(
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
    // (fetched from its URL when given) is read; a proposal keeps the JWKS as read.
    prepare: async (input) => {
      if (input.webhookUrl) await checkWebhookUrl(input.webhookUrl);
      return input.jwksUrl ? parsePartnerJwks({ url: input.jwksUrl }) : input.jwksJson ? parsePartnerJwks({ json: input.jwksJson }) : undefined;
    },
    ask: (input, jwks) => {
      const settings = {
        partnerId: input.partnerId,
        pricingMode: input.pricingMode,
        webhookUrl: input.webhookUrl || null,
        returnOrigins: input.returnOrigins.split(/[\s,]+/).filter(Boolean),
        ...(jwks ? { jwks } : {}),
      };
      return { command: updatePartner, input: settings, reason: "Change the partner's settings" };
    },
  },
  formAnswer,
);

// The provider contact shown on disclosures and receipts.
export const updateProviderContactAction = consoleCommand(
  "admin",
  z.object({
    partnerId: z.string().min(1),
    name: z.string().trim().min(2).max(200),
    phone: z.string().trim().min(3).max(60),
    website: z.string().trim().url().max(500),
    regulator: z.string().trim().min(3).max(300),
  }),
  (input) => ({ command: updateProviderContact, input }),
);

// A partner's rolling limits per tier and window, in its limit currency, with a reason:
// under dual control (partner.limits.update) it is proposed for a second admin's approval.
const limitField = z.string().trim().max(24);
export const setPartnerLimitsAction = consoleCommand(
  "admin",
  z.object({
    partnerId: z.string().min(1),
    currency: z.string().trim().toUpperCase(),
    reason: z.string().trim().min(3).max(500),
    ...Object.fromEntries(VERIFICATION_TIERS.flatMap((t) => LIMIT_WINDOWS.map((w) => [`tier${t}_${w}`, limitField]))),
  }),
  (input) => {
    const fields = input as Record<string, string>;
    const limits = Object.fromEntries(
      VERIFICATION_TIERS.map((t) => [`${t}`, Object.fromEntries(LIMIT_WINDOWS.map((w) => [w, fields[`tier${t}_${w}`] ?? ""]))]),
    ) as TierLimits;
    const change = { partnerId: input.partnerId, currency: input.currency, limits };
    return { command: setPartnerLimits, input: change, reason: input.reason };
  },
);
