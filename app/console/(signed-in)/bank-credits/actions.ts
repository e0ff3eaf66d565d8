"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { act, actedNotice } from "@/lib/dual-control/proposals";
import { recordAudit } from "@/lib/operators/audit";
import { readCamt053 } from "@/lib/reconciliation/camt";
import { importStatement } from "@/lib/reconciliation/import";
import { executeBankCreditReturn } from "@/lib/reconciliation/resolve";

const reason = z.string().trim().min(3).max(500);

// Upload a camt.053 statement: validated and read before the transaction, imported in it.
export const uploadStatement = consoleAction("reviewer", z.object({ statement: z.instanceof(File).refine((f) => f.size > 0, "choose a camt.053 file") }), {
  prepare: async (input) => readCamt053(await input.statement.text()),
  run: async ({ tx, prepared, operator, now }) => {
    const report = await importStatement(tx, prepared, now);
    await recordAudit(
      tx,
      operator,
      { action: "bankStatement.import", targetType: "bankStatement", targetId: prepared.messageId || "(no MsgId)", after: { ...report } },
      now,
    );
    return `Statement ${prepared.messageId}: ${report.entries} credits, ${report.matched} matched, ${report.unmatched} to the queue, ${report.duplicates} already imported.`;
  },
});

// Match a queued credit to a transfer in funding (an over-payment's excess stays to return):
// under dual control, proposed for a second operator (lib/dual-control).
export const matchCredit = consoleAction(
  "reviewer",
  z.object({ creditId: z.string().min(1), transferId: z.string().trim().min(1).max(64), reason }),
  async ({ tx, input, operator, now }) =>
    actedNotice(await act(tx, "bankCredit.match", { creditId: input.creditId, transferId: input.transferId }, { operator, reason: input.reason, now })),
);

// Return a queued credit, or an over-payment's excess, to the payer (under dual control too).
export const returnCredit = consoleAction("reviewer", z.object({ creditId: z.string().min(1), reason }), async ({ tx, input, operator, now }) =>
  actedNotice(await act(tx, "bankCredit.return", { creditId: input.creditId }, { operator, reason: input.reason, now })),
);

// The second step of a return (issue 24 item 7): the bank executed it; its reference is recorded and the return posted.
export const executeCreditReturn = consoleAction(
  "reviewer",
  z.object({ creditId: z.string().min(1), bankReference: z.string().trim().min(1).max(140), reason }),
  async ({ tx, input, operator, now }) => {
    const done = await executeBankCreditReturn(tx, { creditId: input.creditId, bankReference: input.bankReference, operatorId: operator.id }, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "bankCredit.returnExecuted",
        targetType: "bankCredit",
        targetId: input.creditId,
        before: { state: done.before.state },
        after: { state: done.after.state, returned: done.returned, returnBankReference: input.bankReference },
        reason: input.reason,
      },
      now,
    );
    return `Credit ${done.after.bankReference}: ${done.returned} ${done.after.currency} returned (bank reference ${input.bankReference}).`;
  },
);
