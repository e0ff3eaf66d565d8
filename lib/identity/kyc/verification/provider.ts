import { config } from "@/lib/platform/config";
import { chooseProvider } from "@/lib/platform/providers/choose";
import type { KycDocumentCapture } from "../capture";
import type { KycOutcome } from "../statuses";
import { checkDocument, type CheckResult, type KycProfileFacts } from "./document-checks";
import { onfidoApi, onfidoSignature, onfidoCompletedBody, SIMULATED_ONFIDO_URL, type OnfidoCheck } from "./onfido";
import type { KycVerificationRecord } from "./record";
import { timed } from "./stage-timing";

/**
 * The KYC verification provider (KYC_DECISION_PROVIDER, lib/payments/providers table kind kycDecision),
 * like payouts and screening: it starts a check for a submitted session, outside any transaction,
 * and its result maps to the spec's KYC outcomes: APPROVED without a person, or the console's
 * review queue, where an operator gives APPROVED, REMEDIATION_REQUIRED or REJECTED. The machine
 * never refuses on its own: what it cannot clear goes to a person with its reasons.
 * - operator: no machine; every submitted session goes to the queue (as before).
 * - automatic: the MRZ read and checked on this service, the face matched (lib/identity/kyc/verification).
 * - onfido: Onfido's API; the verdict comes by its signed webhook. onfido-sandbox (sandbox only):
 *   the same adapter on a simulation of Onfido's sandbox in this process.
 * - sandbox: the hosted page's outcome buttons decide (sandbox only).
 */

export interface VerificationPhotos {
  document: { bytes: Buffer; contentType: string } | null;
  documentBack: { bytes: Buffer; contentType: string } | null;
  selfie: { bytes: Buffer; contentType: string } | null;
  selfieTurn: { bytes: Buffer; contentType: string } | null;
}

export interface VerificationInput {
  kycSessionId: string;
  capture: KycDocumentCapture;
  profile: KycProfileFacts;
  photos: VerificationPhotos;
  now: Date;
  signal?: AbortSignal;
}

/** A verdict now (automatic), or a vendor check whose result comes later by webhook. */
export type VerificationStart =
  | { kind: "verdict"; record: KycVerificationRecord }
  | { kind: "pending"; vendorCheckId: string; record: KycVerificationRecord; simulatedWebhook?: { body: string; signature: string } };

export interface KycVerifier {
  readonly name: string;
  /** Whether the machine decides at all (operator and sandbox: no). */
  readonly machine: boolean;
  /** Whether the hosted page asks for the two selfies. */
  readonly wantsSelfies: boolean;
  start(input: VerificationInput): Promise<VerificationStart>;
}

/** The spec outcome of a finished record: APPROVED, or none (a person decides). */
export function outcomeOf(record: KycVerificationRecord): KycOutcome | null {
  return record.status === "APPROVED" ? "APPROVED" : null;
}

const noMachine = (name: string): KycVerifier => ({
  name,
  machine: false,
  wantsSelfies: false,
  start: () => Promise.reject(new Error(`${name}: no machine verification`)),
});

/** The automatic verdict from the checks: every check passed and the face matched, or a person. */
export function verdictOf(checks: CheckResult[]): Pick<KycVerificationRecord, "status" | "reasons"> {
  const failed = checks.filter((c) => !c.passed);
  return failed.length === 0 ? { status: "APPROVED", reasons: [] } : { status: "REVIEW", reasons: failed.map((c) => `${c.check}: ${c.detail}`) };
}

export async function verifyAutomatically(input: VerificationInput): Promise<KycVerificationRecord> {
  const started = performance.now();
  const { photos, capture } = input;
  const { document } = photos;
  const startedAt = input.now.toISOString();
  if (!document) {
    return { status: "REVIEW", provider: "automatic", startedAt, finishedAt: startedAt, ms: 0, checks: [], reasons: ["mrzRead: no document photo"] };
  }
  // An identity card carries its zone on the back; a passport on its photo page.
  const zone = capture.documentType === "ID_CARD" && photos.documentBack ? photos.documentBack : document;
  // The image libraries (sharp's native libvips, tesseract.js, the MRZ parser) load with the first
  // verification, not with the job registry: a process that never verifies a document (the web
  // process of a split deployment, a server whose KYC is by operator or vendor) does not hold them
  // (7–8 MB of RSS measured on top of the registry's other imports).
  const [{ readMrz }, { faceMatcher }] = await Promise.all([import("./mrz-read"), import("./face-match")]);
  const read = await timed("mrz", () => readMrz(zone.bytes));
  const { checks, extracted } = checkDocument(read, capture, input.profile, input.now);
  const face = await timed("face", () =>
    faceMatcher().compare({
      document: document.bytes,
      selfie: photos.selfie?.bytes ?? null,
      selfieTurn: photos.selfieTurn?.bytes ?? null,
    }),
  );
  if (face.ran) {
    checks.push({ check: "faceMatch", passed: face.matched, detail: `score ${face.score} (threshold ${face.threshold}, ${face.matcher})` });
    checks.push({ check: "liveness", passed: face.liveness.passed, detail: `change between the two selfies ${face.liveness.change}` });
  } else {
    checks.push({ check: "faceMatch", passed: false, detail: `not made: ${face.reason}` });
  }
  const ms = Math.round(performance.now() - started);
  return {
    ...verdictOf(checks),
    provider: "automatic",
    startedAt,
    finishedAt: new Date(input.now.getTime() + ms).toISOString(),
    ms,
    checks,
    extracted,
    face: face.ran
      ? { ran: true, score: face.score, threshold: face.threshold, matched: face.matched, liveness: face.liveness, matcher: face.matcher }
      : { ran: false, reason: face.reason },
  };
}

