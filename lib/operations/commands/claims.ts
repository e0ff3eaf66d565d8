/**
 * Commands on a customer's error claim: taken into investigation, resolved.
 */
import { z } from "zod";
import { investigateClaim, resolveClaim as resolve, CLAIM_OUTCOMES } from "@/lib/payments";
import { command } from "./command";

export const investigateErrorClaim = command({
  name: "claim.investigate",
  role: "reviewer",
  input: z.object({ claimId: z.string().min(1) }),
  run: async ({ tx, now }, p) => {
    const claim = await investigateClaim(tx, { claimId: p.claimId, now });
    return {
      targetType: "claim",
      targetId: claim.id,
      before: { status: "OPEN" },
      after: { status: claim.state },
      notice: `Claim ${claim.id} is being investigated.`,
    };
  },
});

/**
 * A claim resolved: no error found, a refund of an amount, or the transfer sent again; the notice
 * is what the customer is told (the claim's resolutionNotice, in the API and the event).
 */
export const resolveClaim = command({
  name: "claim.resolve",
  role: "reviewer",
  input: z.object({ claimId: z.string().min(1), outcome: z.enum(CLAIM_OUTCOMES), amount: z.string().optional(), notice: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const claim = await resolve(tx, { ...p, amount: p.outcome === "REFUND" ? p.amount : undefined, operatorEmail: operator.email, now });
    return {
      action: `claim.resolve.${p.outcome.toLowerCase()}`,
      targetType: "claim",
      targetId: claim.id,
      after: { status: claim.state, outcome: claim.outcome, amount: claim.resolutionAmount, currency: claim.resolutionCurrency },
      notice: `Claim ${claim.id} resolved: ${claim.outcome}.`,
    };
  },
});
