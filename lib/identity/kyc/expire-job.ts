import { z } from "zod";
import { defineJob } from "@/lib/platform/jobs/define";
import { retireSessionTokens } from "@/lib/platform/webviews/tokens";
import { lockKycSession, moveKycSession } from "./outcome";
import { kycSessionMachine } from "./session-state-machine";

/** Closes a KYC session at the end of its 24 hours (reads already treat it as expired). */
export const expireKycSession = defineJob({
  kind: "kyc.expireSession",
  schema: z.object({ kycSessionId: z.string() }),
  run: async (tx, { payload, now }) => {
    const session = await lockKycSession(tx, payload.kycSessionId);
    if (!session || !kycSessionMachine.can(session.state, "expired")) return;
    if (session.expiresAt.getTime() > now.getTime()) return;
    if (session.submittedAt) return; // waiting for an operator's decision (effectiveState)
    await moveKycSession(tx, session, "expired", { closedAt: now });
    await retireSessionTokens(tx, session.id, now);
  },
});
