import { XMLParser } from "fast-xml-parser";
import { DomainError } from "@/lib/errors";
import { isCurrencyCode } from "@/lib/money/currency";
import { fitsMinorUnit } from "@/lib/money/format";
import { Decimal } from "@/lib/money/decimal";
import { findCreditorReference, isCreditorReference, electronicReference } from "./creditor-reference";
import { schemaProblems } from "./xsd";

/** One booked credit of a statement: what the matcher needs, with the payer's account masked. */
export interface StatementCredit {
  /** The bank's own reference of the entry (AcctSvcrRef): the import is idempotent on it. */
  bankReference: string;
  amount: string;
  currency: string;
  bookingDate: string | null;
  /** The ISO 11649 reference found (structured first, else in the unstructured text). */
  creditorReference: string | null;
  /** The remittance information as sent (structured reference or free text), for the operator. */
  remittance: string | null;
  payerName: string | null;
  /** Country and last four characters only: no payer IBAN is stored or logged whole. */
  payerAccount: string | null;
}

export interface ParsedStatement {
  messageId: string;
  /** Booked credit entries, one per AcctSvcrRef. */
  credits: StatementCredit[];
  /** Entries that are not booked credits (debits, pending, reversals): not imported. */
  ignored: number;
}

type Node = Record<string, unknown>;
const ARRAYS = new Set(["Stmt", "Ntry", "TxDtls", "Ustrd", "Strd", "CdtrRefInf"]);
const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  isArray: (name) => ARRAYS.has(name),
});

const invalid = (message: string, problems: unknown[] = []) =>
  new DomainError("validation.bodyMalformed", { message, details: { problems }, hint: "fix_request" });

const str = (v: unknown): string | null => {
  if (typeof v === "string") return v.trim() || null;
  if (v && typeof v === "object" && "#text" in v) return str((v as Node)["#text"]);
  return null;
};
const obj = (v: unknown): Node => (v && typeof v === "object" ? (v as Node) : {});
const list = (v: unknown): Node[] => (Array.isArray(v) ? v.map(obj) : v ? [obj(v)] : []);

export function maskAccount(iban: string | null): string | null {
  if (!iban) return null;
  const compact = iban.replace(/\s+/g, "");
  return compact.length <= 6 ? "****" : `${compact.slice(0, 2)}****${compact.slice(-4)}`;
}

/**
 * Validates a camt.053.001.08 document against the shipped XSD, then reads its booked credits.
 * Not XML, or not a valid camt.053: validation.bodyMalformed with the schema's first problems.
 */
export async function readCamt053(xml: string): Promise<ParsedStatement> {
  if (!xml.trim()) throw invalid("The statement is empty.");
  const problems = await schemaProblems(xml, "camt.053.001.08");
  if (problems.length > 0) {
    const first = problems[0];
    const where = first.line ? ` line ${first.line}:` : "";
    throw invalid(`Not a valid camt.053.001.08 document (ISO 20022 bank-to-customer statement):${where} ${first.message}`, problems);
  }
  return parseCamt053(xml);
}

/** Reads an already validated document (exported for the parser's unit tests). */
export function parseCamt053(xml: string): ParsedStatement {
  const doc = obj(obj(parser.parse(xml)).Document);
  const root = obj(doc.BkToCstmrStmt);
  const credits: StatementCredit[] = [];
  let ignored = 0;
  for (const stmt of list(root.Stmt)) {
    for (const [i, entry] of list(stmt.Ntry).entries()) {
      const booked = str(obj(entry.Sts).Cd) === "BOOK" || str(obj(entry.Sts).Prtry) === "BOOK";
      const reversal = str(entry.RvslInd) === "true";
      if (str(entry.CdtDbtInd) !== "CRDT" || !booked || reversal) {
        ignored++;
        continue;
      }
      credits.push(creditOf(entry, `${str(stmt.Id)} entry ${i + 1}`));
    }
  }
  const seen = new Set<string>();
  for (const c of credits) {
    if (seen.has(c.bankReference)) throw invalid(`Two entries carry the same AcctSvcrRef ${c.bankReference}.`);
    seen.add(c.bankReference);
  }
  return { messageId: str(obj(root.GrpHdr).MsgId) ?? "", credits, ignored };
}

function creditOf(entry: Node, where: string): StatementCredit {
  const tx = list(obj(entry.NtryDtls).TxDtls)[0] ?? {};
  const bankReference = str(entry.AcctSvcrRef) ?? str(obj(tx.Refs).AcctSvcrRef);
  // Idempotency rests on the bank's reference: an entry without one cannot be imported safely.
  if (!bankReference) throw invalid(`${where} is a credit without AcctSvcrRef (the bank's entry reference).`);
  const amt = entry.Amt;
  const amount = str(amt) ?? "";
  const currency = str(obj(amt)["@Ccy"]) ?? "";
  // The schema allows five decimals and any three letters; money here is ISO 4217 in whole minor units.
  if (!isCurrencyCode(currency) || !fitsMinorUnit(new Decimal(amount), currency)) {
    throw invalid(`${where} (${bankReference}): ${amount} ${currency} is not an amount in whole minor units of an ISO 4217 currency.`);
  }
  const rmt = obj(tx.RmtInf);
  const structured = list(rmt.Strd)
    .flatMap((s) => list(s.CdtrRefInf))
    .map((c) => str(c.Ref))
    .filter((r): r is string => r !== null);
  const free = (Array.isArray(rmt.Ustrd) ? (rmt.Ustrd as unknown[]) : [])
    .map(str)
    .filter((t): t is string => t !== null)
    .join(" ");
  const rf = structured.map(electronicReference).find(isCreditorReference) ?? (free ? findCreditorReference(free) : null);
  const parties = obj(tx.RltdPties);
  return {
    bankReference,
    amount,
    currency,
    bookingDate: str(obj(entry.BookgDt).Dt) ?? str(obj(entry.BookgDt).DtTm),
    creditorReference: rf,
    remittance: (structured.join(" ") || free || "").slice(0, 140) || null,
    payerName: str(obj(obj(parties.Dbtr).Pty).Nm),
    payerAccount: maskAccount(str(obj(obj(parties.DbtrAcct).Id).IBAN)),
  };
}
