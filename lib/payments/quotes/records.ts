import { and, eq, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { prepared } from "@/db/prepared";
import type { Executor } from "@/db";
import { quotes } from "@/db/schema";
import { estimateDeliveryBy } from "@/lib/payments/delivery/estimates";
import { corridorOfQuote, fundingMethodsOf } from "@/lib/payments/corridors/corridors";
import { FUNDING_METHODS } from "@/lib/payments/corridors/funding-methods";
import type { ReadWithCaller } from "@/lib/platform/read-with-caller";
import { DomainError, type StatusOf } from "@/lib/platform/errors";

export type QuoteRow = typeof quotes.$inferSelect;

/** A quote of the calling subscription; another customer's answers like a missing one (spec 7). */
export async function quoteInScope(db: Executor, subscriptionId: string, quoteId: string): Promise<QuoteRow> {
  const q = (e: Executor) =>
    e
      .select()
      .from(quotes)
      .where(and(eq(quotes.id, sql.placeholder("quoteId")), eq(quotes.subscriptionId, sql.placeholder("subscriptionId"))));
  const query = prepared(db, "quote_in_scope", (e) => q(e).prepare("quote_in_scope"));
  const [row] = await query.execute({ quoteId, subscriptionId });
  if (!row) throw quoteNotFound();
  return row;
}

/**
 * The quote the path names, by its primary key alone, for a join to the caller: planned on its own
 * (its LIMIT keeps it out of the join), a probe of quotes_pkey, never a walk of the customer's
 * quotes by quotes_subscription_idx (lib/payments/transfers/detail-query.ts transferById says why).
 */
const quoteById = new QueryBuilder()
  .select()
  .from(quotes)
  .where(eq(quotes.id, sql.placeholder("quoteId")))
  .limit(1)
  .as("quotes");

/**
 * quoteInScope in its caller's statement: the quote keyed by the path's id, then
 * checked against the token's subscription; another customer's is not found, as above.
 */
export const quoteWithCaller: ReadWithCaller<{ params: { quoteId: string } }, QuoteRow> = {
  name: "quote_in_scope",
  fields: { quote: quotes },
  join: (query, caller) => query.leftJoin(quoteById, eq(quoteById.subscriptionId, caller.subscriptionId)).limit(1),
  values: ({ params }) => ({ quoteId: params.quoteId }),
  answer: ([row]) => {
    if (!row?.quote) throw quoteNotFound();
    return row.quote as QuoteRow;
  },
};

export const quoteNotFound = () => new DomainError("quote.notFound", { message: "No such quote." });

/** Lifecycle status (decisions section 6): derived from the clock, never stale. */
export function quoteStatus(row: QuoteRow, now: Date): "AVAILABLE" | "ACCEPTED" | "EXPIRED" {
  if (row.acceptedAt) return "ACCEPTED";
  return row.validUntil.getTime() <= now.getTime() ? "EXPIRED" : "AVAILABLE";
}

/** QuoteResponse (spec 2.5 + decisions section 6). */
export function quoteView(row: QuoteRow, now: Date) {
  const corridor = corridorOfQuote(row);
  return {
    quoteId: row.id,
    originAmount: row.originAmount,
    originCurrency: row.originCurrency,
    destinationAmount: row.destinationAmount,
    destinationCurrency: row.destinationCurrency,
    fxRate: row.fxRate,
    principalFee: row.principalFee,
    partnerFee: row.partnerFee,
    totalCustomerCost: row.totalCustomerCost,
    totalCustomerCostCurrency: row.originCurrency,
    quoteValidUntil: row.validUntil.toISOString(),
    // Ours: when the money would be available if the transfer were funded now. Absent
    // (undefined, which JSON leaves out) for a pair without data; no spread.
    estimatedDeliveryBy: estimateDeliveryBy(row.corridor, row.payoutMethod, now, corridor)?.toISOString(),
    corridor: {
      originCountry: corridor?.originCountry.alpha3 ?? row.corridor.slice(0, 2),
      destinationCountry: corridor?.destinationCountry.alpha3 ?? row.corridor.slice(3),
      payoutMethod: row.payoutMethod,
      // Ours: the methods a transfer accepted from this quote may be paid with (it keeps the quote's version).
      fundingMethods: [...(corridor ? fundingMethodsOf(corridor) : FUNDING_METHODS)],
    },
    signedQuote: row.signedQuote,
    status: quoteStatus(row, now),
  };
}

/**
 * quote.expired with QuoteExpiredDetails (spec 7). No retry_later hint: spec 7 says never retry
 * quote.expired blindly; the way out is a new quote accepted with a new Idempotency-Key.
 */
export function quoteExpired(row: QuoteRow, status: StatusOf<"quote.expired"> = 410): DomainError {
  return new DomainError("quote.expired", {
    message: "The quote has expired. Create a new quote and accept it with a new Idempotency-Key.",
    status,
    hint: "create_new_quote",
    details: { quoteId: row.id, quoteExpiredAt: row.validUntil.toISOString() },
  });
}
