"use server";
import { z } from "zod";
import { topUpPrefundingCommand } from "@/lib/operations/commands/payouts";
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
