import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { EX } from "../examples/ids";
import { Timestamp } from "../schemas";

/**
 * Sandbox file rails: bank transfer funding and camt.053 statements, so a
 * partner can script a payment by bank transfer end to end. Sandbox only (404 in production).
 */
const tags = ["Sandbox"];

/** One booked credit with the session's RF reference: what a partner's script sends. */
const STATEMENT_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>STMT-20261120</MsgId><CreDtTm>2026-11-20T18:00:00Z</CreDtTm></GrpHdr>
    <Stmt>
      <Id>STMT-20261120-1</Id>
      <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="USD">102.99</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-20</Dt></Dt></Bal>
      <Ntry>
        <Amt Ccy="USD">102.99</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-20</Dt></BookgDt>
        <AcctSvcrRef>BANK-2026112000001</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls><RmtInf><Strd><CdtrRefInf><Ref>RF18539007547034</Ref></CdtrRefInf></Strd></RmtInf></TxDtls></NtryDtls>
      </Ntry>
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;

export const sandboxChooseBankTransfer = defineContract({
  operationId: "sandboxChooseBankTransfer",
  method: "POST",
  path: "/v1/sandbox/funding-sessions/{fundingSessionId}/bank-transfer",
  summary: "Choose bank transfer for a funding session, as on the funding page (sandbox only)",
  description:
    "The customer chooses bank transfer: the answer names the session's ISO 11649 creditor reference (RF + check digits; the same on every call) and the exact sum to send to the collection account. The transfer stays in funding until a statement shows the money (POST /v1/sandbox/bank-statements).",
  tags,
  auth: "customer",
  sandboxOnly: true,
  idempotency: "optional",
  params: z.object({ fundingSessionId: z.string().min(1).max(64).meta({ description: "The funding session, from confirm.", example: EX.fundingSessionId }) }),
  success: {
    status: 200,
    description: "What to pay, where, with which reference.",
    schema: z
      .object({
        reference: z.string().meta({ description: "ISO 11649 structured creditor reference, electronic form.", example: "RF18539007547034" }),
        amount: z.string().meta({ description: "The exact sum due, in the currency's minor units.", example: "102.99" }),
        currency: z.string().meta({ example: "EUR" }),
        collectionAccount: z.object({ iban: z.string(), bic: z.string(), name: z.string() }).meta({ id: "CollectionAccount" }),
        payBy: Timestamp.meta({
          description:
            "The deadline: the end of the bank-transfer window (the business days of the collection account's calendar that the configuration version in force sets, else BANK_TRANSFER_FUNDING_BUSINESS_DAYS), which the transfer's expiry follows. A credit imported after it does not fund the transfer.",
        }),
      })
      .meta({ id: "SandboxBankTransferInstructions" }),
  },
  examples: {
    response: {
      reference: "RF18539007547034",
      amount: "102.99",
      currency: "USD",
      collectionAccount: { iban: "DE89370400440532013000", bic: "COBADEFFXXX", name: "Remit Sandbox Collections" },
      payBy: "2026-11-24T00:00:00.000Z",
    },
  },
  errors: ["fundingSession.notFound", "funding.sessionExpired", "funding.methodUnavailable"],
});

export const sandboxImportBankStatement = defineContract({
  operationId: "sandboxImportBankStatement",
  method: "POST",
  path: "/v1/sandbox/bank-statements",
  summary: "Import a camt.053 bank statement, as an operator's upload (sandbox only)",
  description:
    "A camt.053.001.08 document (ISO 20022 BankToCustomerStatement). Every booked credit entry is imported once per AcctSvcrRef (again: a duplicate, nothing changes) and matched by its RF reference (RmtInf/Strd/CdtrRefInf/Ref, else one found in RmtInf/Ustrd), then amount and currency: a full match funds its transfer; anything else waits in the operator's Bank credits queue. A document that is not a valid camt.053.001.08 is 400 validation.bodyMalformed with the schema's problems in details.problems. In the sandbox, entry references are scoped to the calling partner and only its transfers are matched.",
  tags,
  auth: "partner",
  sandboxOnly: true,
  idempotency: "optional",
  bodyMediaType: "application/xml",
  body: z.string().meta({ id: "Camt053Document", description: "A camt.053.001.08 document (Document/BkToCstmrStmt), XML text, UTF-8." }),
  success: {
    status: 200,
    description: "Counts of credit entries.",
    schema: z
      .object({
        entries: z.number().int().meta({ description: "Booked credit entries in the document." }),
        matched: z.number().int().meta({ description: "Credits that funded their transfer." }),
        unmatched: z.number().int().meta({ description: "Credits sent to the operator queue (unmatched, partial, over-paid, wrong currency, late)." }),
        duplicates: z.number().int().meta({ description: "Credits already imported (same AcctSvcrRef): unchanged." }),
      })
      .meta({ id: "SandboxBankStatementImport" }),
  },
  examples: { request: STATEMENT_EXAMPLE, response: { entries: 1, matched: 1, unmatched: 0, duplicates: 0 } },
  errors: ["validation.bodyMalformed"],
});
