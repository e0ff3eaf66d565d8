/**
 * A partner's limits: its limit currency and a limit per tier and window,
 * edited in the console (Partners page). One domain function, so dual control (docs/decisions.md,
 * "Dual control") can wrap it as a proposal without another path.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { partners } from "@/db/schema";
import { DomainError, validationError } from "@/lib/platform/errors";
import { isCurrencyCode, minorUnitExponent } from "@/lib/platform/money/currency";
import { tryParseWireDecimal } from "@/lib/platform/money/decimal";
import { listCorridors } from "@/lib/payments/corridors/corridors";
import { tableInForce } from "@/lib/payments/corridors/versions";
import type { ReferenceRateProvider } from "@/lib/payments/pricing/reference-rate";
import { LIMIT_WINDOWS, VERIFICATION_TIERS, tierLimitsOf, type LimitWindow, type TierLimits, type VerificationTier } from "./tiers";

export interface PartnerLimits {
  currency: string;
  limits: TierLimits;
}

const windowLimits = z.object({ P1D: z.string(), P30D: z.string(), P180D: z.string() }) satisfies z.ZodType<Record<LimitWindow, string>>;
/** The shape of a change (the dual-control proposal's payload); the values are checked by setPartnerLimits. */
export const PartnerLimitsChange = z.object({
  currency: z.string(),
  limits: z.object({ "1": windowLimits, "2": windowLimits }),
}) satisfies z.ZodType<PartnerLimits>;

/** The limits a partner's customers have at `now`: its own, else the configuration version's in force. */
export function partnerTierLimits(partner: { tierLimits: TierLimits | null }, now: Date): TierLimits {
  return tierLimitsOf(partner, tableInForce(now).tierLimits);
}

/** Every limit a positive amount in the currency's minor unit, and a higher tier never below a lower one. */
function checked(input: PartnerLimits): PartnerLimits {
  if (!isCurrencyCode(input.currency)) {
    throw validationError([{ field: "currency", code: "validation.fieldInvalid", message: "An ISO 4217 currency code, e.g. USD." }]);
  }
  const places = minorUnitExponent(input.currency);
  const issues: { field: string; code: "validation.fieldInvalid"; message: string }[] = [];
  for (const tier of VERIFICATION_TIERS) {
    for (const w of LIMIT_WINDOWS) {
      const field = `tier${tier}.${w}`;
      const value = tryParseWireDecimal(input.limits[`${tier}`]?.[w]);
      const lower = tier > 1 ? tryParseWireDecimal(input.limits[`${(tier - 1) as VerificationTier}`]?.[w]) : null;
      if (value === null || value.isZero() || value.decimalPlaces() > places) {
        issues.push({ field, code: "validation.fieldInvalid", message: `A positive amount with at most ${places} decimals.` });
      } else if (lower !== null && value.lt(lower)) {
        issues.push({ field, code: "validation.fieldInvalid", message: `Tier ${tier} may not be below tier ${tier - 1}.` });
      }
    }
  }
  if (issues.length > 0) throw validationError(issues);
  return input;
}

/** Every corridor's origin currency must convert into the limit currency, or accepts would fail. */
function convertible(currency: string, rates: ReferenceRateProvider, now: Date): void {
  for (const origin of new Set(listCorridors().map((c) => c.originCurrency))) {
    if (origin === currency) continue;
    try {
      rates.rate({ from: origin, to: currency }, now);
    } catch {
      throw validationError([{ field: "currency", code: "validation.fieldInvalid", message: `No reference rate from ${origin} to ${currency}.` }]);
    }
  }
}

/** The change, refused (400) when a limit or the currency is not acceptable: when proposed, and again when applied. */
export function checkPartnerLimits(input: PartnerLimits, context: { rates: ReferenceRateProvider; now: Date }): PartnerLimits {
  const valid = checked(input);
  convertible(valid.currency, context.rates, context.now);
  return valid;
}

/** Sets a partner's limit currency and limits; answers before and after (the audit entry's). */
export async function setPartnerLimits(
  tx: Tx,
  partnerId: string,
  input: PartnerLimits,
  context: { rates: ReferenceRateProvider; now: Date },
): Promise<{ before: PartnerLimits; after: PartnerLimits }> {
  const { now } = context;
  const after = checkPartnerLimits(input, context);
  const [row] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for("update");
  if (!row) throw new DomainError("partner.notFound", { message: "No such partner." });
  await tx.update(partners).set({ limitCurrency: after.currency, tierLimits: after.limits, updatedAt: now }).where(eq(partners.id, partnerId));
  return { before: { currency: row.limitCurrency, limits: partnerTierLimits(row, now) }, after };
}
