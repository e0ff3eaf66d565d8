"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { act, actedNotice } from "@/lib/dual-control/proposals";
import { notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/operators/audit";
import { refundRejectedPayout } from "@/lib/payouts/attempts";
import { generatePayoutFiles } from "@/lib/payouts/generate";
import { stageOperatorRepair } from "@/lib/payouts/repair";
import { importPaymentStatusReport, statusImportSummary } from "@/lib/payouts/status-import";
import { resolveNetworkCancellation } from "@/lib/transfers/network";
import { lockTransfer } from "@/lib/transfers/records";

// Generate now what the periodic job would: every transfer ready for payout into files.
export const generateNowAction = consoleAction("admin", z.object({}), async ({ tx, operator, now }) => {
  const files = await generatePayoutFiles(tx, { now });
  for (const f of files) {
    await recordAudit(
      tx,
      operator,
      {
        action: "payoutFile.generate",
        targetType: "payoutFile",
        targetId: f.id,
        after: { bankId: f.bank.id, currency: f.currency, transactions: f.transactionCount, controlSum: f.controlSum },
      },
      now,
    );
  }
  return files.length === 0
    ? "No transfer is ready for payout."
    : `Generated ${files.length} file(s): ${files.map((f) => `${f.bank.name} ${f.currency} ×${f.transactionCount}`).join(", ")}.`;
});

// Console forms carry 1 MiB at most (next.config.mjs); a larger report goes through the CLI.
const MAX_REPORT_BYTES = 900 * 1024;

// Upload a pain.002 status report from a payout bank; read before the transaction opens.
export const importStatusReportAction = consoleAction(
  "admin",
  z.object({
    report: z
      .instanceof(File)
      .refine((f) => f.size > 0 && f.size <= MAX_REPORT_BYTES, "a pain.002 file of at most 900 KB (larger: npm run payment-status:import)"),
  }),
  {
    prepare: (input) => input.report.text(),
    run: async ({ tx, input, prepared, operator, now }) => {
      const counts = await importPaymentStatusReport(tx, { xml: prepared, now });
      await recordAudit(
        tx,
        operator,
        { action: "paymentStatusReport.import", targetType: "paymentStatusReport", targetId: input.report.name, after: { ...counts } },
        now,
      );
      // The notice travels in the page's URL: at most 10 unmatched lines, each with its reason.
      return statusImportSummary(input.report.name, counts, 10);
    },
  },
);

// The bank's answer to a customer's cancellation of a transfer already in a file (recall outcome).
export const resolveCancellationAction = consoleAction(
  "admin",
  z.object({
    transferId: z.string().min(1),
    outcome: z.enum(["NETWORK_CANCELLATION_SUCCESS", "NETWORK_ALREADY_PAID", "NETWORK_IN_PROGRESS_RETRY_ALLOWED"]),
    reason: z.string().trim().min(3).max(500),
  }),
  async ({ tx, input, operator, now }) => {
    const row = await lockTransfer(tx, input.transferId);
    if (!row) throw notFound("transfer");
    const after = await resolveNetworkCancellation(tx, row, input.outcome, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "transfer.networkCancellation.resolve",
        targetType: "transfer",
        targetId: row.id,
        before: { state: row.state, cancellationOutcome: "NETWORK_CANCELLATION_PENDING" },
        after: { state: after.state, cancellationOutcome: input.outcome },
        reason: input.reason,
      },
      now,
    );
    return `Transfer ${row.id}: ${input.outcome} (now ${after.state}).`;
  },
);

// A payout the bank rejected for its account (issue 24 item 8): the operator records the new
// destination the beneficiary gave (the checks submit runs); a second operator approves the
// repair (dual control, transfer.payout.repair), then it goes into the next file.
export const repairPayoutAction = consoleAction(
  "admin",
  z.object({
    transferId: z.string().min(1),
    methodType: z.string().min(1).max(40),
    destinationIdentifier: z.string().trim().min(1).max(64),
    reason: z.string().trim().min(3).max(500),
  }),
  async ({ tx, input, operator, now }) => {
    const method = await stageOperatorRepair(tx, {
      transferId: input.transferId,
      payoutMethod: { methodType: input.methodType, destinationIdentifier: input.destinationIdentifier },
      now,
    });
    return actedNotice(
      await act(tx, "transfer.payout.repair", { transferId: input.transferId, payoutMethodId: method.id }, { operator, reason: input.reason, now }),
    );
  },
);

// Or the operator gives up on the payout: the transfer is rejected with the bank's reason and refunded.
export const refundRejectedPayoutAction = consoleAction(
  "admin",
  z.object({ transferId: z.string().min(1), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    const row = await lockTransfer(tx, input.transferId);
    if (!row) throw notFound("transfer");
    const after = await refundRejectedPayout(tx, row, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "transfer.payout.refund",
        targetType: "transfer",
        targetId: row.id,
        before: { state: row.state },
        after: { state: after.state, rejectionReason: after.rejectionReason },
        reason: input.reason,
      },
      now,
    );
    return `Transfer ${row.id}: rejected, refund owed.`;
  },
);
