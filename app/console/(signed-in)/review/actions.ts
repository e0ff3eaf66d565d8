"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { act, actedNotice } from "@/lib/dual-control/proposals";
import { notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/operators/audit";
import { reviewTransfer } from "@/lib/transfers/compliance";
import { lockTransfer } from "@/lib/transfers/records";

// Approve (→ validated) or reject (→ rejected) a transfer in onreview, with a reason. An approval
// at or above the dual-control threshold, or inside a screening case, is proposed for a second
// operator (lib/dual-control).
export const decideReview = consoleAction(
  "reviewer",
  z.object({ transferId: z.string().min(1), decision: z.enum(["APPROVE", "REJECT"]), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    if (input.decision === "APPROVE") {
      return actedNotice(await act(tx, "transfer.review.approve", { transferId: input.transferId }, { operator, reason: input.reason, now }));
    }
    const row = await lockTransfer(tx, input.transferId);
    if (!row) throw notFound("transfer"); // an error, not a success notice
    const after = await reviewTransfer(tx, row, input.decision, now);
    await recordAudit(
      tx,
      operator,
      {
        action: `transfer.review.${input.decision.toLowerCase()}`,
        targetType: "transfer",
        targetId: row.id,
        before: { state: row.state },
        after: { state: after.state },
        reason: input.reason,
      },
      now,
    );
    return `Transfer ${row.id} is now ${after.state}.`;
  },
);
