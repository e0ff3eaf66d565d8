"use server";

import { z } from "zod";
import { decideBeneficiary as decide } from "@/lib/operations/commands/customers";
import { consoleCommand } from "@/lib/operations/console/action";

// Decide a beneficiary's screening: VALID, MONITORED or BLOCKED (the only way out of BLOCKED).
// `expected` is the state the operator saw: a decision made meanwhile makes this one stale
// (shown as "Already decided by someone else (now …)").
export const decideBeneficiary = consoleCommand(
  "reviewer",
  z.object({
    beneficiaryId: z.string().min(1),
    decision: z.enum(["VALID", "MONITORED", "BLOCKED"]),
    reason: z.string().trim().min(3).max(500),
    expected: z.string(),
  }),
  ({ reason, ...input }) => ({ command: decide, input, reason }),
);
