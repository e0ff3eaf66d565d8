import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { kycSessions, partners } from "@/db/schema";
import { DomainError } from "@/lib/errors";
import { closureCallbackFor, type ClosureCallback } from "@/lib/webviews/closure";
import { resolveWebviewToken } from "@/lib/webviews/tokens";
import { completeKycSession, lockKycSession } from "./outcome";
import type { KycOutcome } from "./statuses";
import { effectiveState } from "./sessions";
import { kycSessionMachine, type KycSessionState } from "./session-state-machine";

export interface KycWebviewModel {
  kycSessionId: string;
  locale: string;
  sessionState: KycSessionState;
  captured: boolean;
  closure: ClosureCallback;
}

const expired = () => new DomainError("kyc.sessionExpired", { message: "This verification link has expired." });

/** The session behind a live KYC webview token, locked; kyc.sessionExpired when the URL is dead. */
async function sessionForToken(tx: Tx, token: string, now: Date) {
  const resolved = await resolveWebviewToken(tx, "KYC", token, now);
  if (!resolved) throw expired();
  const session = await lockKycSession(tx, resolved.sessionId);
  if (!session || !kycSessionMachine.can(effectiveState(session, now), "completed")) throw expired();
  return { session, partnerId: resolved.partnerId };
}

/** Opening the hosted page moves the session to IN_PROGRESS (the customer has started). */
export async function openKycWebview(tx: Tx, token: string, now: Date): Promise<KycWebviewModel> {
  const { session, partnerId } = await sessionForToken(tx, token, now);
  const step = kycSessionMachine.next(session.state, "opened");
  if (step.changed) await tx.update(kycSessions).set({ state: step.to }).where(eq(kycSessions.id, session.id));
  const [partner] = await tx.select().from(partners).where(eq(partners.id, partnerId));
  return {
    kycSessionId: session.id,
    locale: session.locale,
    sessionState: step.to,
    captured: session.capture !== null,
    closure: closureCallbackFor(partner, "kyc"),
  };
}

export interface KycCapture {
  documentType: "PASSPORT" | "ID_CARD" | "DRIVING_LICENCE";
  documentNumber: string;
  issuingCountry: string;
  expiryDate: string;
  photo: { size: number; type: string };
}

/**
 * Stores what the customer entered. The document number is kept masked here (the provider gets
 * the document); the sandbox accepts the photo without inspecting it.
 */
export async function captureKycDocuments(tx: Tx, token: string, capture: KycCapture, now: Date) {
  const { session } = await sessionForToken(tx, token, now);
  const masked = `****${capture.documentNumber.slice(-3)}`;
  await tx
    .update(kycSessions)
    .set({ capture: { ...capture, documentNumber: masked, capturedAt: now.toISOString() } })
    .where(eq(kycSessions.id, session.id));
  return { kycSessionId: session.id, sessionState: session.state };
}

/** The sandbox outcome buttons of the hosted page (same effect as POST /v1/sandbox/kyc-sessions/{id}/complete). */
export async function decideKycFromWebview(tx: Tx, token: string, outcome: KycOutcome, now: Date) {
  const { session } = await sessionForToken(tx, token, now);
  return completeKycSession(tx, { session, outcome, now });
}
