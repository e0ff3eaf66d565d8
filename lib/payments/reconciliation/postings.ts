import type { Tx } from "@/db";
import { postEntry, toMinor } from "@/lib/finance";

/**
 * The ledger postings of bank credits (docs/decisions.md): a credit imported from a statement is
 * cash at the collection account that belongs to no transfer yet (Dr cash:collection /
 * Cr suspense:unallocated); funding a transfer from it moves it out of suspense (the
 * funding.succeeded posting, fundedFrom "suspense:unallocated"); a return sends it back
 * (Dr suspense:unallocated / Cr cash:collection). A credit short by at most the tolerance funds
 * the whole sum due out of suspense, and the shortfall is written off (Dr expense:write-offs /
 * Cr suspense:unallocated), leaving suspense at zero. Source keys make each posting once only.
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
    reference: credit.bankReference,
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
    reference: credit.bankReference,
    lines: [
      { account: "suspense:unallocated", currency: credit.currency, debit: minor },
      { account: "cash:collection", currency: credit.currency, credit: minor },
    ],
    now,
  });
}

/** The shortfall of a credit (or of credits topped up under one reference) that funded its transfer within the tolerance. */
export async function postShortfallWrittenOff(tx: Tx, input: { bankReference: string; transferId: string; shortfall: string; currency: string }, now: Date) {
  const minor = toMinor(input.shortfall, input.currency);
  await postEntry(tx, {
    sourceKey: `bank-credit-write-off:${input.bankReference}`,
    kind: "bank.credit.shortfallWrittenOff",
    transferId: input.transferId,
    memo: `Shortfall of bank credit ${input.bankReference} written off (within tolerance)`,
    lines: [
      { account: "expense:write-offs", currency: input.currency, debit: minor },
      { account: "suspense:unallocated", currency: input.currency, credit: minor },
    ],
    now,
  });
}