const automatic: KycVerifier = {
  name: "automatic",
  machine: true,
  wantsSelfies: true,
  start: async (input) => ({ kind: "verdict", record: await verifyAutomatically(input) }),
};

const ONFIDO_TYPES = { PASSPORT: "passport", ID_CARD: "national_identity_card", DRIVING_LICENCE: "driving_licence" } as const;

function onfidoVerifier(name: "onfido" | "onfido-sandbox"): KycVerifier {
  return {
    name,
    machine: true,
    wantsSelfies: true,
    async start({ capture, profile, photos, now, signal }) {
      if (!photos.document) throw new Error("no document photo");
      const api = onfidoApi(name, signal);
      const applicant = await api.createApplicant({ first_name: profile.firstName, last_name: profile.lastName, dob: profile.dateOfBirth });
      const type = ONFIDO_TYPES[capture.documentType];
      const documentIds = [(await api.uploadDocument(applicant.id, { ...photos.document, type, side: "front", issuingCountry: capture.issuingCountry })).id];
      if (photos.documentBack)
        documentIds.push((await api.uploadDocument(applicant.id, { ...photos.documentBack, type, side: "back", issuingCountry: capture.issuingCountry })).id);
      if (photos.selfie) await api.uploadLivePhoto(applicant.id, photos.selfie);
      const check = await api.createCheck(applicant.id, documentIds);
      const record: KycVerificationRecord = { status: "PENDING", provider: name, startedAt: now.toISOString(), vendor: { checkId: check.id } };
      if (name !== "onfido-sandbox") return { kind: "pending", vendorCheckId: check.id, record };
      // The simulated sandbox answers at once, by the same signed webhook the real one sends.
      const body = onfidoCompletedBody(check.id, now, SIMULATED_ONFIDO_URL);
      return {
        kind: "pending",
        vendorCheckId: check.id,
        record,
        simulatedWebhook: { body, signature: onfidoSignature(body, config().ONFIDO_WEBHOOK_TOKEN ?? "") },
      };
    },
  };
}

/** The record of a completed vendor check: clear is approved, consider goes to a person with the reports that were not clear. */
export function recordOfVendorCheck(pending: KycVerificationRecord, check: OnfidoCheck, now: Date): KycVerificationRecord {
  const unclear = check.reports.filter((r) => r.result !== "clear");
  const clear = check.status === "complete" && check.result === "clear";
  return {
    ...pending,
    status: clear ? "APPROVED" : "REVIEW",
    finishedAt: now.toISOString(),
    checks: check.reports.map((r) => ({ check: r.name, passed: r.result === "clear", detail: `${pending.provider}: ${r.result ?? "no result"}` })),
    reasons: clear ? [] : unclear.length ? unclear.map((r) => `${r.name}: ${r.result ?? "no result"}`) : [`check ${check.result ?? check.status}`],
    vendor: { checkId: check.id, result: check.result ?? undefined, reports: check.reports },
  };
}

export const PRODUCTION_KYC_VERIFIERS: Record<string, KycVerifier> = { operator: noMachine("operator"), automatic, onfido: onfidoVerifier("onfido") };
export const SANDBOX_KYC_VERIFIERS: Record<string, KycVerifier> = { sandbox: noMachine("sandbox"), "onfido-sandbox": onfidoVerifier("onfido-sandbox") };

export function kycVerifierFor(name: string, sandboxMode: boolean): KycVerifier {
  return chooseProvider("kycDecision", name, sandboxMode, PRODUCTION_KYC_VERIFIERS, SANDBOX_KYC_VERIFIERS);
}

/** The KYC verifier this service is configured with. */
export function kycVerifier(): KycVerifier {
  const c = config();
  return kycVerifierFor(c.providers.kycDecision, c.sandbox);
}
