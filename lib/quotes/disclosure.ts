import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { customers, disclosures } from "@/db/schema";
import { randomToken, sha256Hex } from "@/lib/crypto/hash";
import { DomainError } from "@/lib/errors";
import { DISCLOSURE_VERSION, disclosureTexts } from "@/lib/i18n/disclosure-texts";
import { chooseLanguage } from "@/lib/i18n/language";
import { Decimal } from "@/lib/money/decimal";
import { toWireAmount } from "@/lib/money/format";
import { quoteExpired, quoteInScope, quoteStatus } from "./records";

/**
 * GET /v1/core/quotes/{id}/disclosure (spec 4.1 rule 4). Each read serves a new single-use token
 * bound to the quote, the customer and the disclosure version; acceptance requires one.
 */
export async function serveDisclosure(
  tx: Tx,
  input: { subscriptionId: string; customerId: string; quoteId: string; acceptLanguage: string | null; now: Date },
) {
  const quote = await quoteInScope(tx, input.subscriptionId, input.quoteId);
  const status = quoteStatus(quote, input.now);
  if (status === "EXPIRED") throw quoteExpired(quote);
  if (status === "ACCEPTED")
    throw new DomainError("quote.invalid", { message: "This quote was already accepted.", details: { failedCheck: "alreadyAccepted" } });
  const [customer] = await tx.select({ preferredLanguage: customers.preferredLanguage }).from(customers).where(eq(customers.id, input.customerId));
  const language = chooseLanguage(input.acceptLanguage, customer?.preferredLanguage);
  const token = `dt_${randomToken(24)}`;
  await tx.insert(disclosures).values({
    tokenHash: sha256Hex(token),
    quoteId: quote.id,
    subscriptionId: input.subscriptionId,
    version: DISCLOSURE_VERSION,
    language,
    expiresAt: quote.validUntil,
    createdAt: input.now,
  });
  const totalFees = toWireAmount(new Decimal(quote.principalFee).plus(quote.partnerFee));
  const content = disclosureTexts(language, {
    originAmount: quote.originAmount,
    originCurrency: quote.originCurrency,
    destinationAmount: quote.destinationAmount,
    destinationCurrency: quote.destinationCurrency,
    fees: totalFees,
    rate: quote.fxRate,
    total: quote.totalCustomerCost,
    expiresAt: quote.validUntil.toISOString(),
  });
  return {
    language,
    body: {
      quoteId: quote.id,
      disclosureToken: token,
      originAmount: quote.originAmount,
      originCurrency: quote.originCurrency,
      destinationAmount: quote.destinationAmount,
      destinationCurrency: quote.destinationCurrency,
      fees: { principalFee: quote.principalFee, partnerFee: quote.partnerFee, totalFees, currency: quote.originCurrency },
      rate: quote.fxRate,
      expiresAt: quote.validUntil.toISOString(),
      language,
      version: DISCLOSURE_VERSION,
      content,
    },
  };
}
