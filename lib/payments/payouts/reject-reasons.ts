/**
 * pain.002 status reason codes (ExternalStatusReason1Code) → our rejection reason, stored on the
 * rejected transfer (rejectionReason). Data, read like the state tables; a code not listed is kept
 * verbatim, and a rejection without a code is PAYOUT_REJECTED.
 */
export const REJECT_REASONS: Readonly<Record<string, string>> = {
  AC01: "PAYOUT_ACCOUNT_INVALID", // IncorrectAccountNumber
  AC03: "PAYOUT_ACCOUNT_INVALID", // InvalidCreditorAccountNumber
  AC04: "PAYOUT_ACCOUNT_CLOSED", // ClosedAccountNumber
  AC06: "PAYOUT_ACCOUNT_BLOCKED", // BlockedAccount
  AC13: "PAYOUT_ACCOUNT_TYPE_INVALID", // InvalidDebtorAccountType
  AG01: "PAYOUT_TRANSACTION_FORBIDDEN", // TransactionForbidden
  AG02: "PAYOUT_OPERATION_INVALID", // InvalidBankOperationCode
  AM01: "PAYOUT_AMOUNT_INVALID", // ZeroAmount
  AM02: "PAYOUT_AMOUNT_NOT_ALLOWED", // NotAllowedAmount
  AM04: "PAYOUT_INSUFFICIENT_FUNDS", // InsufficientFunds (our account at the payout bank)
  AM05: "PAYOUT_DUPLICATE", // Duplication
  BE01: "PAYOUT_BENEFICIARY_MISMATCH", // InconsistentWithEndCustomer
  BE04: "PAYOUT_BENEFICIARY_ADDRESS_MISSING", // MissingCreditorAddress
  BE05: "PAYOUT_PARTY_UNRECOGNISED", // UnrecognisedInitiatingParty
  CURR: "PAYOUT_CURRENCY_INVALID", // IncorrectCurrency
  DT01: "PAYOUT_DATE_INVALID", // InvalidDate
  FF01: "PAYOUT_FILE_INVALID", // InvalidFileFormat
  MD07: "PAYOUT_BENEFICIARY_DECEASED", // EndCustomerDeceased
  MS02: "PAYOUT_REFUSED_BY_BENEFICIARY", // NotSpecifiedReasonCustomerGenerated
  MS03: "PAYOUT_REFUSED_BY_BANK", // NotSpecifiedReasonAgentGenerated
  NARR: "PAYOUT_REJECTED_NARRATIVE", // Narrative: the reason is in AddtlInf
  RC01: "PAYOUT_BANK_IDENTIFIER_INVALID", // BankIdentifierIncorrect
  RR01: "PAYOUT_REGULATORY", // MissingDebtorAccountOrIdentification
  RR04: "PAYOUT_REGULATORY", // RegulatoryReason
};

export function rejectionReasonFor(isoCode: string | null): string {
  if (!isoCode) return "PAYOUT_REJECTED";
  return REJECT_REASONS[isoCode] ?? isoCode;
}

/**
 * What the ISO 20022 external status reason codes (ExternalStatusReason1Code, the list published
 * with the ISO 20022 external code sets) mean, in the operator's and the customer's words, for
 * the codes payout banks send on a rejected credit transfer. No maintained npm package ships the
 * list (docs/decisions.md), so the codes we meet are kept here as data; another code is shown
 * with its code only.
 */
export const ISO_STATUS_REASONS: Readonly<Record<string, string>> = {
  AC01: "Incorrect account number",
  AC02: "Invalid debtor account number",
  AC03: "Invalid creditor account number",
  AC04: "Account closed",
  AC05: "Debtor account closed",
  AC06: "Account blocked",
  AC07: "Creditor account closed",
  AC13: "Invalid account type",
  AC14: "Invalid creditor account type",
  AG01: "Transaction forbidden on this account",
  AG02: "Invalid bank operation code",
  AG03: "Transaction type not supported",
  AM01: "Zero amount",
  AM02: "Amount not allowed",
  AM03: "Currency not allowed",
  AM04: "Insufficient funds",
  AM05: "Duplicate payment",
  AM09: "Wrong amount",
  AM12: "Invalid amount",
  BE01: "Beneficiary name does not match the account",
  BE04: "Beneficiary address missing",
  BE05: "Initiating party not recognised",
  BE06: "Unknown end customer",
  BE07: "Debtor address missing",
  CNOR: "Creditor bank not registered in the clearing system",
  CURR: "Incorrect currency",
  CUST: "Refused by the debtor",
  DNOR: "Debtor bank not registered in the clearing system",
  DT01: "Invalid date",
  DUPL: "Duplicate payment",
  ED05: "Settlement failed",
  FF01: "Invalid file format",
  FOCR: "Returned after a cancellation request",
  MD01: "No mandate",
  MD07: "Beneficiary deceased",
  MS02: "Refused by the beneficiary (reason not given)",
  MS03: "Refused by the bank (reason not given)",
  NARR: "Reason given in the bank's narrative",
  NOAS: "No answer from the beneficiary",
  NOOR: "Original payment never received",
  RC01: "Invalid bank identifier",
  RC08: "Invalid clearing system member identifier",
  RR01: "Missing debtor account or identification (regulatory)",
  RR02: "Missing debtor name or address (regulatory)",
  RR03: "Missing creditor name or address (regulatory)",
  RR04: "Regulatory reason",
  SL01: "Specific service offered by the debtor bank",
  TM01: "Received after the cut-off time",
};

/** A payout bank's rejection as the console, the transfer detail and its webhook show it. */
export interface PayoutRejection {
  /** Our reason (the transfer's rejectionReason): PAYOUT_ACCOUNT_CLOSED, PAYOUT_REJECTED, or an unlisted ISO code as sent. */
  code: string;
  /** StsRsnInf/Rsn/Cd (or Prtry) as the bank sent it; null when it gave none. */
  isoReasonCode: string | null;
  /** The ISO code's meaning in words ("Account closed"). */
  description: string;
}

export function payoutRejection(isoCode: string | null): PayoutRejection {
  const description = !isoCode
    ? "Rejected by the payout bank (no reason given)"
    : (ISO_STATUS_REASONS[isoCode] ?? `Rejected by the payout bank (reason code ${isoCode})`);
  return { code: rejectionReasonFor(isoCode), isoReasonCode: isoCode, description };
}

/** TxSts classes: settled → paid; in progress → reqpay; rejected → the failure path. */
export const STATUS_CLASS: Readonly<Record<string, "settled" | "inProgress" | "rejected">> = {
  ACSC: "settled", // AcceptedSettlementCompleted (debtor side)
  ACCC: "settled", // AcceptedSettlementCompletedCreditorAccount
  ACCP: "inProgress", // AcceptedCustomerProfile
  ACTC: "inProgress", // AcceptedTechnicalValidation
  ACSP: "inProgress", // AcceptedSettlementInProcess
  ACWC: "inProgress", // AcceptedWithChange
  PDNG: "inProgress", // Pending
  RCVD: "inProgress", // Received
  RJCT: "rejected", // Rejected
};

/**
 * The bank's reasons that a new destination can fix (the account or the beneficiary's details):
 * such a rejection waits for a repair. Any other reason (funds, duplicate, refused by the
 * beneficiary, regulatory) rejects the transfer and starts its refund at once, as before.
 */
export const REPAIRABLE_REASONS: ReadonlySet<string> = new Set(["AC01", "AC03", "AC04", "AC06", "AC07", "AC13", "AC14", "BE01", "BE04", "RC01", "RR03"]);
