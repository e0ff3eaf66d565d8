import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { customers, disclosures } from "@/db/schema";
import { randomToken, sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import { DISCLOSURE_VERSION, disclosureTexts } from "@/lib/platform/i18n/disclosure-texts";
import { chooseLanguage } from "@/lib/platform/i18n/language";
import { Decimal } from "@/lib/platform/money/decimal";
import { formatRate, toWireAmount } from "@/lib/platform/money/format";
import { corridorOfQuote } from "@/lib/payments/corridors/corridors";
import { EEA_COUNTRIES } from "@/lib/payments/delivery/eea";
import { estimateDeliveryBy } from "@/lib/payments/delivery/estimates";
import { referenceRates } from "@/lib/payments/pricing/rate-store";
import { providers } from "@/lib/payments/providers";
import { providerOf, recipientNameOf } from "@/lib/payments/receipts/receipt";
import { residenceAddressOf, timeZoneOfAddress } from "@/lib/identity";
import { quoteExpired, quoteInScope, quoteStatus } from "./records";

type QuoteRow = Awaited<ReturnType<typeof quoteInScope>>;

/**
 * What disclosure v3 adds: the recipient, the date available if paid now, the
 * provider's contact, and with an EEA origin the rate's mark-up over the reference rate (the ECB's
 * in production, percent with two decimals; omitted when no reference rate quotes the pair).
 */
async function consumerFacts(tx: Tx, quote: QuoteRow, now: Date) {
  const corridor = corridorOfQuote(quote);
  const estimatedDeliveryBy = estimateDeliveryBy(quote.corridor, quote.payoutMethod, now, corridor)?.toISOString();
  let conversionChargeOverEcbRate: { percentage: string; referenceRate: string; referenceRateSource: string } | undefined;
  if (corridor && EEA_COUNTRIES.has(corridor.originCountry.alpha2)) {
    const reference = await referenceRateOf(tx, quote.originCurrency, quote.destinationCurrency, now);
    if (reference && !reference.isZero()) {
      const markUp = reference.minus(quote.fxRate).dividedBy(reference).times(100);
      conversionChargeOverEcbRate = {
        percentage: markUp.toFixed(2),
        referenceRate: formatRate(reference),
        referenceRateSource: providers().referenceRates === "ecb" ? "ECB" : "sandbox",
      };
    }
  }
  return {
    recipientName: await recipientNameOf(tx, quote.beneficiaryId),
    provider: await providerOf(tx, quote.partnerId),
    estimatedDeliveryBy,
    conversionChargeOverEcbRate,
  };
}

async function referenceRateOf(tx: Tx, from: string, to: string, now: Date): Promise<Decimal | null> {
  try {
    return (await referenceRates(tx)).rate({ from, to }, now);
  } catch {
    return null; // no published rate for the pair: nothing to compare with, the line is left out
  }
}

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
  const [customer] = await tx
    .select({ preferredLanguage: customers.preferredLanguage, profile: customers.profile })
    .from(customers)
    .where(eq(customers.id, input.customerId));
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
  const consumer = await consumerFacts(tx, quote, input.now);
  const content = disclosureTexts(language, {
    recipientName: consumer.recipientName,
    dateAvailable: consumer.estimatedDeliveryBy,
    provider: consumer.provider,
    conversionCharge: consumer.conversionChargeOverEcbRate,
    originAmount: quote.originAmount,
    originCurrency: quote.originCurrency,
    destinationAmount: quote.destinationAmount,
    destinationCurrency: quote.destinationCurrency,
    fees: totalFees,
    rate: quote.fxRate,
    total: quote.totalCustomerCost,
    expiresAt: quote.validUntil.toISOString(),
    timeZone: timeZoneOfAddress(residenceAddressOf(customer?.profile)),
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
      ...(consumer.estimatedDeliveryBy ? { estimatedDeliveryBy: consumer.estimatedDeliveryBy } : {}),
      recipientName: consumer.recipientName,
      provider: consumer.provider,
      ...(consumer.conversionChargeOverEcbRate ? { conversionChargeOverEcbRate: consumer.conversionChargeOverEcbRate } : {}),
      language,
      version: DISCLOSURE_VERSION,
      content,
    },
  };
}
