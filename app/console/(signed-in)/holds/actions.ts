"use server";

import { z } from "zod";
import { placeHold as hold, rejectHold, releaseHold } from "@/lib/operations/commands/transfers";
import { consoleCommand } from "@/lib/operations/console/action";

const reason = z.string().trim().min(3).max(500);

// Resolve a compliance hold: restore the prior state (releaseHold: at or above the dual-control
// threshold, a second operator approves it), or reject the transfer (rejectHold). A hold a
// screening case owns is refused either way: its money moves only through the case.
export const resolveHold = consoleCommand(
  "reviewer",
  z.object({ transferId: z.string().min(1), resolution: z.enum(["RESTORE", "REJECT"]), reason }),
  ({ transferId, resolution, reason }) => ({ command: resolution === "RESTORE" ? releaseHold : rejectHold, input: { transferId }, reason }),
);

// Put a transfer on compliance hold (from the customer page).
export const placeHold = consoleCommand("admin", z.object({ transferId: z.string().min(1), reason }), ({ transferId, reason }) => ({
  command: hold,
  input: { transferId },
  reason,
}));
