/**
 * The pricing envelope (spec 4.1 rule 3, decisions 6): the bounds a quote's terms must respect,
 * checked when a quote is created and again at acceptance (spec 4.1 rule 5). Three measures:
 *   1. fx_rate within the corridor's tolerance of the reference rate at `now`;
 *   2. partner_fee between zero and the corridor's cap (and payable in the origin currency);
 *   3. the sums: principal_fee is the corridor's for send_amount (its fee band), total_consumer_cost = send_amount +
 *      principal_fee + partner_fee, receive_amount = send_amount x fx_rate rounded half-even
 *      to the destination currency's minor unit.
 * Values are compared as numbers, so "10.5" and "10.500000" are equal.
 */
import { DomainError } from "@/lib/platform/errors";
import { tryParseWireDecimal, type Decimal } from "@/lib/platform/money/decimal";
import { fitsMinorUnit, formatRate, roundRate, roundToMinorUnit, toWireAmount, WIRE_AMOUNT_PLACES } from "@/lib/platform/money/format";
import { principalFeeFor, type Corridor } from "@/lib/payments/corridors/corridors";
import type { ReferenceRateProvider } from "./reference-rate";

/** The priced terms, named as the signed-quote claims of spec 5.4 (all decimal strings). */
export interface EnvelopeTerms {
  send_amount: string;
  send_currency: string;
  receive_amount: string;
  receive_currency: string;
  fx_rate: string;
  principal_fee: string;
  partner_fee: string;
  total_consumer_cost: string;
}

export type EnvelopeMeasure = "fxRate" | "partnerFee" | "principalFee" | "totalConsumerCost" | "receiveAmount";

type MoneyField = Exclude<keyof EnvelopeTerms, "send_currency" | "receive_currency">;

/** A value for error details: six-decimal wire form when exact, else the exact plain decimal. */
function show(d: Decimal): string {
  return d.decimalPlaces() <= WIRE_AMOUNT_PLACES ? toWireAmount(d) : d.toFixed();
}

function breach(measure: EnvelopeMeasure, expected: string, actual: string, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError("quote.envelopeBreach", {
    message: `The quote is outside the pricing envelope (${measure}).`,
    details: { measure, expected, actual, ...extra },
  });
}

function read(terms: EnvelopeTerms, field: MoneyField): Decimal {
  const value = tryParseWireDecimal(terms[field]);
  if (value === null) {
    throw new DomainError("quote.invalid", { message: `${field} is not a decimal string.`, details: { field } });
  }
  return value;
}

/**
 * Throws quote.envelopeBreach naming the first failing measure (in the order above), or
 * quote.invalid / quote.bindingMismatch when the terms are unreadable or in other currencies
 * than the corridor's (the measures would compare unlike things).
 */
export function checkEnvelope(terms: EnvelopeTerms, corridor: Corridor, now: Date, rates: ReferenceRateProvider): void {
  for (const [field, expected] of [
    ["send_currency", corridor.originCurrency],
    ["receive_currency", corridor.destinationCurrency],
  ] as const) {
    if (terms[field] !== expected) {
      throw new DomainError("quote.bindingMismatch", {
        message: `${field} does not match the corridor ${corridor.code}.`,
        details: { field, expected, actual: terms[field] },
      });
    }
  }
  const send = read(terms, "send_amount");
  const receive = read(terms, "receive_amount");
  const fxRate = read(terms, "fx_rate");
  const principalFee = read(terms, "principal_fee");
  const partnerFee = read(terms, "partner_fee");
  const total = read(terms, "total_consumer_cost");

  // 1. Rate: inclusive band reference x (1 +- tolerance), at the time of the check. The reference
  // is rounded as service pricing rounds it, so a service-priced rate sits at the band's centre.
  const reference = roundRate(rates.rate({ from: corridor.originCurrency, to: corridor.destinationCurrency }, now));
  const band = reference.times(corridor.fxTolerance);
  const min = reference.minus(band);
  const max = reference.plus(band);
  if (fxRate.lt(min) || fxRate.gt(max)) {
    throw breach("fxRate", `${min.toFixed()}..${max.toFixed()}`, terms.fx_rate, {
      referenceRate: formatRate(reference),
      tolerance: corridor.fxTolerance.toFixed(),
    });
  }

  // 2. Partner fee: 0 <= fee <= cap (the wire form cannot be negative), in whole minor units
  // because the customer is charged it.
  const feeRange = `${toWireAmount(0n)}..${show(corridor.partnerFeeCap)}`;
  if (partnerFee.gt(corridor.partnerFeeCap)) throw breach("partnerFee", feeRange, terms.partner_fee);
  if (!fitsMinorUnit(partnerFee, corridor.originCurrency)) {
    throw breach("partnerFee", feeRange, terms.partner_fee, { reason: "minorUnit" });
  }

  // 3. Sums.
  // The fee of the send amount's band (the corridor's principal fee when it has no bands).
  const expectedFee = principalFeeFor(corridor, send);
  if (!principalFee.eq(expectedFee)) {
    throw breach("principalFee", show(expectedFee), terms.principal_fee);
  }
  const expectedTotal = send.plus(principalFee).plus(partnerFee);
  if (!total.eq(expectedTotal)) throw breach("totalConsumerCost", show(expectedTotal), terms.total_consumer_cost);
  const expectedReceive = roundToMinorUnit(send.times(fxRate), corridor.destinationCurrency);
  if (!receive.eq(expectedReceive)) throw breach("receiveAmount", show(expectedReceive), terms.receive_amount);
}
