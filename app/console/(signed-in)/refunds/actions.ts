"use server";

import { z } from "zod";
import { generateRefundFiles } from "@/lib/operations/commands/payouts";
import { recordRefundOutcome, recordRefundPaid } from "@/lib/operations/commands/transfers";
import { consoleCommand } from "@/lib/operations/console/action";

// Record a refund paid from the bank (with its reference), failed (with the reason), or put a
// failed one back in the queue. COMPLETED posts the refund's payment to the ledger; recording it
// paid is under dual control.
export const recordRefund = consoleCommand(
  "admin",
  z
    .object({
      transferId: z.string().min(1),
      // A claim refund of the transfer (lib/payments/claims/claim-refunds.ts): recorded paid only.
      claimRefundId: z.string().min(1).optional(),
      outcome: z.enum(["PAID", "FAILED", "RETRY"]),
      bankReference: z.string().trim().max(140).optional(),
      reason: z.string().trim().min(3).max(500),
    })
    .refine((v) => v.outcome !== "PAID" || !!v.bankReference, { message: "a paid refund needs the bank's reference", path: ["bankReference"] })
    .refine((v) => !v.claimRefundId || v.outcome === "PAID", { message: "a claim refund is only recorded paid", path: ["outcome"] }),
  ({ transferId, claimRefundId, outcome, bankReference, reason }) =>
    outcome === "PAID"
      ? { command: recordRefundPaid, input: { transferId, bankReference, ...(claimRefundId ? { claimRefundId } : {}) }, reason }
      : { command: recordRefundOutcome, input: { transferId, outcome, failureReason: reason }, reason },
);

// Refunds of transfers funded by bank transfer, to the payer's account: one pain.001 refund file
// per currency, downloaded from the page and sent to the collection account's bank.
export const makeRefundFiles = consoleCommand("admin", z.object({}), () => ({ command: generateRefundFiles, input: {} }));
