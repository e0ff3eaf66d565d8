/** Quote, disclosure and accept helpers of the integration tests, and the sandbox partner settings. */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { call, type CallResult } from "./client";

type Caller = { token: string };

export function quoteBody(beneficiaryId: string, overrides: Record<string, unknown> = {}) {
  return { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId, ...overrides };
}

export function createQuote(c: Caller, body: unknown, opts: { idempotencyKey?: string } = {}) {
  return call("POST", "/v1/core/quotes", { token: c.token, body, ...opts });
}

export function readQuote(c: Caller, quoteId: string) {
  return call("GET", `/v1/core/quotes/${encodeURIComponent(quoteId)}`, { token: c.token });
}

export function readDisclosure(c: Caller, quoteId: string, headers: Record<string, string> = {}) {
  return call("GET", `/v1/core/quotes/${encodeURIComponent(quoteId)}/disclosure`, { token: c.token, headers });
}

export function acceptQuote(c: Caller, quoteId: string, disclosureToken: string, opts: { idempotencyKey?: string; purposeOfTransfer?: string } = {}) {
  return call("POST", `/v1/core/quotes/${encodeURIComponent(quoteId)}/accept`, {
    token: c.token,
    body: { disclosureToken, purposeOfTransfer: opts.purposeOfTransfer ?? "FAMILY_SUPPORT" },
    idempotencyKey: opts.idempotencyKey ?? randomUUID(),
  });
}

/** A service-priced quote (200); `overrides` replace body fields (amount, currencies, payoutMethod). */
export async function serviceQuote(c: Caller, beneficiaryId: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await createQuote(c, quoteBody(beneficiaryId, overrides));
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Reads the disclosure (200) and returns its token. */
export async function disclosureToken(c: Caller, quoteId: string): Promise<string> {
  const res = await readDisclosure(c, quoteId);
  assert.equal(res.status, 200, res.text);
  return res.body.disclosureToken;
}

/** Quote → disclosure → accept (201): a transfer in registered. `overrides` go into the quote body. */
export async function acceptTransfer(
  c: Caller,
  beneficiaryId: string,
  overrides: Record<string, unknown> = {},
): Promise<{ transferId: string; quoteId: string; quote: any; accept: CallResult }> {
  const quote = await serviceQuote(c, beneficiaryId, overrides);
  const accept = await acceptQuote(c, quote.quoteId, await disclosureToken(c, quote.quoteId));
  assert.equal(accept.status, 201, accept.text);
  assert.equal(accept.body.transferStatus, "registered");
  return { transferId: accept.body.transferId, quoteId: quote.quoteId, quote, accept };
}

export interface PartnerSettings {
  partnerId: string;
  pricingMode: string;
  jwks: { keys: Record<string, unknown>[] };
  webhookUrl: string | null;
  webhookSecret: string | null;
}

/** PUT /v1/sandbox/partner (an empty body reads the current settings). */
export async function putPartner(body: Record<string, unknown>): Promise<PartnerSettings> {
  const res = await call("PUT", "/v1/sandbox/partner", { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Service pricing (another test file may have switched the sandbox partner to PARTNER_SIGNED). */
export async function useServicePricing(): Promise<void> {
  await putPartner({ pricingMode: "SERVICE_PRICED" });
}
