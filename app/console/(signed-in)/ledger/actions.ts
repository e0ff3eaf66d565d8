"use server";

import { z } from "zod";
import { withdrawJournal } from "@/lib/operations/dual-control/journal-control";
import {
  changeLedgerPeriod as changePeriod,
  explainStatementDifference as explain,
  payPartnerFees as pay,
  postManualJournal,
} from "@/lib/operations/commands/finance";
import { consoleAction, consoleCommand } from "@/lib/operations/console/action";
import { JOURNAL_FORM_LINES } from "./journal-form";

// The accountant's console actions: admin only like the ledger pages; each domain
// call records its own audit entry through the unit of work.

export const changeLedgerPeriod = consoleCommand(
  "admin",
  z.object({ period: z.string().trim(), trigger: z.enum(["close", "reopen"]), reason: z.string().trim().min(3).max(500) }),
  ({ reason, ...input }) => ({ command: changePeriod, input, reason }),
);

/** The form's numbered line fields (account0, currency0, partnerId0, debit0, credit0, ...) as lines; empty rows dropped. */
const amount = z
  .string()
  .trim()
  .regex(/^(\d+(\.\d+)?)?$/, "an amount is a plain decimal (1500.00)");
const lineFields = Object.fromEntries(
  Array.from({ length: JOURNAL_FORM_LINES }, (_, i) => [
    [`account${i}`, z.string().optional()],
    [`currency${i}`, z.string().trim().toUpperCase().optional()],
    [`partnerId${i}`, z.string().trim().optional()],
    [`debit${i}`, amount.optional()],
    [`credit${i}`, amount.optional()],
  ]).flat(),
) as Record<string, z.ZodOptional<z.ZodString>>;

// Posting is under dual control: the journal is recorded PROPOSED and a second admin approves it on the Approvals page.
export const proposeManualJournal = consoleCommand(
  "admin",
  z.object({ memo: z.string().trim().min(3).max(500), reference: z.string().trim().max(140).optional(), ...lineFields }),
  (form) => {
    const fields = form as Record<string, string | undefined>;
    const lines = Array.from({ length: JOURNAL_FORM_LINES }, (_, i) => ({
      account: fields[`account${i}`] ?? "",
      currency: fields[`currency${i}`] ?? "",
      partnerId: fields[`partnerId${i}`] || null,
      debit: fields[`debit${i}`] ?? "",
      credit: fields[`credit${i}`] ?? "",
    })).filter((line) => line.account || line.debit || line.credit);
    return { command: postManualJournal, input: { memo: form.memo, reference: form.reference, lines }, reason: form.memo };
  },
);

export const discardManualJournal = consoleAction("admin", z.object({ id: z.string().min(1) }), async ({ tx, input, operator, now }) => {
  const row = await withdrawJournal(tx, { ...input, operator, now });
  return `Journal ${row.id} is now ${row.state}.`;
});

// Cash out of the collection account: under dual control, never above what is owed.
export const payPartnerFees = consoleCommand(
  "admin",
  z.object({
    partnerId: z.string().trim().min(1),
    currency: z.string().trim().toUpperCase().length(3),
    amount: z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, "a plain decimal (25.00)"),
    bankReference: z.string().trim().min(1).max(140),
  }),
  (input) => ({ command: pay, input, reason: `Partner fees paid, bank reference ${input.bankReference}` }),
);

export const explainStatementDifference = consoleCommand(
  "admin",
  z.object({ id: z.string().min(1), explanation: z.string().trim().min(3).max(500) }),
  (input) => ({ command: explain, input, reason: input.explanation }),
);
