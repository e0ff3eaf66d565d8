import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";

/**
 * A client of Onfido's published API (v3.6), the vendor adapter's transport: create an applicant,
 * upload the document and the selfie, create a check (document and facial similarity reports);
 * the result comes back later by a webhook signed with HMAC-SHA256 of the raw body under the
 * webhook token (header X-SHA2-Signature), after which the check and its reports are read.
 * `simulatedOnfido` stands in for Onfido's sandbox, in this process: the same calls, the same
 * shapes, and Onfido's sandbox rule for results (an applicant whose last name is "Consider" gets
 * "consider", everyone else "clear").
 */

export type OnfidoResult = "clear" | "consider";

export interface OnfidoCheck {
  id: string;
  status: "in_progress" | "complete";
  result: OnfidoResult | null;
  reports: { name: string; result: OnfidoResult | null }[];
}

export interface OnfidoApplicant {
  first_name: string;
  last_name: string;
  dob: string;
}

export interface OnfidoUpload {
  bytes: Buffer;
  contentType: string;
}

export interface OnfidoApi {
  createApplicant(applicant: OnfidoApplicant): Promise<{ id: string }>;
  uploadDocument(
    applicantId: string,
    doc: OnfidoUpload & { type: "passport" | "national_identity_card" | "driving_licence"; side: "front" | "back"; issuingCountry: string },
  ): Promise<{ id: string }>;
  uploadLivePhoto(applicantId: string, photo: OnfidoUpload): Promise<{ id: string }>;
  createCheck(applicantId: string, documentIds: string[]): Promise<OnfidoCheck>;
  readCheck(checkId: string): Promise<OnfidoCheck>;
}

/** The signature Onfido sends: hex HMAC-SHA256 of the raw body under the webhook token. */
export function onfidoSignature(rawBody: string, webhookToken: string): string {
  return createHmac("sha256", webhookToken).update(rawBody, "utf8").digest("hex");
}

/** Constant-time comparison of the received signature with the expected one. */
export function onfidoSignatureValid(rawBody: string, signature: string | null, webhookToken: string): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = Buffer.from(onfidoSignature(rawBody, webhookToken), "hex");
  return timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), "hex"));
}

/** What the webhook says (resource check, action check.completed): the check's id. */
export function onfidoWebhookCheckId(rawBody: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new DomainError("validation.bodyMalformed", { message: "The webhook body is not JSON." });
  }
  const payload = (body as { payload?: { resource_type?: string; action?: string; object?: { id?: unknown } } }).payload;
  if (payload?.resource_type !== "check" || payload.action !== "check.completed") return null;
  return typeof payload.object?.id === "string" ? payload.object.id : null;
}

/** The webhook body Onfido sends when a check completes. */
export function onfidoCompletedBody(checkId: string, at: Date, baseUrl: string): string {
  return JSON.stringify({
    payload: {
      resource_type: "check",
      action: "check.completed",
      object: { id: checkId, status: "complete", completed_at_iso8601: at.toISOString(), href: `${baseUrl}/v3.6/checks/${checkId}` },
    },
  });
}

