import { readFileSync } from "node:fs";
import path from "node:path";
import { validateXML } from "xmllint-wasm";

/** Errors of `xml` against the shipped pain.001.001.03 schema (xmllint-wasm: libxml2 as WebAssembly); [] when valid. */
export async function pain001SchemaErrors(xml: string): Promise<string[]> {
  const xsd = readFileSync(path.join(process.cwd(), "data/iso20022/pain.001.001.03.xsd"), "utf8");
  const result = await validateXML({ xml: [{ fileName: "payout.xml", contents: xml }], schema: [{ fileName: "pain.001.001.03.xsd", contents: xsd }] });
  return result.errors.map((e) => e.message);
}

export interface StatusLine {
  endToEndId: string;
  status: string;
  reason?: string;
}

/** A pain.002.001.03 status report, as a payout bank sends it, answering `originalMessageId`. */
export function pain002(messageId: string, originalMessageId: string, lines: StatusLine[]): string {
  const tx = lines
    .map(
      (l) => `      <TxInfAndSts>
        <StsId>${l.endToEndId}-${l.status}</StsId>
        <OrgnlEndToEndId>${l.endToEndId}</OrgnlEndToEndId>
        <TxSts>${l.status}</TxSts>${l.reason ? `\n        <StsRsnInf><Rsn><Cd>${l.reason}</Cd></Rsn></StsRsnInf>` : ""}
      </TxInfAndSts>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2026-11-23T10:00:00</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts><OrgnlMsgId>${originalMessageId}</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId></OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>${originalMessageId}</OrgnlPmtInfId>
${tx}
    </OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>
`;
}
