import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { bankCredits } from "@/db/schema";
import { validationError } from "@/lib/platform/errors";
import { BANK_CREDIT_STATES, type BankCreditState } from "./bank-credit-state-machine";

/**
 * Search of bank credits, every state: the history of matched credits and of
 * returns as well as the queue. An operator finds a credit without a reference by its amount,
 * payer, the reference or remittance text it carried, and its booking date.
 */
export interface CreditSearch {
  /** Exact amount, compared as a decimal ("102.9" finds 102.90). */
  amount?: string;
  /** Part of the payer's name or masked account, any case. */
  payer?: string;
  /** Part of the RF reference, the remittance text or the bank's entry reference. */
  reference?: string;
  /** Booking dates from and to (inclusive), YYYY-MM-DD. */
  from?: string;
  to?: string;
  state?: BankCreditState;
}

export const CREDIT_SEARCH_PAGE_SIZE = 50;

const refuse = (field: string, message: string) => validationError([{ field, code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The search's filters from a query string's values; a bad value is refused (400 validation.fieldInvalid naming it). */
export function creditSearchOf(raw: Record<string, string | undefined>): CreditSearch {
  const out: CreditSearch = {};
  const text = (v: string | undefined) => v?.trim() || undefined;
  const amount = text(raw.amount);
  if (amount !== undefined) {
    if (!/^\d{1,15}(\.\d{1,6})?$/.test(amount)) throw refuse("amount", "amount: a decimal such as 102.99");
    out.amount = amount;
  }
  for (const key of ["from", "to"] as const) {
    const v = text(raw[key]);
    if (v === undefined) continue;
    if (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw refuse(key, `${key}: a date YYYY-MM-DD`);
    out[key] = v;
  }
  if (out.from && out.to && out.from > out.to) throw refuse("to", "to: on or after from");
  const state = text(raw.state);
  if (state !== undefined) {
    if (!(BANK_CREDIT_STATES as readonly string[]).includes(state)) throw refuse("state", `state: one of ${BANK_CREDIT_STATES.join(", ")}`);
    out.state = state as BankCreditState;
  }
  const payer = text(raw.payer);
  if (payer) out.payer = payer.slice(0, 140);
  const reference = text(raw.reference);
  if (reference) out.reference = reference.slice(0, 140);
  return out;
}

export async function searchBankCredits(db: Executor, search: CreditSearch, page = 1) {
  const where: SQL[] = [];
  if (search.payer) where.push(or(ilike(bankCredits.payerName, like(search.payer)), ilike(bankCredits.payerAccount, like(search.payer)))!);
  if (search.reference) {
    const r = like(search.reference.replace(/\s+/g, ""));
    where.push(or(ilike(bankCredits.creditorReference, r), ilike(bankCredits.remittance, like(search.reference)), ilike(bankCredits.bankReference, r))!);
  }
  // Booking dates are ISO dates (or date-times) as the statement wrote them: compared as text on the date part.
  if (search.from) where.push(gte(bankCredits.bookingDate, search.from));
  if (search.to) where.push(lt(bankCredits.bookingDate, `${search.to}~`));
  if (search.state) where.push(eq(bankCredits.state, search.state));
  // Amounts are stored as the statement wrote them ("102.9" or "102.90"): compared as decimals in
  // SQL, so the page (and its limit) is of the matching credits, however old.
  if (search.amount) where.push(sql`${bankCredits.amount}::numeric = ${search.amount}::numeric`);
  const pageRows = await db
    .select()
    .from(bankCredits)
    .where(and(...where))
    .orderBy(desc(bankCredits.createdAt), desc(bankCredits.id))
    .limit(CREDIT_SEARCH_PAGE_SIZE + 1)
    .offset((page - 1) * CREDIT_SEARCH_PAGE_SIZE);
  return { items: pageRows.slice(0, CREDIT_SEARCH_PAGE_SIZE), hasMore: pageRows.length > CREDIT_SEARCH_PAGE_SIZE };
}
