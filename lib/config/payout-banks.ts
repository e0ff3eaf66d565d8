import { isValidBIC, isValidIBAN } from "ibantools";
import { z } from "zod";

/**
 * The payout banks of the pain.001 file rail (issue 12 item 4): our account at each bank (the
 * debtor of every credit transfer in its files) and the destination currencies it pays out.
 * PAYOUT_BANKS is a JSON list, checked at start; a currency served by two banks goes to the first.
 */
export const payoutBankSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,30}$/, "lower-case id, up to 31 characters"),
  name: z.string().trim().min(1).max(70),
  bic: z.string().refine((v) => isValidBIC(v), "not a BIC"),
  debtorIban: z
    .string()
    .transform((v) => v.replace(/\s+/g, "").toUpperCase())
    .refine((v) => isValidIBAN(v), "not a valid IBAN"),
  debtorName: z.string().trim().min(1).max(70),
  currencies: z.array(z.string().regex(/^[A-Z]{3}$/, "ISO 4217 code")).min(1),
});
export type PayoutBank = z.output<typeof payoutBankSchema>;

/** Sandbox default when PAYOUT_BANKS is unset: one simulated bank paying every corridor currency. */
export const SANDBOX_PAYOUT_BANKS: PayoutBank[] = [
  {
    id: "sandbox",
    name: "Sandbox Payout Bank",
    bic: "SBOXDEFFXXX",
    debtorIban: "DE89370400440532013000",
    debtorName: "Remit Sandbox Ltd",
    currencies: ["MXN", "PHP", "NGN", "XOF", "COP", "EUR", "USD", "GBP"],
  },
];

export const payoutBanksSetting = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(v);
    } catch {
      ctx.addIssue({ code: "custom", message: "not JSON (a list of {id, name, bic, debtorIban, debtorName, currencies})" });
      return z.NEVER;
    }
    const parsed = z.array(payoutBankSchema).min(1).safeParse(raw);
    if (!parsed.success) {
      for (const i of parsed.error.issues) ctx.addIssue({ code: "custom", message: `${i.path.join(".")}: ${i.message}` });
      return z.NEVER;
    }
    const ids = parsed.data.map((b) => b.id);
    if (new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: "custom", message: "bank ids must be unique" });
      return z.NEVER;
    }
    return parsed.data;
  });
