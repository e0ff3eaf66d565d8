import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { lockTransfer, transitionTransfer } from "./records";
import { transferMachine, type TransferState } from "./state-machine";

/**
 * The 120-minute timer of spec 3.1: a transfer still in a pre-funding state when it fires expires.
 * Reads and writes also check the deadline (lib/transfers/deadline.ts), so a late job never leaves
 * a stale state visible.
 */
export const expireTransfer = defineJob({
  kind: "transfers.expire",
  schema: z.object({ transferId: z.string() }),
  run: async (tx, { payload, now }) => {
    const row = await lockTransfer(tx, payload.transferId);
    if (!row || row.expiresAt.getTime() > now.getTime()) return;
    if (!transferMachine.can(row.state as TransferState, "timeout")) return;
    await transitionTransfer(tx, row, "timeout", now);
  },
});
