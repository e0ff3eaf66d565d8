import { randomInt, randomUUID } from "node:crypto";
import { onboardCustomer } from "../../scripts/lib/onboarding";
import { call, uniqueEmail } from "../../test/integration/support";

/** Random Latin letters: profile names are matched for identity resolution, so each run uses new ones. */
function letters(n: number): string {
  return Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
}

const capitalised = (s: string) => s[0].toUpperCase() + s.slice(1);

/** A valid profile of a French resident, unique to this call. */
export function validProfile() {
  return {
    firstName: `Camille${letters(5)}`,
    lastName: capitalised(`durand${letters(6)}`),
    dateOfBirth: `19${70 + randomInt(25)}-0${1 + randomInt(9)}-1${randomInt(10)}`,
    nationality: "FRA",
    residenceCountry: "FRA",
    residenceAddress: { addressLine1: "12 rue de la Paix", city: "Paris", postalCode: "75002", country: "FRA" },
    preferredLanguage: "fr" as const,
  };
}

export interface KycSession {
  kycSessionId: string;
  purpose: string;
  sessionState: string;
  webviewUrl: string;
  expiresAt: string;
  closureCallback: { postMessage: { type: string; targetOrigin: string | null }; deepLink: string | null };
}

/** A registered customer with a submitted profile (status PENDING, KYC required). */
export async function customerWithProfile(): Promise<{ accessToken: string }> {
  const { token } = await onboardCustomer(call, { identifier: uniqueEmail(), profile: validProfile(), kyc: false });
  return { accessToken: token };
}

export async function createKycSession(accessToken: string): Promise<KycSession> {
  const res = await call<KycSession>("POST", "/v1/core/kyc-sessions", { token: accessToken, idempotencyKey: randomUUID() });
  if (res.status !== 200) throw new Error(`POST /v1/core/kyc-sessions: ${res.status} ${res.text}`);
  return res.body;
}

export async function readProfile(accessToken: string): Promise<{ status: string; kycStatus: string }> {
  const res = await call("GET", "/v1/core/profile", { token: accessToken });
  if (res.status !== 200) throw new Error(`GET /v1/core/profile: ${res.status} ${res.text}`);
  return res.body;
}
