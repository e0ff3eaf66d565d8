import { XMLBuilder } from "fast-xml-parser";
import type { PayoutBank } from "@/lib/platform/config/payout-banks";
import { Decimal } from "@/lib/platform/money/decimal";

/**
 * ISO 20022 pain.001.001.03 (CustomerCreditTransferInitiationV03, the generic version shipped in
 * data/iso20022/): one PmtInf per payout bank and currency, debtor = our account at that bank.
 * Built with fast-xml-parser's XMLBuilder (already our XML parser; it escapes text), element order
 * as the schema's sequences require.
 */
export const PAIN001_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03";

/**
 * The beneficiary's account: an IBAN, or another identifier with its account scheme (CLABE, NUBAN, BBAN, MSISDN, WALLET; never the payout method). BBAN is an ISO 20022
 * external code (SchmeNm/Cd); the others are proprietary (SchmeNm/Prtry).
 */
export type CreditorAccount = { iban: string } | { other: string; scheme: string };

/** ISO 3166 alpha-2 postal address as PostalAddress6 takes it. */
export interface PartyAddress {
  /** StrtNm: the street (with its number, as written) when the address is structured. */
  street?: string;
  /** BldgNb, when known apart from the street. */
  buildingNumber?: string;
  /** AdrLine: what has no structured element (a second line; an unstructured address's lines). */
  lines: string[];
  town?: string;
  postCode?: string;
  region?: string;
  country: string;
}

/**
 * The originator travelling with the payment (FATF Recommendation 16, EU Transfer of Funds
 * Regulation): our customer, as the ultimate debtor of each credit transfer (we are the debtor).
 */
export interface UltimateDebtor {
  name: string;
  address?: PartyAddress;
  /** DtAndPlcOfBirth: the schema needs date, city and country together. */
  birth?: { date: string; city: string; country: string };
  /** Our customer number (PrvtId/Othr, scheme CUST). */
  customerId: string;
}

export interface CreditTransfer {
  /** EndToEndId: the transferId. */
  endToEndId: string;
  /** In the currency's minor units ("1234.50" MXN, "1000" XOF). */
  amount: string;
  creditorName: string;
  /** ISO 3166 alpha-2 of the beneficiary's residence, when known. */
  creditorCountry?: string;
  /** Cdtr/PstlAdr in full when the beneficiary's address is known (its country is then the address's). */
  creditorAddress?: PartyAddress;
  creditorAccount?: CreditorAccount;
  ultimateDebtor?: UltimateDebtor;
  /** CdtrAgt/FinInstnId/BIC, when the beneficiary's bank is known by its BIC. */
  creditorAgentBic?: string;
  /** InstrId: the EndToEndId on the first attempt, `<EndToEndId>/<attempt>` on a resend after a repair. */
  instructionId?: string;
}

export interface PaymentInformation {
  id: string;
  bank: PayoutBank;
  currency: string;
  /** ReqdExctnDt, YYYY-MM-DD. */
  executionDate: string;
  transfers: CreditTransfer[];
}

export interface Pain001Message {
  messageId: string;
  createdAt: Date;
  initiatingParty: string;
  payments: PaymentInformation[];
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, indentBy: "  ", suppressEmptyNode: true });

const max = (text: string, length: number) => text.slice(0, length);

/** The sum of the amounts with as many decimals as the most precise of them (CtrlSum). */
export function controlSum(amounts: string[]): string {
  const places = Math.max(0, ...amounts.map((a) => a.split(".")[1]?.length ?? 0));
  return amounts.reduce((sum, a) => sum.plus(a), new Decimal(0)).toFixed(places);
}

function account(a: CreditorAccount) {
  if ("iban" in a) return { Id: { IBAN: a.iban } };
  return { Id: { Othr: { Id: max(a.other, 34), SchmeNm: a.scheme === "BBAN" ? { Cd: "BBAN" } : { Prtry: max(a.scheme, 35) } } } };
}

function postalAddress(a: PartyAddress) {
  return {
    ...(a.street ? { StrtNm: max(a.street, 70) } : {}),
    ...(a.buildingNumber ? { BldgNb: max(a.buildingNumber, 16) } : {}),
    ...(a.postCode ? { PstCd: max(a.postCode, 16) } : {}),
    ...(a.town ? { TwnNm: max(a.town, 35) } : {}),
    ...(a.region ? { CtrySubDvsn: max(a.region, 35) } : {}),
    Ctry: a.country,
    ...(a.lines.length > 0 ? { AdrLine: a.lines.slice(0, 7).map((l) => max(l, 70)) } : {}),
  };
}

