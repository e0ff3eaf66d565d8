"use server";

import { z } from "zod";
import { investigateErrorClaim, resolveClaim } from "@/lib/operations/commands/claims";
import { CLAIM_OUTCOMES } from "@/lib/payments/claims/state-machine";
import { consoleCommand } from "@/lib/operations/console/action";

// Take an open error claim into investigation.
export const startInvestigation = consoleCommand("reviewer", z.object({ claimId: z.string().min(1) }), (input) => ({
  command: investigateErrorClaim,
  input,
}));

// Resolve a claim: no error found, a refund of an amount, or the transfer sent again; the notice
// is what the customer is told, and the audit entry's reason.
export const resolve = consoleCommand(
  "reviewer",
  z
    .object({
      claimId: z.string().min(1),
      outcome: z.enum(CLAIM_OUTCOMES),
      amount: z.string().trim().max(40).optional(),
      notice: z.string().trim().min(3).max(2000),
    })
    .refine((v) => v.outcome !== "REFUND" || !!v.amount, { message: "a refund needs its amount", path: ["amount"] }),
  (input) => ({ command: resolveClaim, input, reason: input.notice }),
);
