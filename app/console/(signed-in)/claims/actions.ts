"use server";

import { z } from "zod";
import { investigateClaim, resolveClaim } from "@/lib/claims/claims";
import { CLAIM_OUTCOMES } from "@/lib/claims/state-machine";
import { consoleAction } from "@/lib/console/action";
import { recordAudit } from "@/lib/operators/audit";

// Take an open error claim into investigation.
export const startInvestigation = consoleAction("reviewer", z.object({ claimId: z.string().min(1) }), async ({ tx, input, operator, now }) => {
  const claim = await investigateClaim(tx, { claimId: input.claimId, now });
  await recordAudit(
    tx,
    operator,
    { action: "claim.investigate", targetType: "claim", targetId: claim.id, before: { status: "OPEN" }, after: { status: claim.state } },
    now,
  );
  return `Claim ${claim.id} is being investigated.`;
});

// Resolve a claim: no error found, a refund of an amount, or the transfer sent again; the notice
// is what the customer is told (the claim's resolutionNotice, in the API and the event).
export const resolve = consoleAction(
  "reviewer",
  z
    .object({
      claimId: z.string().min(1),
      outcome: z.enum(CLAIM_OUTCOMES),
      amount: z.string().trim().max(40).optional(),
      notice: z.string().trim().min(3).max(2000),
    })
    .refine((v) => v.outcome !== "REFUND" || !!v.amount, { message: "a refund needs its amount", path: ["amount"] }),
  async ({ tx, input, operator, now }) => {
    const claim = await resolveClaim(tx, { ...input, amount: input.outcome === "REFUND" ? input.amount : undefined, operatorEmail: operator.email, now });
    await recordAudit(
      tx,
      operator,
      {
        action: `claim.resolve.${input.outcome.toLowerCase()}`,
        targetType: "claim",
        targetId: claim.id,
        after: { status: claim.state, outcome: claim.outcome, amount: claim.resolutionAmount, currency: claim.resolutionCurrency },
        reason: input.notice,
      },
      now,
    );
    return `Claim ${claim.id} resolved: ${claim.outcome}.`;
  },
);
