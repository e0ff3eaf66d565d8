import { z } from "zod";
import { defineJob } from "@/lib/platform/jobs/define";
import { lockFundingSession } from "./funding";
import { expireOpenFundingSessions } from "./funding-session-expiry";
import { transitionTransfer } from "./records";

/**
 * A funding session's 30 minutes are over: the session expires and, if the transfer still awaits
 * funding, it returns to validated so a new confirm can open a new session (spec 4.1 rule 11).
 */
export const expireFundingSession = defineJob({
  kind: "funding.expire",
  schema: z.object({ fundingSessionId: z.string() }),
  run: async (tx, { payload, now }) => {
    const locked = await lockFundingSession(tx, payload.fundingSessionId);
    if (!locked || locked.session.state !== "OPEN" || locked.session.expiresAt.getTime() > now.getTime()) return;
    const { transfer } = locked;
    await expireOpenFundingSessions(tx, transfer.id, now);
    if (transfer.state === "funding") await transitionTransfer(tx, transfer, "funding.expired", now);
  },
});
