"use server";

import { z } from "zod";
import { approveReview, rejectReview } from "@/lib/operations/commands/transfers";
import { consoleCommand } from "@/lib/operations/console/action";

// Approve (→ validated) or reject (→ rejected) a transfer in onreview, with a reason. An approval
// at or above the dual-control threshold, or inside a screening case, is proposed for a second
// operator (the command says when).
export const decideReview = consoleCommand(
  "reviewer",
  z.object({ transferId: z.string().min(1), decision: z.enum(["APPROVE", "REJECT"]), reason: z.string().trim().min(3).max(500) }),
  ({ transferId, decision, reason }) => ({ command: decision === "APPROVE" ? approveReview : rejectReview, input: { transferId }, reason }),
);
