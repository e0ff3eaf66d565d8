import { z } from "zod";
import { SANDBOX_PAYOUT_BANKS } from "@/lib/platform/config/payout-banks";
import { defineContract } from "@/lib/interface/http/contract";
import { buildPain001 } from "@/lib/payments";
import { EX } from "../examples/ids";

/** Sandbox file rails for payouts: pain.001 out, pain.002 in. */
const tags = ["Sandbox"];

/** The example transfer in a file, built by the same builder as real files (so it stays XSD-valid). */
const PAYOUT_FILE_EXAMPLE = buildPain001({
  messageId: "POF-20261121-0001",
  createdAt: new Date(EX.at(7)),
  initiatingParty: "Remit Sandbox Ltd",
  payments: [
    {
      id: "POF-20261121-0001-MXN",
      bank: SANDBOX_PAYOUT_BANKS[0],
      currency: "MXN",
      executionDate: "2026-11-21",
      transfers: [
        {
          endToEndId: EX.transferId,
          amount: "1875.00",
          creditorName: "Lucía Hernández",
          creditorCountry: "MX",
          creditorAccount: { other: "002010077777777771", scheme: "CLABE" },
        },
      ],
    },
  ],
});

/** The bank's answer to that file: the transfer settled (ACSC). */
const STATUS_REPORT_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>STS-20261121-0001</MsgId><CreDtTm>2026-11-21T10:11:00</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts><OrgnlMsgId>POF-20261121-0001</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId></OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>POF-20261121-0001-MXN</OrgnlPmtInfId>
      <TxInfAndSts>
        <StsId>${EX.transferId}-ACSC</StsId>
        <OrgnlEndToEndId>${EX.transferId}</OrgnlEndToEndId>
        <TxSts>ACSC</TxSts>
      </TxInfAndSts>
    </OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>
`;

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
  idempotency: "optional",
  successMediaType: "application/xml",
  success: {
    status: 200,
    description: "The pain.001.001.03 document (Document/CstmrCdtTrfInitn).",
    schema: z.string().meta({ id: "Pain001Document", description: "XML text" }),
  },
  examples: { response: PAYOUT_FILE_EXAMPLE },
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
  idempotency: "optional",
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
        unmatchedLines: z
          .array(
            z.object({
              endToEndId: z.string(),
              status: z.string(),
              reason: z.enum(["NO_SUCH_TRANSFER", "UNKNOWN_STATUS", "STATE_REFUSES", "STALE_ATTEMPT"]),
              message: z.string(),
            }),
          )
          .meta({
            description:
              "Each unmatched TxInfAndSts: its OrgnlEndToEndId and TxSts, and why it was not applied (nothing recorded: a later report can apply it).",
          }),
      })
      .meta({ id: "PaymentStatusImport" }),
  },
  examples: { request: STATUS_REPORT_EXAMPLE, response: { transactions: 1, applied: 1, unmatched: 0, duplicates: 0, unmatchedLines: [] } },
  errors: ["auth.subscriptionKeyInvalid", "validation.bodyMalformed", "validation.fieldInvalid", "route.notFound"],
});
