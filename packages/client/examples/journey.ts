/**
 * The README's ten-line journey with the client, as a function that type-checks with the repo
 * (README.md shows the lines between the markers; test/unit/docs/readme.test.ts keeps them equal).
 * An onboarded customer's token, a VALID beneficiary and a registered device key come in.
 */
import { createRemitClient, deviceAssertion, type DeviceKey } from "@remit-core/client";

export async function journey(token: string, beneficiaryId: string, device: DeviceKey, baseUrl = "http://localhost:3000") {
  // --- README journey ---
  const api = createRemitClient({ baseUrl, subscriptionKey: "sandbox-demo-key", accessToken: token });
  const body = { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId };
  const { quoteId } = (await api.POST("/v1/core/quotes", { body })).data!;
  const { disclosureToken } = (await api.GET("/v1/core/quotes/{quoteId}/disclosure", { params: { path: { quoteId } } })).data!;
  const accept = { params: { path: { quoteId } }, body: { disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" as const } };
  const { transferId } = (await api.POST("/v1/core/quotes/{quoteId}/accept", accept)).data!;
  const path = { params: { path: { transferId } } };
  const payoutMethod = { methodType: "BANK_TRANSFER", destinationIdentifier: "002010077777777771" };
  await api.POST("/v1/core/transfers/{transferId}/submit", { ...path, body: { beneficiaryId, payoutMethod, purposeOfTransfer: "FAMILY_SUPPORT" } });
  const validated = (await api.GET("/v1/core/transfers/{transferId}", path)).data!; // poll until the fast-check says "validated"
  const confirmed = await api.POST("/v1/core/transfers/{transferId}/confirm", { ...path, body: { deviceAssertion: await deviceAssertion(validated, device) } });
  // --- end ---
  return { transferId, fundingWebviewUrl: confirmed.data?.fundingSession?.fundingWebviewUrl };
}
