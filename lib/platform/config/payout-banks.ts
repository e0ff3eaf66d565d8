import { isValidBIC, isValidIBAN } from "ibantools";
import { z } from "zod";
import { isValidClabe } from "@/lib/platform/bank-identifiers/clabe";

/**
 * A national account number and its scheme, for a payout bank whose accounts have no IBAN (issue
 * 20 item 2): pain.001 then names it as DbtrAcct/Id/Othr with the scheme. CLABE (Mexico: 18
 * digits, the check digit of lib/platform/bank-identifiers/clabe.ts, weights 3-7-1) is checked; BBAN is
 * any other domestic account number as the bank writes it (ISO 20022 code BBAN).
 */
export const DEBTOR_ACCOUNT_SCHEMES = ["CLABE", "BBAN"] as const;
export type DebtorAccountScheme = (typeof DEBTOR_ACCOUNT_SCHEMES)[number];

const debtorAccountSchema = z
  .strictObject({
    scheme: z.enum(DEBTOR_ACCOUNT_SCHEMES, `one of ${DEBTOR_ACCOUNT_SCHEMES.join(", ")}`),
    id: z
      .string()
      .transform((v) => v.replace(/[\s-]+/g, "").toUpperCase())
      .refine((v) => /^[A-Z0-9]{1,34}$/.test(v), "letters and digits, at most 34"),
  })
  .superRefine((a, ctx) => {
    if (a.scheme === "CLABE" && !isValidClabe(a.id)) ctx.addIssue({ code: "custom", path: ["id"], message: "not a valid CLABE (18 digits, check digit)" });
  });

/** ISO 20022 ChargeBearerType1Code. */
export const CHARGE_BEARERS = ["DEBT", "CRED", "SHAR", "SLEV"] as const;

/**
 * The payout banks of the pain.001 file rail: our account at each bank (the
 * debtor of every credit transfer in its files: `debtorIban`, or `debtorAccount` {scheme, id} for
 * a national account) and the destination currencies it pays out. PAYOUT_BANKS is a JSON list,
 * checked at start; a currency served by two banks goes to the first.
 */
export const payoutBankSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,30}$/, "lower-case id, up to 31 characters"),
    name: z.string().trim().min(1).max(70),
    bic: z.string().refine((v) => isValidBIC(v), "not a BIC"),
    debtorIban: z
      .string()
      .transform((v) => v.replace(/\s+/g, "").toUpperCase())
      .superRefine((v, ctx) => {
        if (isValidIBAN(v)) return;
        // The trial's mistake: a CLABE in the IBAN field. Say where it goes instead.
        const hint = isValidClabe(v) ? ' (this is a CLABE: give it as "debtorAccount": {"scheme": "CLABE", "id": "..."})' : "";
        ctx.addIssue({ code: "custom", message: `not a valid IBAN${hint}` });
      })
      .optional(),
    debtorAccount: debtorAccountSchema.optional(),
    debtorName: z.string().trim().min(1).max(70),
    currencies: z.array(z.string().regex(/^[A-Z]{3}$/, "ISO 4217 code")).min(1),
    /** pain.001 ChrgBr: who pays the banks' charges; unset: DEBT (we do). */
    chargeBearer: z.enum(CHARGE_BEARERS).optional(),
    /**
     * The bank's IANA time zone: its business days (ReqdExctnDt) start and end there, with the
     * holidays of its BIC's country. Unset: COLLECTION_ACCOUNT_TIME_ZONE.
     */
    timeZone: z
      .string()
      .trim()
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat("en", { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, "an IANA time zone (Europe/Berlin)")
      .optional(),
    /** pain.001 Purp/Cd: the ISO 20022 external purpose code the bank asks for (e.g. FAMI, SUPP), if any. */
    purposeCode: z
      .string()
      .regex(/^[A-Z0-9]{1,4}$/, "an ISO 20022 purpose code (up to 4 letters or digits)")
      .optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.debtorIban === undefined) === (b.debtorAccount === undefined)) {
      ctx.addIssue({ code: "custom", message: "exactly one of debtorIban and debtorAccount ({scheme, id}) is needed" });
    }
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
    chargeBearer: "DEBT",
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
