/**
 * Service pricing (decisions 6, SERVICE_PRICED partners): the service sets the rate from the
 * reference rate and computes every amount itself. The result always satisfies the pricing
 * envelope at `now`; priceQuote checks that before returning, so a pricing bug surfaces as an
 * error here rather than as a breach at acceptance.
 */
import { parseMoneyAmount } from "@/lib/platform/money/amount";
import { Decimal } from "@/lib/platform/money/decimal";
import { roundRate, roundToMinorUnit, toWireAmount, formatRate } from "@/lib/platform/money/format";
import { fxMarginFor, principalFeeFor, resolvePayoutMethod, type Corridor } from "@/lib/payments/corridors/corridors";
import { corridorType, type CorridorType, type PayoutMethod } from "@/lib/payments/corridors/payout-methods";
import { checkEnvelope, type EnvelopeTerms } from "./envelope";
import { envelopeTermsOfColumns } from "./priced-columns";
import type { ReferenceRateProvider } from "./reference-rate";

export interface PriceQuoteInput {
  corridor: Corridor;
  /** Lower-case corridor payout method; the corridor's first when absent (decisions 6). */
  payoutMethod?: string;
  /** Wire decimal string in the origin currency (QuoteCreateRequest.originAmount). */
  originAmount: string;
  /** The partner asking: its own FX margin on the corridor applies (the corridor's when absent). */
  partnerId?: string;
  /** The partner's fee, wire decimal string in the origin currency; "0" when absent. */
  partnerFee?: string;
  now: Date;
  rates: ReferenceRateProvider;
}

/** Every amount in six-decimal wire form (spec 2.1, 8); fees and total in the origin currency. */
export interface PricedQuote {
  originAmount: string;
  destinationAmount: string;
  fxRate: string;
  principalFee: string;
  partnerFee: string;
  totalCustomerCost: string;
  currencies: { origin: string; destination: string };
  payoutMethod: PayoutMethod;
  corridorType: CorridorType;
}

/**
 * Throws a 400 validation error for an originAmount that is not a positive wire decimal payable
 * in the origin currency (or a malformed partnerFee), validation.methodNotAvailableForCorridor
 * for a payout method the corridor lacks, and quote.envelopeBreach for a partner fee above the
 * corridor's cap.
 */
export function priceQuote(input: PriceQuoteInput): PricedQuote {
  const { corridor, now, rates } = input;
  const origin = corridor.originCurrency;
  const destination = corridor.destinationCurrency;
  const payoutMethod = resolvePayoutMethod(corridor, input.payoutMethod);
  const originAmount = parseMoneyAmount(input.originAmount, origin, { field: "originAmount" });
  const partnerFee = parseMoneyAmount(input.partnerFee ?? "0", origin, { field: "partnerFee", allowZero: true });

  // Round the rate first: the amounts must follow from the rate the customer is shown. The margin
  // is what the service keeps of the exchange (the version's schema keeps it inside the tolerance).
  const reference = rates.rate({ from: origin, to: destination }, now);
  const margin = fxMarginFor(corridor, input.partnerId);
  const fxRate = roundRate(margin === undefined || margin.isZero() ? reference : reference.times(new Decimal(1).minus(margin)));
  const destinationAmount = roundToMinorUnit(originAmount.times(fxRate), destination);
  const principalFee = principalFeeFor(corridor, originAmount);
  // Exact: every term has at most the origin currency's minor-unit decimals.
  const total = originAmount.plus(principalFee).plus(partnerFee);

  const priced: PricedQuote = {
    originAmount: toWireAmount(originAmount),
    destinationAmount: toWireAmount(destinationAmount),
    fxRate: formatRate(fxRate),
    principalFee: toWireAmount(principalFee),
    partnerFee: toWireAmount(partnerFee),
    totalCustomerCost: toWireAmount(total),
    currencies: { origin, destination },
    payoutMethod,
    corridorType: corridorType(payoutMethod),
  };
  checkEnvelope(envelopeTermsOf(priced), corridor, now, rates);
  return priced;
}

/** The priced terms under their spec 5.4 claim names, for signing and for the envelope. */
export function envelopeTermsOf(quote: PricedQuote): EnvelopeTerms {
  return envelopeTermsOfColumns({ ...quote, originCurrency: quote.currencies.origin, destinationCurrency: quote.currencies.destination });
}
