import { z } from "zod";
import { defineJob } from "@/lib/platform/jobs/define";
import { expireIfOverdue } from "./deadline";
import { lockTransfer } from "./records";

/**
 * The 120-minute timer of spec 3.1: a transfer still in a pre-funding state when it fires expires.
 * Reads and writes also check the deadline (./deadline.ts), so a late job never leaves
 * a stale state visible.
 */
export const expireTransfer = defineJob({
  kind: "transfers.expire",
  schema: z.object({ transferId: z.string() }),
  run: async (tx, { payload, now }) => {
    const row = await lockTransfer(tx, payload.transferId);
    if (row) await expireIfOverdue(tx, row, now);
  },
});
