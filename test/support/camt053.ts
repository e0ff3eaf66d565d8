/** A camt.053.001.08 statement built in tests (valid against data/iso20022/camt.053.001.08.xsd). */
export interface TestCredit {
  bankReference: string;
  amount: string;
  currency: string;
  /** Structured RF reference (RmtInf/Strd/CdtrRefInf/Ref). */
  reference?: string;
  /** Unstructured remittance text (RmtInf/Ustrd). */
  text?: string;
  debit?: boolean;
  status?: "BOOK" | "PDNG";
  /**
   * A batch booking: one Ntry (amount = their sum unless `amount` says otherwise) with one TxDtls
   * per transaction, each with its amount (as Amt, or as AmtDtls/TxAmt with `inDetails`) and its
   * own remittance information.
   */
  batch?: { amount?: string; reference?: string; text?: string; bankReference?: string; inDetails?: boolean; payer?: string }[];
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function remittance(c: { reference?: string; text?: string }): string {
  return c.reference
    ? `<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp><Ref>${esc(c.reference)}</Ref></CdtrRefInf></Strd></RmtInf>`
    : c.text
      ? `<RmtInf><Ustrd>${esc(c.text)}</Ustrd></RmtInf>`
      : "";
}

function batchEntry(c: TestCredit & { batch: NonNullable<TestCredit["batch"]> }): string {
  const txs = c.batch
    .map((t) => {
      const amount =
        t.amount === undefined
          ? ""
          : t.inDetails
            ? `<AmtDtls><TxAmt><Amt Ccy="${c.currency}">${t.amount}</Amt></TxAmt></AmtDtls>`
            : `<Amt Ccy="${c.currency}">${t.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd>`;
      const refs = t.bankReference ? `<AcctSvcrRef>${esc(t.bankReference)}</AcctSvcrRef>` : "";
      return `<TxDtls>
          <Refs>${refs}<EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          ${amount}
          <RltdPties><Dbtr><Pty><Nm>${esc(t.payer ?? "Batch Payer")}</Nm></Pty></Dbtr></RltdPties>
          ${remittance(t)}
        </TxDtls>`;
    })
    .join("");
  return `
      <Ntry>
        <Amt Ccy="${c.currency}">${c.amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-20</Dt></BookgDt>
        <AcctSvcrRef>${esc(c.bankReference)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><Btch><NbOfTxs>${c.batch.length}</NbOfTxs></Btch>${txs}</NtryDtls>
      </Ntry>`;
}

function entry(c: TestCredit): string {
  if (c.batch) return batchEntry({ ...c, batch: c.batch });
  const rmt = remittance(c);
  return `
      <Ntry>
        <Amt Ccy="${c.currency}">${c.amount}</Amt>
        <CdtDbtInd>${c.debit ? "DBIT" : "CRDT"}</CdtDbtInd>
        <Sts><Cd>${c.status ?? "BOOK"}</Cd></Sts>
        <BookgDt><Dt>2026-11-20</Dt></BookgDt>
        <ValDt><Dt>2026-11-20</Dt></ValDt>
        <AcctSvcrRef>${esc(c.bankReference)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
          <RltdPties><Dbtr><Pty><Nm>Maria Payer</Nm></Pty></Dbtr><DbtrAcct><Id><IBAN>FR7630006000011234567890189</IBAN></Id></DbtrAcct></RltdPties>
          ${rmt}
        </TxDtls></NtryDtls>
      </Ntry>`;
}

/**
 * `iban` is the statement's account (the sandbox collection account by default); `otherAccount` names it as Othr/Id instead;
 * `closingBalance` is the CLBD amount (EUR), `balanceDate` its date; `createdAt` the statement's creation time (CreDtTm).
 */
export function camt053(
  credits: TestCredit[],
  {
    messageId = "STMT-1",
    iban = "DE89370400440532013000",
    otherAccount = "",
    closingBalance = "1000.00",
    balanceDate = "2026-11-20",
    createdAt = "2026-11-20T18:00:00Z",
  } = {},
): string {
  const account = otherAccount ? `<Othr><Id>${esc(otherAccount)}</Id></Othr>` : `<IBAN>${iban}</IBAN>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${esc(messageId)}</MsgId><CreDtTm>${createdAt}</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${esc(messageId)}-1</Id>
      <CreDtTm>${createdAt}</CreDtTm>
      <Acct><Id>${account}</Id><Ccy>EUR</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${closingBalance}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${balanceDate}</Dt></Dt></Bal>${credits.map(entry).join("")}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