function ultimateDebtor(d: UltimateDebtor) {
  return {
    Nm: max(d.name, 140),
    ...(d.address ? { PstlAdr: postalAddress(d.address) } : {}),
    Id: {
      PrvtId: {
        ...(d.birth ? { DtAndPlcOfBirth: { BirthDt: d.birth.date, CityOfBirth: max(d.birth.city, 35), CtryOfBirth: d.birth.country } } : {}),
        Othr: { Id: max(d.customerId, 35), SchmeNm: { Cd: "CUST" } },
      },
    },
  };
}

/**
 * Our account at the payout bank: its IBAN, or a national account number in Othr with the scheme
 *: BBAN is an ISO 20022 external code (SchmeNm/Cd), CLABE is not one (Prtry), as
 * for creditor accounts above.
 */
function debtorAccount(bank: PayoutBank) {
  if (bank.debtorIban) return { IBAN: bank.debtorIban };
  const a = bank.debtorAccount!;
  return { Othr: { Id: a.id, SchmeNm: a.scheme === "BBAN" ? { Cd: "BBAN" } : { Prtry: a.scheme } } };
}

function creditorAddress(t: CreditTransfer) {
  if (t.creditorAddress) return { PstlAdr: postalAddress(t.creditorAddress) };
  return t.creditorCountry ? { PstlAdr: { Ctry: t.creditorCountry } } : {};
}

/** Element order as CreditTransferTransactionInformation10's sequence requires. */
function transaction(t: CreditTransfer, p: PaymentInformation) {
  return {
    PmtId: { InstrId: max(t.instructionId ?? t.endToEndId, 35), EndToEndId: t.endToEndId },
    Amt: { InstdAmt: { "@_Ccy": p.currency, "#text": t.amount } },
    ...(t.ultimateDebtor ? { UltmtDbtr: ultimateDebtor(t.ultimateDebtor) } : {}),
    ...(t.creditorAgentBic ? { CdtrAgt: { FinInstnId: { BIC: t.creditorAgentBic } } } : {}),
    Cdtr: { Nm: max(t.creditorName, 140), ...creditorAddress(t) },
    ...(t.creditorAccount ? { CdtrAcct: account(t.creditorAccount) } : {}),
    ...(p.bank.purposeCode ? { Purp: { Cd: p.bank.purposeCode } } : {}),
    RmtInf: { Ustrd: `Remittance ${t.endToEndId}` },
  };
}

function paymentInformation(p: PaymentInformation) {
  return {
    PmtInfId: p.id,
    PmtMtd: "TRF",
    NbOfTxs: String(p.transfers.length),
    CtrlSum: controlSum(p.transfers.map((t) => t.amount)),
    ReqdExctnDt: p.executionDate,
    Dbtr: { Nm: max(p.bank.debtorName, 140) },
    DbtrAcct: { Id: debtorAccount(p.bank), Ccy: p.currency },
    DbtrAgt: { FinInstnId: { BIC: p.bank.bic } },
    // Who bears the banks' charges, per payout bank (unset: DEBT, we do: the beneficiary gets the amount quoted).
    ChrgBr: p.bank.chargeBearer ?? "DEBT",
    CdtTrfTxInf: p.transfers.map((t) => transaction(t, p)),
  };
}

/** The document's XML (UTF-8 declaration included). A message needs at least one transaction. */
export function buildPain001(m: Pain001Message): string {
  const all = m.payments.flatMap((p) => p.transfers.map((t) => t.amount));
  if (all.length === 0) throw new Error("a pain.001 message needs at least one credit transfer");
  const doc = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    Document: {
      "@_xmlns": PAIN001_NAMESPACE,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: m.messageId,
          CreDtTm: m.createdAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
          NbOfTxs: String(all.length),
          CtrlSum: controlSum(all),
          InitgPty: { Nm: max(m.initiatingParty, 140) },
        },
        PmtInf: m.payments.map(paymentInformation),
      },
    },
  };
  return builder.build(doc) as string;
}
