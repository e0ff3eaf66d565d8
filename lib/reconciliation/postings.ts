import type { Tx } from "@/db";
import { postEntry, toMinor } from "@/lib/ledger";

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
}

export async function postCreditReceived(tx: Tx, credit: CreditPostingInput, now: Date): Promise<void> {
  const minor = toMinor(credit.amount, credit.currency);
  await postEntry(tx, {
    sourceKey: `bank-credit:${credit.bankReference}`,
    kind: "bank.credit.received",
    memo: `Bank credit ${credit.bankReference}`,
    lines: [
      { account: "cash:collection", currency: credit.currency, debit: minor },
      { account: "suspense:unallocated", currency: credit.currency, credit: minor },
    ],
    now,
  });
}

export async function postCreditReturned(tx: Tx, credit: CreditPostingInput, now: Date): Promise<void> {
  const minor = toMinor(credit.amount, credit.currency);
  await postEntry(tx, {
    sourceKey: `bank-credit-return:${credit.bankReference}`,
    kind: "bank.credit.returned",
    memo: `Return of bank credit ${credit.bankReference}`,
    lines: [
      { account: "suspense:unallocated", currency: credit.currency, debit: minor },
      { account: "cash:collection", currency: credit.currency, credit: minor },
    ],
    now,
  });
}
