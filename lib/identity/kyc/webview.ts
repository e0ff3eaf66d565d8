import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Tx } from "@/db";
import { kycPhotos, kycSessions, partners } from "@/db/schema";
import { customerTimeZone } from "@/lib/identity/customers/time-zone";
import { DomainError, validationError } from "@/lib/platform/errors";
import { closureCallbackFor, type ClosureCallback } from "@/lib/platform/webviews/closure";
import { resolveWebviewToken } from "@/lib/platform/webviews/tokens";
import { kycDecidedByOperators } from "./decision-provider";
import { completeKycSession, lockKycSession, moveKycSession } from "./outcome";
import { isEvidence, type KycCapture } from "./capture";
import type { KycOutcome, KycSessionPurpose } from "./statuses";
import { effectiveState } from "./sessions";
import { kycSessionMachine, type KycSessionState } from "./session-state-machine";
import type { KycPhotoKind } from "./photo-kinds";
import { kycVerifier } from "./verification/provider";
import { queueVerification } from "./verification/service";

export interface KycWebviewModel {
  kycSessionId: string;
  /** ENHANCED asks for source-of-funds evidence instead of an identity document. */
  purpose: KycSessionPurpose;
  locale: string;
  sessionState: KycSessionState;
  captured: boolean;
  /** Operator mode: the capture was sent for review; the page only says so. */
  submitted: boolean;
  /** The reviewer's reason when the customer's previous session asked for a correction. */
  correctionReason: string | null;
  closure: ClosureCallback;
  /** When this page's URL stops working (30 minutes after it was issued). */
  linkExpiresAt: Date;
  /** The customer's time zone (from the residence address), the one the page writes times in. */
  timeZone: string;
  /** The machine verifies the document: the page also asks for the two selfies (face match, liveness). */
  selfies: boolean;
}

const expired = () => new DomainError("kyc.sessionExpired", { message: "This verification link has expired." });

/** The session behind a live KYC webview token, locked; kyc.sessionExpired when the URL is dead. */
async function sessionForToken(tx: Tx, token: string, now: Date) {
  const resolved = await resolveWebviewToken(tx, "KYC", token, now);
  if (!resolved) throw expired();
  const session = await lockKycSession(tx, resolved.sessionId);
  if (!session || !kycSessionMachine.can(effectiveState(session, now), "completed")) throw expired();
  return { session, partnerId: resolved.partnerId, linkExpiresAt: resolved.expiresAt };
}

/** Opening the hosted page moves the session to IN_PROGRESS (the customer has started). */
export async function openKycWebview(tx: Tx, token: string, now: Date): Promise<KycWebviewModel> {
  const { session, partnerId, linkExpiresAt } = await sessionForToken(tx, token, now);
  const sessionState = await moveKycSession(tx, session, "opened");
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId));
  return {
    kycSessionId: session.id,
    purpose: session.purpose,
    locale: session.locale,
    sessionState,
    captured: session.capture !== null,
    submitted: session.submittedAt !== null,
    correctionReason: session.submittedAt ? null : await correctionReason(tx, session.customerId),
    closure: closureCallbackFor(partner, "kyc"),
    linkExpiresAt,
    timeZone: await customerTimeZone(tx, session.customerId),
    selfies: session.purpose !== "ENHANCED" && kycVerifier().wantsSelfies,
  };
}

/** The reason of the customer's last decided session, when it asked for a correction. */
async function correctionReason(tx: Tx, customerId: string): Promise<string | null> {
  const [last] = await tx
    .select({ outcome: kycSessions.outcome, reason: kycSessions.decisionReason })
    .from(kycSessions)
    .where(and(eq(kycSessions.customerId, customerId), isNotNull(kycSessions.outcome)))
    .orderBy(desc(kycSessions.closedAt))
    .limit(1);
  return last?.outcome === "REMEDIATION_REQUIRED" ? last.reason : null;
}

const submittedAlready = () =>
  new DomainError("kyc.sessionStateInvalid", { message: "The documents were already sent for review.", details: { currentState: "IN_PROGRESS" } });

/** Photos operators can look at in a browser (anything else is refused at upload). */
export const KYC_PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export const KYC_PHOTO_MAX_BYTES = 10 * 1024 * 1024;

/** Keeps one picture of the session (document, its back, a selfie) for the verifier and the reviewer; replaced until the capture is submitted. */
export async function storeKycPhoto(tx: Tx, token: string, photo: { kind?: KycPhotoKind; contentType: string; bytes: Buffer }, now: Date) {
  const { session } = await sessionForToken(tx, token, now);
  if (session.submittedAt) throw submittedAlready();
  const row = {
    kycSessionId: session.id,
    kind: photo.kind ?? "DOCUMENT",
    contentType: photo.contentType,
    size: photo.bytes.byteLength,
    bytes: photo.bytes,
    createdAt: now,
  };
  await tx
    .insert(kycPhotos)
    .values(row)
    .onConflictDoUpdate({
      target: [kycPhotos.kycSessionId, kycPhotos.kind],
      set: { contentType: row.contentType, size: row.size, bytes: row.bytes, createdAt: now },
    });
  return { kycSessionId: session.id, kind: row.kind, size: row.size };
}

/**
 * Stores what the customer entered. The sandbox accepts the photo without inspecting it and keeps
 * the document number masked. With operators deciding, the reviewer compares the number with the
 * photo, so it is kept whole, the photo must have been uploaded, and the session is submitted to
 * the console's KYC review queue. A step-up session (ENHANCED) takes source-of-funds evidence, the
 * others an identity document: the other kind is refused.
 */
export async function captureKycDocuments(tx: Tx, token: string, capture: KycCapture, now: Date) {
  const { session } = await sessionForToken(tx, token, now);
  const review = kycDecidedByOperators();
  if (session.submittedAt) throw submittedAlready();
  if (isEvidence(capture) !== (session.purpose === "ENHANCED")) {
    const field = session.purpose === "ENHANCED" ? "sourceOfFunds" : "documentType";
    throw validationError([{ field, code: "validation.fieldMissing", message: "This verification asks for other information." }]);
  }
  if (review) {
    const [photo] = await tx
      .select({ size: kycPhotos.size })
      .from(kycPhotos)
      .where(and(eq(kycPhotos.kycSessionId, session.id), eq(kycPhotos.kind, "DOCUMENT")));
    if (!photo) throw validationError([{ field: "photo", code: "validation.fieldMissing", message: "Upload the document photo first." }]);
  }
  const kept = isEvidence(capture) || review ? capture : { ...capture, documentNumber: `****${capture.documentNumber.slice(-3)}` };
  await tx
    .update(kycSessions)
    .set({ capture: { ...kept, capturedAt: now.toISOString() }, submittedAt: review ? now : null })
    .where(eq(kycSessions.id, session.id));
  // The machine verifies identity documents (a step-up's evidence always goes to a person).
  const verifier = kycVerifier();
  if (review && verifier.machine && !isEvidence(capture)) await queueVerification(tx, session.id, verifier.name, now);
  return { kycSessionId: session.id, sessionState: session.state };
}

/** The sandbox outcome buttons of the hosted page (same effect as POST /v1/sandbox/kyc-sessions/{id}/complete). */
export async function decideKycFromWebview(tx: Tx, token: string, outcome: KycOutcome, now: Date) {
  if (kycDecidedByOperators()) throw new DomainError("route.notFound", { message: "No such route." });
  const { session } = await sessionForToken(tx, token, now);
  return completeKycSession(tx, { session, outcome, now });
}
