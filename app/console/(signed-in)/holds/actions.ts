"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { act, actedNotice } from "@/lib/dual-control/proposals";
import { notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/operators/audit";
import { rejectHold } from "@/lib/screening-cases/blocked-money";
import { holdTransfer } from "@/lib/transfers/compliance";
import { lockTransfer } from "@/lib/transfers/records";

// Resolve a compliance hold: restore the prior state, or reject the transfer. A release at or
// above the dual-control threshold is proposed for a second operator. A hold a screening case owns
// is refused either way (issue 35): its money moves only through the case.
export const resolveHold = consoleAction(
  "reviewer",
  z.object({ transferId: z.string().min(1), resolution: z.enum(["RESTORE", "REJECT"]), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    if (input.resolution === "RESTORE") {
      return actedNotice(await act(tx, "transfer.hold.restore", { transferId: input.transferId }, { operator, reason: input.reason, now }));
    }
    const row = await lockTransfer(tx, input.transferId);
    if (!row) throw notFound("transfer"); // an error, not a success notice
    const after = await rejectHold(tx, row, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "transfer.hold.reject",
        targetType: "transfer",
        targetId: row.id,
        before: { state: row.state, priorState: row.priorState },
        after: { state: after.state },
        reason: input.reason,
      },
      now,
    );
    return `Transfer ${row.id} is now ${after.state}.`;
  },
);

// Put a transfer on compliance hold (from the customer page).
export const placeHold = consoleAction(
  "admin",
  z.object({ transferId: z.string().min(1), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    const row = await lockTransfer(tx, input.transferId);
    if (!row) throw notFound("transfer"); // an error, not a success notice
    const after = await holdTransfer(tx, row, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "transfer.hold",
        targetType: "transfer",
        targetId: row.id,
        before: { state: row.state },
        after: { state: after.state, priorState: after.priorState },
        reason: input.reason,
      },
      now,
    );
    return `Transfer ${row.id} is on hold (was ${row.state}).`;
  },
);
