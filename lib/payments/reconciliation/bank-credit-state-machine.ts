/**
 * A bank credit read from a statement. A full match funds its transfer at import
 * (MATCHED); anything else waits for an operator (QUEUED), who matches it to a transfer in
 * funding (MATCHED, or EXCESS when it paid more than due: the excess stays to return) or returns
 * it: requested (RETURN_REQUESTED), then executed at the bank with its reference (RETURNED).
 * Returning an EXCESS returns the excess alone. A credit short by at most the
 * tolerance matches (the shortfall written off); a PARTIAL credit is MATCHED when a later credit
 * with the same reference brings the sum due.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { BANK_CREDIT_STATES, type BankCreditState } from "@/db/schema/bank-credits";
export { BANK_CREDIT_STATES, type BankCreditState, QUEUE_REASONS, type QueueReason } from "@/db/schema/bank-credits";

export const BANK_CREDIT_TRIGGERS = [
  "import.matched",
  "import.queued",
  "import.toppedUp",
  "operator.matched",
  "operator.matchedOverpaid",
  "operator.returned",
  "operator.returnExecuted",
] as const;
export type BankCreditTrigger = (typeof BANK_CREDIT_TRIGGERS)[number];

export const bankCreditMachine = defineMachine<BankCreditState, BankCreditTrigger>({
  name: "bank credit",
  states: BANK_CREDIT_STATES,
  triggers: BANK_CREDIT_TRIGGERS,
  refusedCode: "bankCredit.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "import.matched", to: "MATCHED", notes: "reference, amount and currency match a transfer in funding" },
    { from: [NONE], trigger: "import.queued", to: "QUEUED", notes: "unmatched, partial, over-paid, wrong currency or late" },
    // A partial credit topped up by a later credit with the same reference, together enough.
    { from: ["QUEUED"], trigger: "import.toppedUp", to: "MATCHED", notes: "a later credit with the same reference completed the sum due" },
    { from: ["QUEUED"], trigger: "operator.matched", to: "MATCHED", notes: "exact amount: funds the transfer" },
    { from: ["QUEUED"], trigger: "operator.matchedOverpaid", to: "EXCESS", notes: "funds the transfer; the excess stays to return" },
    // A return is two steps, listed until the bank has executed it.
    { from: ["QUEUED", "EXCESS"], trigger: "operator.returned", to: "RETURN_REQUESTED", notes: "to send back to the payer (the whole credit, or the excess)" },
    { from: ["RETURN_REQUESTED"], trigger: "operator.returnExecuted", to: "RETURNED", notes: "sent by the bank (its reference recorded); posts the return" },
  ],
});
