/**
 * Commands on a partner's configuration: settings, API keys, limits. Pricing, keys and limits are
 * never one admin's (dual control); the webhook URL and the webview origins alone are.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { partners } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { notFound } from "@/lib/platform/errors";
import {
  checkPartnerLimits,
  PartnerLimitsChange,
  partnerTierLimits,
  setPartnerLimits as saveLimits,
  LIMIT_WINDOWS,
  VERIFICATION_TIERS,
  referenceRates,
} from "@/lib/payments";
import { applyPartnerSettings, createPartner as create, issueApiKey as issueKey, revokeApiKey as revokeKey, setProviderContact } from "@/lib/partners";
import { command } from "./command";

export async function partnerOf(tx: Tx, partnerId: string) {
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId));
  if (!partner) throw notFound("partner");
  return partner;
}

function partnerSettingsView(s: { pricingMode: string; webhookUrl: string | null; returnOrigins: string[]; jwks: { keys: Record<string, unknown>[] } }) {
  return { pricingMode: s.pricingMode, webhookUrl: s.webhookUrl, returnOrigins: s.returnOrigins, jwksKids: s.jwks.keys.map((k) => k.kid) };
}

/** A partner's settings changed; a change of pricing mode or JWKS waits for a second admin. */
export const updatePartner = command({
  name: "partner.update",
  role: "admin",
  input: z.object({
    partnerId: z.string().min(1),
    pricingMode: z.enum(["SERVICE_PRICED", "PARTNER_SIGNED"]),
    webhookUrl: z.string().nullable(),
    returnOrigins: z.array(z.string()),
    jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
  }),
  subject: (p) => ({ type: "partner", id: p.partnerId }),
  needsSecondOperator: async (tx, p) => {
    const partner = await partnerOf(tx, p.partnerId);
    return p.pricingMode !== partner.pricingMode || (!!p.jwks && JSON.stringify(p.jwks) !== JSON.stringify(partner.jwks));
  },
  describe: async (tx, p) => {
    const partner = await partnerOf(tx, p.partnerId);
    const before = partnerSettingsView(partner);
    const changed = [p.pricingMode !== partner.pricingMode ? `pricing mode to ${p.pricingMode}` : "", p.jwks ? "its JWKS" : ""].filter(Boolean);
    // What the approver compares: the JWKS's key ids, the webhook URL and the origins, as they would be.
    const after = partnerSettingsView({ pricingMode: p.pricingMode, webhookUrl: p.webhookUrl, returnOrigins: p.returnOrigins, jwks: p.jwks ?? partner.jwks });
    return { summary: `Change the settings of partner ${partner.name} (${changed.join(", ") || "webhook, origins"})`, before, after };
  },
  run: async ({ tx, now }, p) => {
    const before = partnerSettingsView(await partnerOf(tx, p.partnerId));
    const { settings: after, firstWebhookSecret } = await applyPartnerSettings(
      tx,
      p.partnerId,
      { pricingMode: p.pricingMode, webhookUrl: p.webhookUrl, returnOrigins: p.returnOrigins, ...(p.jwks ? { jwks: p.jwks } : {}) },
      now,
    );
    return {
      targetType: "partner",
      targetId: p.partnerId,
      before,
      after: { ...partnerSettingsView(after), ...(firstWebhookSecret ? { webhookSecretIssued: true } : {}) },
      notice: firstWebhookSecret ? "Partner settings saved; the endpoint's first webhook secret was issued." : "Partner settings saved.",
      ...(firstWebhookSecret && after.webhookSecret ? { once: { webhookSecret: after.webhookSecret } } : {}),
    };
  },
});

