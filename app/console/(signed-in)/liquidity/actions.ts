"use server";
import { z } from "zod";
import { importPrefundingStatementCommand, topUpPrefundingCommand } from "@/lib/operations/commands/payouts";
import { consoleCommand } from "@/lib/operations/console/action";

// Money to a payout provider from the operating account: under dual control (a second admin approves).
export const topUpPrefunding = consoleCommand(
  "admin",
  z.object({
    provider: z.string().trim().min(1),
    currency: z.string().trim().toUpperCase().length(3),
    amount: z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, "a plain decimal (25000.00)"),
    bankReference: z.string().trim().min(1).max(140),
  }),
  (input) => ({ command: topUpPrefundingCommand, input, reason: `Prefunding top-up, bank reference ${input.bankReference}` }),
);

// Console forms carry 1 MiB at most (next.config.mjs); a statement is a few lines per currency.
const MAX_STATEMENT_BYTES = 256 * 1024;

// A payout provider's balance statement file, read before the transaction opens, set against our prefunding.
export const importPrefundingStatement = consoleCommand(
  "admin",
  z.object({
    provider: z.string().trim().min(1),
    statement: z
      .instanceof(File)
      .refine((f) => f.size > 0 && f.size <= MAX_STATEMENT_BYTES, "a statement file of at most 256 KB (or npm run prefunding-statement:import)"),
  }),
  {
    prepare: (form) => form.statement.text(),
    ask: (form, text) => ({ command: importPrefundingStatementCommand, input: { provider: form.provider, name: form.statement.name, text } }),
  },
);
