import { z } from "zod";
import { defineContract } from "@/lib/http/contract";

/** Sandbox file rails for payouts (issue 12 item 5): pain.001 out, pain.002 in. */
const tags = ["Sandbox"];

export const sandboxPayoutFiles = defineContract({
  operationId: "sandboxGeneratePayoutFiles",
  method: "POST",
  path: "/v1/sandbox/payout-files",
  summary: "Generate now the pain.001 of this partner's transfers ready for payout (sandbox only)",
  description:
    "Puts every transfer of the calling partner that is funded and not yet handed to a network into ISO 20022 pain.001.001.03 credit-transfer files (one payment information block per payout bank and currency) and answers them as one document. Each CdtTrfTxInf's EndToEndId is the transfer's transferId; the transfers move to topay (in flight). No transfer ready: 409 transfer.stateInvalid.",
  tags,
  auth: "partner",
  sandboxOnly: true,
  successMediaType: "application/xml",
  success: {
    status: 200,
    description: "The pain.001.001.03 document (Document/CstmrCdtTrfInitn).",
    schema: z.string().meta({ id: "Pain001Document", description: "XML text" }),
  },
  errors: ["auth.subscriptionKeyInvalid", "transfer.stateInvalid", "route.notFound"],
});

export const sandboxPaymentStatusReports = defineContract({
  operationId: "sandboxImportPaymentStatusReport",
  method: "POST",
  path: "/v1/sandbox/payment-status-reports",
  summary: "Import a pain.002 payment status report, as an operator's upload (sandbox only)",
  description:
    "Each TxInfAndSts is matched by OrgnlEndToEndId (a transferId of this partner in a payout file): ACSC/ACCC moves the transfer to paid; ACCP/ACTC/ACSP/ACWC/PDNG/RCVD to reqpay (in progress); RJCT to rejected with StsRsnInf/Rsn/Cd mapped to our reason, and its refund starts. Idempotent on OrgnlEndToEndId and status: a status already imported is a duplicate and changes nothing.",
  tags,
  auth: "partner",
  sandboxOnly: true,
  bodyMediaType: "application/xml",
  body: z.string().meta({ id: "Pain002Document", description: "A pain.002 document (Document/CstmrPmtStsRpt), XML text" }),
  success: {
    status: 200,
    description: "What the report did.",
    schema: z
      .object({
        transactions: z.number().int(),
        applied: z.number().int(),
        unmatched: z.number().int(),
        duplicates: z.number().int(),
      })
      .meta({ id: "PaymentStatusImport" }),
  },
  errors: ["auth.subscriptionKeyInvalid", "validation.bodyMalformed", "validation.fieldInvalid", "route.notFound"],
});
