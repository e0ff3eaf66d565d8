"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { act, actedNotice } from "@/lib/dual-control/proposals";
import { notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/operators/audit";
import { generateRefundFiles } from "@/lib/payouts/refund-file";
import { lockTransfer } from "@/lib/transfers/records";
import { lockRefund, moveRefund } from "@/lib/transfers/refunds";

const OUTCOME = { FAILED: "operator.failed", RETRY: "operator.retry" } as const;

// Record a refund paid from the bank (with its reference), failed (with the reason), or put a
// failed one back in the queue. COMPLETED posts the refund's payment to the ledger; recording it
// paid is under dual control (lib/dual-control).
export const recordRefund = consoleAction(
  "admin",
  z
    .object({
      transferId: z.string().min(1),
      // A claim refund of the transfer (lib/claims/claim-refunds.ts): recorded paid only.
      claimRefundId: z.string().min(1).optional(),
      outcome: z.enum(["PAID", "FAILED", "RETRY"]),
      bankReference: z.string().trim().max(140).optional(),
      reason: z.string().trim().min(3).max(500),
    })
    .refine((v) => v.outcome !== "PAID" || !!v.bankReference, { message: "a paid refund needs the bank's reference", path: ["bankReference"] })
    .refine((v) => !v.claimRefundId || v.outcome === "PAID", { message: "a claim refund is only recorded paid", path: ["outcome"] }),
  async ({ tx, input, operator, now }) => {
    if (input.outcome === "PAID") {
      const paid = { transferId: input.transferId, bankReference: input.bankReference, ...(input.claimRefundId ? { claimRefundId: input.claimRefundId } : {}) };
      return actedNotice(await act(tx, "transfer.refund.paid", paid, { operator, reason: input.reason, now }));
    }
    const row = await lockTransfer(tx, input.transferId);
    if (!row) throw notFound("transfer");
    const before = await lockRefund(tx, row.id);
    const details = input.outcome === "FAILED" ? { failureReason: input.reason } : {};
    const after = await moveRefund(tx, row, OUTCOME[input.outcome], now, details);
    await recordAudit(
      tx,
      operator,
      {
        action: `transfer.refund.${input.outcome.toLowerCase()}`,
        targetType: "transfer",
        targetId: row.id,
        before: { refundStatus: before?.state ?? null },
        after: { refundStatus: after.state, ...details },
        reason: input.reason,
      },
      now,
    );
    return `Refund of ${row.id} is now ${after.state}.`;
  },
);

// Refunds of transfers funded by bank transfer, to the payer's account (issue 36 item 3): one
// pain.001 refund file per currency, downloaded from the page and sent to the collection
// account's bank; each refund in it is PROCESSING until recorded paid.
export const makeRefundFiles = consoleAction("admin", z.object({}), async ({ tx, operator, now }) => {
  const files = await generateRefundFiles(tx, { now });
  if (files.length === 0) return "No refund to put in a file: none pending of a transfer paid by bank transfer with the payer's account known.";
  for (const f of files) {
    await recordAudit(
      tx,
      operator,
      {
        action: "refund.fileGenerated",
        targetType: "refundFile",
        targetId: f.id,
        before: null,
        after: { currency: f.currency, transactionCount: f.transactionCount, controlSum: f.controlSum, transferIds: f.transferIds },
        reason: "Refund file generated",
      },
      now,
    );
  }
  return files.map((f) => `Refund file ${f.id}: ${f.transactionCount} refund(s), ${f.controlSum} ${f.currency}.`).join(" ");
});