export const issueApiKey = command({
  name: "partner.apiKey.issue",
  role: "admin",
  input: z.object({ partnerId: z.string().min(1) }),
  subject: (p) => ({ type: "partner", id: p.partnerId }),
  describe: async (tx, p) => ({
    summary: `Issue a new API key to partner ${(await partnerOf(tx, p.partnerId)).name}`,
    before: {},
    after: { apiKey: "a new key, revealed once to the proposer after approval" },
  }),
  run: async ({ tx, now }, p) => {
    const { keyId, apiKey } = await issueKey(tx, p.partnerId, now);
    return { targetType: "partner", targetId: p.partnerId, before: {}, after: { keyId }, notice: `Key ${keyId} issued.`, once: { apiKey, keyId } };
  },
});

export const revokeApiKey = command({
  name: "partner.apiKey.revoke",
  role: "admin",
  input: z.object({ partnerId: z.string().min(1), keyId: z.string().min(1) }),
  subject: (p) => ({ type: "partnerApiKey", id: p.keyId }),
  describe: async (tx, p) => ({
    summary: `Revoke API key ${p.keyId} of partner ${(await partnerOf(tx, p.partnerId)).name}`,
    before: { keyId: p.keyId },
    after: { revoked: p.keyId },
  }),
  run: async ({ tx, now }, p) => {
    await revokeKey(tx, p.partnerId, p.keyId, now);
    return { targetType: "partner", targetId: p.partnerId, before: { keyId: p.keyId }, after: { revoked: p.keyId }, notice: `Key ${p.keyId} revoked.` };
  },
});

/** A partner's limits by verification tier (lib/payments/limits/partner-limits.ts checks them). */
export const setPartnerLimits = command({
  name: "partner.limits.update",
  role: "admin",
  input: PartnerLimitsChange.extend({ partnerId: z.string().min(1) }),
  subject: (p) => ({ type: "partner", id: p.partnerId }),
  describe: async (tx, p) => {
    const partner = await partnerOf(tx, p.partnerId);
    checkPartnerLimits(p, { rates: await referenceRates(tx), now: clock.now() });
    const line = (l: Record<string, Record<string, string>>) =>
      VERIFICATION_TIERS.map((t) => `tier ${t} ${LIMIT_WINDOWS.map((w) => l[`${t}`][w]).join("/")}`).join(", ");
    return {
      summary: `Change the limits of partner ${partner.name} to ${p.currency} ${line(p.limits)}`,
      before: { currency: partner.limitCurrency, limits: partnerTierLimits(partner, clock.now()) },
      after: { currency: p.currency, limits: p.limits },
    };
  },
  run: async ({ tx, now }, p) => {
    const { before, after } = await saveLimits(tx, p.partnerId, { currency: p.currency, limits: p.limits }, { rates: await referenceRates(tx), now });
    return {
      targetType: "partner",
      targetId: p.partnerId,
      before: { ...before },
      after: { ...after },
      notice: `Limits of ${p.partnerId} saved (${after.currency}).`,
    };
  },
});

export const createPartner = command({
  name: "partner.create",
  role: "admin",
  input: z.object({ name: z.string().trim().min(2).max(100), pricingMode: z.enum(["SERVICE_PRICED", "PARTNER_SIGNED"]) }),
  run: async ({ tx, now }, p) => {
    const partner = await create(tx, { ...p, now });
    return {
      targetType: "partner",
      targetId: partner.id,
      after: { name: partner.name, pricingMode: partner.pricingMode },
      notice: `Partner ${partner.name} created (${partner.id}).`,
    };
  },
});

/** The provider contact shown on disclosures and receipts. */
export const updateProviderContact = command({
  name: "partner.providerContact.update",
  role: "admin",
  input: z.object({
    partnerId: z.string().min(1),
    name: z.string().trim().min(2).max(200),
    phone: z.string().trim().min(3).max(60),
    website: z.string().trim().url().max(500),
    regulator: z.string().trim().min(3).max(300),
  }),
  run: async ({ tx, now }, { partnerId, ...contact }) => {
    const { before } = await setProviderContact(tx, partnerId, contact, now);
    return { targetType: "partner", targetId: partnerId, before: before ? { ...before } : null, after: contact, notice: "Provider contact saved." };
  },
});
