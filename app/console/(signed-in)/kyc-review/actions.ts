"use server";

import { z } from "zod";
import { decideKycSession } from "@/lib/operations/commands/customers";
import { consoleCommand } from "@/lib/operations/console/action";

// Approve, ask for a correction (the reason is shown to the customer on the next capture) or refuse.
export const decideKyc = consoleCommand(
  "reviewer",
  z.object({ kycSessionId: z.string().min(1), decision: z.enum(["APPROVE", "CORRECTION", "REFUSE"]), reason: z.string().trim().min(3).max(500) }),
  (input) => ({ command: decideKycSession, input, reason: input.reason }),
);
