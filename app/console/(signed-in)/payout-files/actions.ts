"use server";

import { z } from "zod";
import {
  generatePayoutFiles,
  importPaymentStatusReport,
  refundRejectedPayout,
  refundReturnedPayout,
  resolveNetworkCancellation,
} from "@/lib/operations/commands/payouts";
import { repairPayout } from "@/lib/operations/commands/transfers";
import { consoleCommand } from "@/lib/operations/console/action";

const reason = z.string().trim().min(3).max(500);

// Generate now what the periodic job would: every transfer ready for payout into files.
export const generateNowAction = consoleCommand("admin", z.object({}), () => ({ command: generatePayoutFiles, input: {} }));

// Console forms carry 1 MiB at most (next.config.mjs); a larger report goes through the CLI.
const MAX_REPORT_BYTES = 900 * 1024;

// Upload a pain.002 status report from a payout bank; read before the transaction opens.
export const importStatusReportAction = consoleCommand(
  "admin",
  z.object({
    report: z
      .instanceof(File)
      .refine((f) => f.size > 0 && f.size <= MAX_REPORT_BYTES, "a pain.002 file of at most 900 KB (larger: npm run payment-status:import)"),
  }),
  { prepare: (form) => form.report.text(), ask: (form, xml) => ({ command: importPaymentStatusReport, input: { name: form.report.name, xml } }) },
);

// The bank's answer to a customer's cancellation of a transfer already in a file (recall outcome).
export const resolveCancellationAction = consoleCommand(
  "admin",
  z.object({
    transferId: z.string().min(1),
    outcome: z.enum(["NETWORK_CANCELLATION_SUCCESS", "NETWORK_ALREADY_PAID", "NETWORK_IN_PROGRESS_RETRY_ALLOWED"]),
    reason,
  }),
  ({ reason, ...input }) => ({ command: resolveNetworkCancellation, input, reason }),
);

// A payout the bank rejected for its account: the operator records the new
// destination the beneficiary gave (the checks submit runs); a second operator approves the
// repair (dual control, transfer.payout.repair), then it goes into the next file.
export const repairPayoutAction = consoleCommand(
  "admin",
  z.object({
    transferId: z.string().min(1),
    methodType: z.string().min(1).max(40),
    destinationIdentifier: z.string().trim().min(1).max(64),
    reason,
  }),
  ({ reason, ...input }) => ({ command: repairPayout, input, reason }),
);

// Or the operator gives up on the payout: the transfer is rejected with the bank's reason and refunded.
export const refundRejectedPayoutAction = consoleCommand("admin", z.object({ transferId: z.string().min(1), reason }), ({ transferId, reason }) => ({
  command: refundRejectedPayout,
  input: { transferId },
  reason,
}));

// A paid payout the beneficiary's bank returned to its provider: the customer is refunded from the returned money.
export const refundReturnedPayoutAction = consoleCommand("admin", z.object({ transferId: z.string().min(1), reason }), ({ transferId, reason }) => ({
  command: refundReturnedPayout,
  input: { transferId },
  reason,
}));
