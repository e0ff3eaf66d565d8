import { DomainError } from "@/lib/platform/errors";
import { isCurrencyCode } from "@/lib/platform/money/currency";
import { fitsMinorUnit } from "@/lib/platform/money/format";
import { Decimal, isWireDecimal } from "@/lib/platform/money/decimal";
import { findCreditorReference, isCreditorReference, electronicReference } from "./creditor-reference";
import { checkXml, readXml } from "@/lib/platform/xml/read";
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
  /** Country and last four characters only: what is shown, searched and logged. */
  payerAccount: string | null;
  /**
   * The payer's whole IBAN (electronic form), in memory only: the import stores it encrypted
   * (bank_credits.payer_account_encrypted) to pay a refund back to it.
   */
  payerIban: string | null;
}

export interface ParsedStatement {
  messageId: string;
  /** The account of each Stmt (Acct/Id/IBAN in electronic format, else Acct/Id/Othr/Id), in order. */
  accounts: string[];
  /** Booked credit entries, one per AcctSvcrRef. */
  credits: StatementCredit[];
  /** Entries that are not booked credits (debits, pending, reversals): not imported. */
  ignored: number;
  /** Each Stmt's closing booked balance (CLBD), for the daily reconciliation. */
  closingBalances: ClosingBalance[];
}

export interface ClosingBalance {
  account: string;
  /** Signed decimal: a debit balance (CdtDbtInd DBIT) is negative. */
  amount: string;
  currency: string;
  /** YYYY-MM-DD (Dt, or the date of DtTm). */
  date: string;
  /** When the bank created the statement (Stmt/CreDtTm, else GrpHdr/CreDtTm) as written: a day's last statement is the one reconciled. */
  statementCreatedAt: string | null;
}

type Node = Record<string, unknown>;
const ARRAYS = ["Stmt", "Ntry", "TxDtls", "Ustrd", "Strd", "CdtrRefInf", "Bal"];

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
  // The same refusals as every uploaded document (lib/platform/xml/read.ts) before libxml2 sees it.
  checkXml(xml);
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
  const doc = obj(obj(readXml(xml, { arrays: ARRAYS, attributes: true })).Document);
  const root = obj(doc.BkToCstmrStmt);
  const credits: StatementCredit[] = [];
  const accounts: string[] = [];
  const closingBalances: ClosingBalance[] = [];
  let ignored = 0;
  for (const stmt of list(root.Stmt)) {
    const id = obj(obj(stmt.Acct).Id);
    const account = (str(id.IBAN) ?? str(obj(id.Othr).Id) ?? "").replace(/\s+/g, "").toUpperCase();
    accounts.push(account);
    const statementCreatedAt = str(stmt.CreDtTm) ?? str(obj(root.GrpHdr).CreDtTm);
    for (const bal of list(stmt.Bal)) {
      if (str(obj(obj(bal.Tp).CdOrPrtry).Cd) !== "CLBD") continue;
      const { amount, currency } = moneyOf(bal.Amt, `${str(stmt.Id)} closing balance`);
      const date = (str(obj(bal.Dt).Dt) ?? str(obj(bal.Dt).DtTm) ?? "").slice(0, 10);
      closingBalances.push({ account, amount: str(bal.CdtDbtInd) === "DBIT" ? `-${amount}` : amount, currency, date, statementCreatedAt });
    }
    for (const [i, entry] of list(stmt.Ntry).entries()) {
      const booked = str(obj(entry.Sts).Cd) === "BOOK" || str(obj(entry.Sts).Prtry) === "BOOK";
      const reversal = str(entry.RvslInd) === "true";
      if (str(entry.CdtDbtInd) !== "CRDT" || !booked || reversal) {
        ignored++;
        continue;
      }
      credits.push(...creditsOf(entry, `${str(stmt.Id)} entry ${i + 1}`));
    }
  }
  const seen = new Set<string>();
  for (const c of credits) {
    if (seen.has(c.bankReference)) throw invalid(`Two entries carry the same AcctSvcrRef ${c.bankReference}.`);
    seen.add(c.bankReference);
  }
  return { messageId: str(obj(root.GrpHdr).MsgId) ?? "", accounts, credits, ignored, closingBalances };
}

