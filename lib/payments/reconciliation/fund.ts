import type { Tx } from "@/db";
import { completeFunding } from "@/lib/payments/transfers/funding";
import type { FundingSessionRow } from "@/lib/payments/transfers/funding-session-expiry";
import type { TransferRow } from "@/lib/payments/transfers/records";

/**
 * A matched bank credit funds its transfer through completeFunding, the one funding path (the
 * sandbox's instant rails use it too): the money leaves suspense:unallocated, where the import put it.
 */
export function fundFromBankCredit(tx: Tx, locked: { session: FundingSessionRow; transfer: TransferRow }, now: Date) {
  return completeFunding(tx, { ...locked, outcome: "SUCCEEDED", method: "BANK_TRANSFER", fundedFrom: "suspense:unallocated", now });
}
