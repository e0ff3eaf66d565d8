"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/operations/console/action";
import { decideKycReview } from "@/lib/identity/kyc/review";

const LABEL = { APPROVE: "approved", CORRECTION: "sent back for correction", REFUSE: "refused" } as const;

// Approve, ask for a correction (the reason is shown to the customer on the next capture) or refuse.
export const decideKyc = consoleAction(
  "reviewer",
  z.object({ kycSessionId: z.string().min(1), decision: z.enum(["APPROVE", "CORRECTION", "REFUSE"]), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    const done = await decideKycReview(tx, operator, input, now);
    return `KYC session ${done.kycSessionId} ${LABEL[input.decision]}: customer ${done.customerStatus}, KYC ${done.kycStatus}.`;
  },
);
