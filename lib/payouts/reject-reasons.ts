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
