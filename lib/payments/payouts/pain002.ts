import { z } from "zod";
import { validationError } from "@/lib/platform/errors";
import { readXml } from "@/lib/platform/xml/read";

/**
 * pain.002 (CustomerPaymentStatusReport), the payout bank's answer per transaction. No schema
 * ships for it (data/iso20022/README.md): the parts we read are checked with zod on the parsed
 * document, any pain.002.001.xx version. Read by lib/platform/xml/read.ts, as camt.053 is: no DOCTYPE,
 * at most 100 levels deep, text stays text, entities off; any of these is 400 bodyMalformed.
 */
const ARRAYS = ["OrgnlPmtInfAndSts", "TxInfAndSts", "StsRsnInf", "AddtlInf"];

const code = z.string().regex(/^[A-Z0-9]{4}$/, "a four-character ISO code");
const reasonSchema = z.object({ Rsn: z.object({ Cd: code.optional(), Prtry: z.string().optional() }).optional(), AddtlInf: z.array(z.string()).optional() });
const transactionSchema = z.object({
  OrgnlInstrId: z.string().min(1).max(35).optional(),
  OrgnlEndToEndId: z.string().min(1).max(35),
  TxSts: code,
  StsRsnInf: z.array(reasonSchema).optional(),
});
const reportSchema = z.object({
  Document: z.object({
    CstmrPmtStsRpt: z.object({
      GrpHdr: z.object({ MsgId: z.string().min(1).max(35) }),
      OrgnlGrpInfAndSts: z.object({
        OrgnlMsgId: z.string().min(1),
        OrgnlMsgNmId: z.string().min(1),
        GrpSts: code.optional(),
        StsRsnInf: z.array(reasonSchema).optional(),
      }),
      OrgnlPmtInfAndSts: z
        .array(
          z.object({
            OrgnlPmtInfId: z.string().min(1).optional(),
            PmtInfSts: code.optional(),
            StsRsnInf: z.array(reasonSchema).optional(),
            TxInfAndSts: z.array(transactionSchema).optional(),
          }),
        )
        .optional(),
    }),
  }),
});

type Reasons = z.infer<typeof reasonSchema>[] | undefined;
const firstReason = (r: Reasons) => r?.[0]?.Rsn?.Cd ?? r?.[0]?.Rsn?.Prtry ?? null;

export interface TransactionStatus {
  endToEndId: string;
  status: string;
  /** StsRsnInf/Rsn/Cd (or Prtry) of the first reason, when given. */
  reasonCode: string | null;
  /** Set on a line a file's rejection stands for: the attempt that file carried. */
  attempt?: number;
  /** OrgnlInstrId when the bank echoes it: `<EndToEndId>/<attempt>` on a resend (pain001.ts). */
  instructionId?: string;
  /** The payout file the line answers: its block's OrgnlPmtInfId, else the group's OrgnlMsgId. */
  payoutFileId?: string;
}

/**
 * A status for a whole file or payment block (GrpSts, PmtInfSts): a rejection
 * there rejects every transaction of it that the report does not list on its own.
 */
export interface BlockStatus {
  /** OrgnlMsgId (the group) or OrgnlPmtInfId (a block): our payout file's id either way. */
  payoutFileId: string;
  status: string;
  reasonCode: string | null;
}

export interface PaymentStatusReport {
  messageId: string;
  originalMessageId: string;
  transactions: TransactionStatus[];
  blocks: BlockStatus[];
}

const documentInvalid = (field: string, message: string) =>
  validationError([{ field, code: "validation.fieldInvalid", message }], "validation.fieldInvalid", "The document is not a pain.002 payment status report.");

export function parsePain002(xml: string): PaymentStatusReport {
  const parsed = reportSchema.safeParse(readXml(xml, { arrays: ARRAYS }));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw documentInvalid(issue.path.join("."), issue.message);
  }
  const report = parsed.data.Document.CstmrPmtStsRpt;
  const group = report.OrgnlGrpInfAndSts;
  const blocks: BlockStatus[] = [];
  if (group.GrpSts) blocks.push({ payoutFileId: group.OrgnlMsgId, status: group.GrpSts, reasonCode: firstReason(group.StsRsnInf) });
  for (const p of report.OrgnlPmtInfAndSts ?? []) {
    if (p.PmtInfSts && p.OrgnlPmtInfId) blocks.push({ payoutFileId: p.OrgnlPmtInfId, status: p.PmtInfSts, reasonCode: firstReason(p.StsRsnInf) });
  }
  return {
    messageId: report.GrpHdr.MsgId,
    originalMessageId: group.OrgnlMsgId,
    transactions: (report.OrgnlPmtInfAndSts ?? []).flatMap((p) =>
      (p.TxInfAndSts ?? []).map((t) => ({
        endToEndId: t.OrgnlEndToEndId,
        status: t.TxSts,
        reasonCode: firstReason(t.StsRsnInf),
        instructionId: t.OrgnlInstrId,
        payoutFileId: p.OrgnlPmtInfId ?? group.OrgnlMsgId,
      })),
    ),
    blocks,
  };
}
