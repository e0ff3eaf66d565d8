"use server";

import { z } from "zod";
import { executeBankCreditReturn, importBankStatement, matchBankCredit, returnBankCredit } from "@/lib/operations/commands/finance";
import { consoleCommand } from "@/lib/operations/console/action";
import { readCamt053 } from "@/lib/payments/reconciliation/camt";

const reason = z.string().trim().min(3).max(500);

// Upload a camt.053 statement: validated and read before the transaction, imported in it.
export const uploadStatement = consoleCommand("reviewer", z.object({ statement: z.instanceof(File).refine((f) => f.size > 0, "choose a camt.053 file") }), {
  prepare: async (form) => readCamt053(await form.statement.text()),
  ask: (_form, statement) => ({ command: importBankStatement, input: statement }),
});

// Match a queued credit to a transfer in funding (an over-payment's excess stays to return):
// under dual control, proposed for a second operator.
export const matchCredit = consoleCommand(
  "reviewer",
  z.object({ creditId: z.string().min(1), transferId: z.string().trim().min(1).max(64), reason }),
  ({ reason, ...input }) => ({ command: matchBankCredit, input, reason }),
);

// Return a queued credit, or an over-payment's excess, to the payer (under dual control too).
export const returnCredit = consoleCommand("reviewer", z.object({ creditId: z.string().min(1), reason }), ({ reason, ...input }) => ({
  command: returnBankCredit,
  input,
  reason,
}));

// The second step of a return: the bank executed it; its reference is recorded and the return posted.
export const executeCreditReturn = consoleCommand(
  "reviewer",
  z.object({ creditId: z.string().min(1), bankReference: z.string().trim().min(1).max(140), reason }),
  ({ reason, ...input }) => ({ command: executeBankCreditReturn, input, reason }),
);