/** An amount element (`<Amt Ccy="EUR">10.00</Amt>`) as ISO 4217 money in whole minor units, else a refusal. */
function moneyOf(amt: unknown, where: string): { amount: string; currency: string } {
  const written = str(amt) ?? "";
  const amount = plainDecimal(written.trim());
  const currency = str(obj(amt)["@Ccy"]) ?? "";
  // The schema allows five decimals and any three letters; money here is ISO 4217 in whole minor units.
  if (!isCurrencyCode(currency) || !isWireDecimal(amount) || !fitsMinorUnit(new Decimal(amount), currency)) {
    throw invalid(`${where}: ${written} ${currency} is not an amount in whole minor units of an ISO 4217 currency.`);
  }
  return { amount, currency };
}

/**
 * An xs:decimal as the statement wrote it, its digits kept, in the one form amounts are stored in
 * (the amount columns' CHECK, db/schema/columns.ts): no plus sign, no leading zero, no bare point
 * ("+010.50" -> "10.50", ".5" -> "0.5", "10." -> "10"). A minus sign stays (and is refused).
 */
export function plainDecimal(text: string): string {
  const m = /^\+?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[1] === "" && !m[2])) return text;
  const whole = m[1].replace(/^0+(?=\d)/, "") || "0";
  return m[2] ? `${whole}.${m[2]}` : whole;
}

/** The amount of one transaction of a batch: its Amt, else AmtDtls/TxAmt, else AmtDtls/InstdAmt. */
const transactionAmount = (tx: Node): unknown => tx.Amt ?? obj(obj(tx.AmtDtls).TxAmt).Amt ?? obj(obj(tx.AmtDtls).InstdAmt).Amt;

/**
 * The credits of one booked entry. One transaction (or none): the entry is the credit. A batch
 * booking (several TxDtls under one Ntry) is one credit per TxDtls, each with its
 * own amount and remittance information, so each customer's reference matches on its own. A
 * batch's transactions must each state an amount, in the entry's currency, summing to the
 * entry's; each is known by its own AcctSvcrRef when the bank gives distinct ones, else by the
 * entry's with `/1`, `/2`... (stable across imports of the same statement).
 */
function creditsOf(entry: Node, where: string): StatementCredit[] {
  const txs = list(obj(entry.NtryDtls).TxDtls);
  const entryReference = str(entry.AcctSvcrRef) ?? (txs.length === 1 ? str(obj(txs[0].Refs).AcctSvcrRef) : null);
  // Idempotency rests on the bank's reference: an entry without one cannot be imported safely.
  if (!entryReference) throw invalid(`${where} is a credit without AcctSvcrRef (the bank's entry reference).`);
  const total = moneyOf(entry.Amt, `${where} (${entryReference})`);
  if (txs.length <= 1) return [creditOf(entry, txs[0] ?? {}, entryReference, total)];

  const own = txs.map((tx) => str(obj(tx.Refs).AcctSvcrRef));
  const distinct = own.every((r) => r !== null && r !== entryReference) && new Set(own).size === own.length;
  let sum = new Decimal(0);
  const credits = txs.map((tx, k) => {
    const label = `${where} (${entryReference}) transaction ${k + 1} of ${txs.length}`;
    const amt = transactionAmount(tx);
    if (amt === undefined) throw invalid(`${label} states no amount (Amt or AmtDtls): a batch booking cannot be split without one.`);
    const money = moneyOf(amt, label);
    if (money.currency !== total.currency) throw invalid(`${label} is in ${money.currency}, the entry in ${total.currency}.`);
    sum = sum.plus(money.amount);
    return creditOf(entry, tx, distinct ? own[k]! : `${entryReference}/${k + 1}`, money);
  });
  if (!sum.eq(total.amount)) {
    throw invalid(`${where} (${entryReference}): its ${txs.length} transactions sum to ${sum.toString()} ${total.currency}, the entry is ${total.amount}.`);
  }
  return credits;
}

function creditOf(entry: Node, tx: Node, bankReference: string, { amount, currency }: { amount: string; currency: string }): StatementCredit {
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
  const payerIban =
    str(obj(obj(parties.DbtrAcct).Id).IBAN)
      ?.replace(/\s+/g, "")
      .toUpperCase() ?? null;
  return {
    bankReference,
    amount,
    currency,
    bookingDate: str(obj(entry.BookgDt).Dt) ?? str(obj(entry.BookgDt).DtTm),
    creditorReference: rf,
    remittance: (structured.join(" ") || free || "").slice(0, 140) || null,
    payerName: str(obj(obj(parties.Dbtr).Pty).Nm),
    payerAccount: maskAccount(payerIban),
    payerIban,
  };
}