/** Onfido's API over HTTPS (ONFIDO_API_URL, token auth). Called outside any transaction. */
export function httpOnfido(baseUrl: string, token: string, signal?: AbortSignal): OnfidoApi {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Token token=${token}`, accept: "application/json" };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${baseUrl}/v3.6${path}`, { method, headers, body: payload, signal: signal ?? AbortSignal.timeout(20_000) });
    if (!res.ok) throw new Error(`Onfido ${method} ${path}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const file = (u: OnfidoUpload) => new Blob([new Uint8Array(u.bytes)], { type: u.contentType });
  return {
    createApplicant: (a) => call("POST", "/applicants", a),
    uploadDocument: (applicantId, d) => {
      const form = new FormData();
      form.set("applicant_id", applicantId);
      form.set("type", d.type);
      form.set("side", d.side);
      form.set("issuing_country", d.issuingCountry);
      form.set("file", file(d), "document");
      return call("POST", "/documents", form);
    },
    uploadLivePhoto: (applicantId, p) => {
      const form = new FormData();
      form.set("applicant_id", applicantId);
      form.set("file", file(p), "selfie");
      return call("POST", "/live_photos", form);
    },
    createCheck: async (applicantId, documentIds) =>
      withReports(
        await call<Omit<OnfidoCheck, "reports">>("POST", "/checks", { applicant_id: applicantId, document_ids: documentIds, report_names: REPORTS }),
        [],
      ),
    readCheck: async (checkId) => {
      const check = await call<Omit<OnfidoCheck, "reports">>("GET", `/checks/${checkId}`);
      const { reports } = await call<{ reports: { name: string; result: OnfidoResult | null }[] }>("GET", `/reports?check_id=${encodeURIComponent(checkId)}`);
      return withReports(check, reports);
    },
  };
}

const REPORTS = ["document", "facial_similarity_photo"];
const withReports = (check: Omit<OnfidoCheck, "reports">, reports: OnfidoCheck["reports"]): OnfidoCheck => ({
  id: check.id,
  status: check.status,
  result: check.result,
  reports: reports.map((r) => ({ name: r.name, result: r.result })),
});

// The simulated sandbox's state: bounded, this process only (like Onfido's sandbox, nothing real).
const applicants = new Map<string, OnfidoApplicant & { uploads: number }>();
const checks = new Map<string, OnfidoCheck>();
const KEEP = 1000;
const remember = <V>(map: Map<string, V>, key: string, value: V) => {
  map.set(key, value);
  if (map.size > KEEP) map.delete(map.keys().next().value as string);
};

/** Onfido's sandbox, simulated in this process (sandbox only: lib/identity/kyc/verification/provider.ts). */
export const simulatedOnfido: OnfidoApi = {
  async createApplicant(a) {
    const id = randomUUID();
    remember(applicants, id, { ...a, uploads: 0 });
    return { id };
  },
  async uploadDocument(applicantId) {
    const applicant = applicants.get(applicantId);
    if (!applicant) throw new Error("Onfido sandbox: no such applicant");
    applicant.uploads++;
    return { id: randomUUID() };
  },
  async uploadLivePhoto(applicantId) {
    if (!applicants.has(applicantId)) throw new Error("Onfido sandbox: no such applicant");
    return { id: randomUUID() };
  },
  async createCheck(applicantId) {
    const applicant = applicants.get(applicantId);
    if (!applicant || applicant.uploads === 0) throw new Error("Onfido sandbox: an applicant with a document is needed");
    const result: OnfidoResult = applicant.last_name.trim().toLowerCase() === "consider" ? "consider" : "clear";
    const check: OnfidoCheck = { id: randomUUID(), status: "complete", result, reports: REPORTS.map((name) => ({ name, result })) };
    remember(checks, check.id, check);
    return { ...check, status: "in_progress", result: null, reports: [] };
  },
  async readCheck(checkId) {
    const check = checks.get(checkId);
    if (!check) throw new Error("Onfido sandbox: no such check");
    return check;
  },
};

/** The simulated sandbox's base URL (named in its webhooks' href only). */
export const SIMULATED_ONFIDO_URL = "https://onfido-sandbox.invalid";

/** The Onfido client for a provider name: the real API, or (sandbox only) its simulation. */
export function onfidoApi(name: "onfido" | "onfido-sandbox", signal?: AbortSignal): OnfidoApi {
  if (name === "onfido-sandbox") return simulatedOnfido;
  const c = config();
  if (!c.ONFIDO_API_TOKEN) throw new DomainError("internal.unavailable", { message: "KYC_DECISION_PROVIDER=onfido needs ONFIDO_API_TOKEN." });
  return httpOnfido(c.ONFIDO_API_URL ?? "https://api.eu.onfido.com", c.ONFIDO_API_TOKEN, signal);
}
