import { and, desc, eq, gt, inArray, isNotNull, or } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { kycSessions } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { changeCustomer, lockCustomer } from "@/lib/identity/customers/status-change";
import { DomainError } from "@/lib/platform/errors";
import type { Language } from "@/lib/platform/i18n/language";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import type { Partner } from "@/lib/partners";
import { closureCallbackFor } from "@/lib/platform/webviews/closure";
import { issueWebviewToken } from "@/lib/platform/webviews/tokens";
import { TOP_TIER } from "@/db/schema/customers";
import { kycSessionMachine, type KycSessionState } from "./session-state-machine";
import type { KycSessionPurpose } from "./statuses";
import { effectsOf } from "@/lib/platform/unit-of-work";

export type KycSessionRow = typeof kycSessions.$inferSelect;

const OPEN_STATES: KycSessionState[] = ["CREATED", "IN_PROGRESS"];

/** Purpose from the KYC state (spec 2.3): never supplied by the caller. A completed KYC asks for more only as a step-up (ENHANCED). */
function purposeFor(kycStatus: string): KycSessionPurpose {
  if (kycStatus === "COMPLETED") return "ENHANCED";
  if (kycStatus === "IN_PROGRESS") return "RESUME";
  if (kycStatus === "REMEDIATION_REQUIRED") return "RESUBMISSION";
  return "NEW";
}

/**
 * POST /v1/core/kyc-sessions. Idempotent on the server side (spec 4.1 rule 2): an open session
 * within its lifetime is returned again, with a fresh 30-minute webview URL.
 */
export async function createKycSession(tx: Tx, input: { customerId: string; subscriptionId: string; partner: Partner; language: Language; now: Date }) {
  const customer = await lockCustomer(tx, input.customerId);
  if (!customer.profile) {
    throw new DomainError("customer.statusInsufficient", {
      message: "Submit the customer profile before starting KYC.",
      remediation: "submit_profile_attributes",
      details: { currentStatus: customer.status },
    });
  }
  if (customer.status === "BLOCKED") {
    throw new DomainError("customer.statusBlocking", {
      message: "KYC is not available; contact support.",
      remediation: "contact_support",
      details: { currentStatus: customer.status },
    });
  }
  // A completed KYC at tier 1 steps up (ENHANCED: source of funds); at the top tier, or
  // after a rejection, there is nothing to capture.
  const topTier = customer.kycStatus === "COMPLETED" && customer.verificationTier >= TOP_TIER;
  if (topTier || customer.kycStatus === "REJECTED") {
    throw new DomainError("kyc.notRequired", {
      message: topTier ? "The customer is at the top verification tier; no session is needed." : "KYC is already rejected; no session is needed.",
      details: { kycStatus: customer.kycStatus },
    });
  }
  const [open] = await tx
    .select()
    .from(kycSessions)
    .where(
      and(
        eq(kycSessions.customerId, customer.id),
        inArray(kycSessions.state, OPEN_STATES),
        or(gt(kycSessions.expiresAt, input.now), isNotNull(kycSessions.submittedAt)),
      ),
    )
    .orderBy(desc(kycSessions.createdAt))
    .limit(1);
  let session = open;
  if (!session) {
    const id = newId("kyc");
    const state = kycSessionMachine.next("none", "create").to;
    [session] = await tx
      .insert(kycSessions)
      .values({
        id,
        customerId: customer.id,
        subscriptionId: input.subscriptionId,
        purpose: purposeFor(customer.kycStatus),
        state,
        locale: input.language,
        openedAt: input.now,
        expiresAt: addSeconds(input.now, config().KYC_SESSION_TTL_SECONDS),
        createdAt: input.now,
      })
      .returning();
    await effectsOf(tx).jobs.schedule("kyc.expireSession", { kycSessionId: id }, { runAt: session.expiresAt, dedupeKey: dedupeKey("kyc.expireSession", id) });
    if (customer.kycStatus === "NOT_STARTED") await changeCustomer(tx, customer, { kycStatus: "IN_PROGRESS" }, input.now);
  }
  // 30 minutes, but never past the session's own 24-hour end (the URL would be dead already). A
  // submitted session waits for an operator past that end: its status page gets the full 30 minutes.
  const secondsLeft = (session.expiresAt.getTime() - input.now.getTime()) / 1000;
  const ttlSeconds = session.submittedAt ? config().KYC_WEBVIEW_TTL_SECONDS : Math.min(config().KYC_WEBVIEW_TTL_SECONDS, secondsLeft);
  const webview = await issueWebviewToken(tx, { kind: "KYC", sessionId: session.id, partnerId: input.partner.id, ttlSeconds, now: input.now });
  return {
    kycSessionId: session.id,
    // Spec 2.3: the purpose follows the KYC state at this call. Returning the open session of an
    // IN_PROGRESS customer is a resume (RESUME), even though the session was opened as NEW.
    purpose: open ? purposeFor(customer.kycStatus) : session.purpose,
    sessionState: session.state,
    webviewUrl: webview.url,
    expiresAt: webview.expiresAt.toISOString(),
    sessionExpiresAt: session.expiresAt.toISOString(),
    closureCallback: closureCallbackFor(input.partner, "kyc"),
  };
}

/**
 * Read-time guard: a session past its 24 hours reads as EXPIRED even if the timer job is late. A
 * session submitted for operator review does not expire: the customer's part is done and the
 * decision may take longer than the capture's lifetime.
 */
export function effectiveState(session: KycSessionRow, now: Date): KycSessionState {
  const state = session.state;
  return OPEN_STATES.includes(state) && !session.submittedAt && session.expiresAt.getTime() <= now.getTime() ? "EXPIRED" : state;
}

/** GET /v1/core/kyc-sessions/{id}: lifecycle only; outcomes are read from the profile. */
export async function readKycSession(tx: Tx, input: { customerId: string; kycSessionId: string; now: Date }) {
  const [session] = await tx.select().from(kycSessions).where(eq(kycSessions.id, input.kycSessionId));
  // Another customer's session answers exactly like a missing one (spec 7).
  if (!session || session.customerId !== input.customerId) throw new DomainError("kycSession.notFound", { message: "No such KYC session." });
  return {
    kycSessionId: session.id,
    purpose: session.purpose,
    sessionState: effectiveState(session, input.now),
    openedAt: session.openedAt.toISOString(),
    closedAt: session.closedAt?.toISOString() ?? null,
    expiresAt: session.expiresAt.toISOString(),
  };
}
