import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { kycSessions } from "@/db/schema";
import { changeCustomer, lockCustomer } from "@/lib/identity/customers/status-change";
import { customerStatusMachine, type CustomerTrigger } from "@/lib/identity/customers/status-machine";
import { DomainError } from "@/lib/platform/errors";
import { TOP_TIER } from "@/db/schema/customers";
import { retireSessionTokens } from "@/lib/platform/webviews/tokens";
import { effectiveState, type KycSessionRow } from "./sessions";
import { kycSessionMachine, type KycSessionState, type KycSessionTrigger } from "./session-state-machine";
import type { KycOutcome, KycStatus } from "./statuses";

const EFFECT: Record<KycOutcome, { kycStatus: KycStatus; trigger: CustomerTrigger }> = {
  APPROVED: { kycStatus: "COMPLETED", trigger: "kyc.approved" },
  REJECTED: { kycStatus: "REJECTED", trigger: "kyc.rejected" },
  REMEDIATION_REQUIRED: { kycStatus: "REMEDIATION_REQUIRED", trigger: "kyc.remediationRequired" },
};

export async function lockKycSession(tx: Tx, kycSessionId: string): Promise<KycSessionRow | undefined> {
  const [session] = await tx.select().from(kycSessions).where(eq(kycSessions.id, kycSessionId)).for("update");
  return session;
}

/**
 * The one way a KYC session changes state: the machine decides (or refuses),
 * the new state is written with the caller's columns; an accepted move that keeps the state writes
 * nothing. The session must be locked (lockKycSession).
 */
export async function moveKycSession(
  tx: Tx,
  session: KycSessionRow,
  trigger: KycSessionTrigger,
  set: Partial<Pick<KycSessionRow, "outcome" | "closedAt">> = {},
): Promise<KycSessionState> {
  const step = kycSessionMachine.next(session.state, trigger);
  if (step.changed)
    await tx
      .update(kycSessions)
      .set({ ...set, state: step.to })
      .where(eq(kycSessions.id, session.id));
  return step.to;
}

/**
 * A KYC verdict (decisions section 4): closes the session, kills its webview URLs and moves the
 * customer: APPROVED → COMPLETED/VALID (MONITORED after a screening close match), REJECTED →
 * REJECTED/BLOCKED, REMEDIATION_REQUIRED → REMEDIATION_REQUIRED/RESTRICTED. A status the table
 * does not allow to move (a customer blocked by screening meanwhile) keeps its status. An ENHANCED
 * session (step-up) approved moves the customer to tier 2 and changes nothing else.
 */
export async function completeKycSession(tx: Tx, input: { session: KycSessionRow; outcome: KycOutcome; now: Date }) {
  const { session, outcome, now } = input;
  const state = effectiveState(session, now);
  if (state === "EXPIRED") throw new DomainError("kyc.sessionExpired", { message: "The KYC session has expired. Start a new one." });
  const to = await moveKycSession(tx, { ...session, state }, "completed", { outcome, closedAt: now });
  await retireSessionTokens(tx, session.id, now);

  const customer = await lockCustomer(tx, session.customerId);
  // A step-up (ENHANCED) decides the tier only: a refusal leaves the completed KYC as it was.
  if (session.purpose === "ENHANCED") {
    if (outcome === "APPROVED") await changeCustomer(tx, customer, { tier: TOP_TIER }, now);
    return { kycSessionId: session.id, sessionState: to, outcome };
  }
  const effect = EFFECT[outcome];
  const triggers: CustomerTrigger[] = [];
  let status = customer.status;
  const apply = (t: CustomerTrigger) => {
    if (!customerStatusMachine.can(status, t)) return;
    status = customerStatusMachine.next(status, t).to;
    triggers.push(t);
  };
  apply(effect.trigger);
  if (outcome === "APPROVED" && customer.screeningResult === "CLOSE_MATCH") apply("screening.closeMatch");
  await changeCustomer(tx, customer, { triggers, kycStatus: effect.kycStatus }, now);
  return { kycSessionId: session.id, sessionState: to, outcome };
}
