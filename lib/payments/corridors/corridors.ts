/**
 * The corridor table: versioned data (decisions 6: corridors are configuration; ./versions.ts: a
 * version in force by effective time, seeded from data/corridors/v2.json), validated when loaded.
 * Lookups accept the alpha-3 codes of profiles (spec 2.1) and the alpha-2 codes of corridor codes;
 * without a version they read the version in force now.
 */
import { z } from "zod";
import { clock } from "@/lib/platform/clock";
import { DomainError, validationError } from "@/lib/platform/errors";
import type { Decimal } from "@/lib/platform/money/decimal";
import { deepFreeze } from "./freeze";
import { corridorFileSchema, type Corridor } from "./schema";
import { isPayoutMethod, type PayoutMethod } from "./payout-methods";
import { FUNDING_METHODS, type FundingMethod } from "./funding-methods";
import { tableInForce, tableOfVersion, type CorridorTable } from "./versions";

export type { Corridor } from "./schema";
export type { CorridorTable } from "./versions";

/** Validates a corridor data file; throws with every problem listed. Exported for tests. */
export function loadCorridorFile(raw: unknown): { version: string; corridors: readonly Corridor[] } {
  const result = corridorFileSchema.safeParse(raw);
  if (!result.success) throw new Error(`Invalid corridor data:\n${z.prettifyError(result.error)}`);
  const { version, corridors } = result.data;
  return deepFreeze({ version, corridors });
}

const inForce = (table?: CorridorTable) => table ?? tableInForce(clock.now());

/** The corridors of `table` (default: the version in force now). */
export function listCorridors(table?: CorridorTable): readonly Corridor[] {
  return inForce(table).corridors;
}

export function corridorByCode(code: string, table?: CorridorTable): Corridor | undefined {
  return inForce(table).byCode.get(code);
}

function matchesCountry(country: Corridor["originCountry"], code: string): boolean {
  const upper = code.toUpperCase();
  return country.alpha2 === upper || country.alpha3 === upper;
}

/**
 * The corridor from the customer's residence to the beneficiary's country of residence
 * (decisions 6), each as alpha-2 or alpha-3; undefined when no corridor serves the pair.
 */
export function findCorridor(origin: string, destination: string, table?: CorridorTable): Corridor | undefined {
  return inForce(table).corridors.find((c) => matchesCountry(c.originCountry, origin) && matchesCountry(c.destinationCountry, destination));
}

/**
 * The payout method a quote uses: the requested one if the corridor offers it, otherwise the
 * corridor's first (default) method when none was requested (decisions 6).
 */
export function resolvePayoutMethod(corridor: Corridor, requested?: unknown, field = "payoutMethod"): PayoutMethod {
  if (requested === undefined || requested === null) return corridor.payoutMethods[0]!;
  if (isPayoutMethod(requested) && corridor.payoutMethods.includes(requested)) return requested;
  throw validationError(
    [{ field, code: "validation.methodNotAvailableForCorridor", message: `${corridor.code} pays out by ${corridor.payoutMethods.join(", ")}.` }],
    "validation.methodNotAvailableForCorridor",
    "The payout method is not available for this corridor.",
  );
}

/** Operator review applies at or above the threshold (decisions 7), in the origin currency. */
export function isAtOrAboveReviewThreshold(corridor: Corridor, originAmount: Decimal): boolean {
  return originAmount.gte(corridor.reviewThreshold);
}

/**
 * The smallest amount a quote may send: below it, 400 validation.fieldInvalid at
 * `field` naming the minimum, so a customer is never quoted a transfer the fee mostly eats.
 */
export function checkMinimumAmount(corridor: Corridor, originAmount: Decimal, field = "originAmount"): void {
  if (originAmount.gte(corridor.minimumOriginAmount)) return;
  const minimum = `${corridor.minimumOriginAmount.toFixed(2)} ${corridor.originCurrency}`;
  const message = `The amount is below the minimum of ${minimum} for ${corridor.code}.`;
  throw validationError([{ field, code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);
}

/**
 * The largest amount a quote may send on the corridor (its maximumOriginAmount, when the version
 * sets one): above it, 400 validation.fieldInvalid at `field` naming the maximum.
 */
export function checkMaximumAmount(corridor: Corridor, originAmount: Decimal, field = "originAmount"): void {
  if (corridor.maximumOriginAmount === undefined || originAmount.lte(corridor.maximumOriginAmount)) return;
  const maximum = `${corridor.maximumOriginAmount.toFixed(2)} ${corridor.originCurrency}`;
  const message = `The amount is above the maximum of ${maximum} for ${corridor.code}.`;
  throw validationError([{ field, code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);
}

/** The principal fee of sending `originAmount`: its band's (the last whose fromOriginAmount it reaches), else principalFee. */
export function principalFeeFor(corridor: Corridor, originAmount: Decimal): Decimal {
  const bands = corridor.principalFeeBands;
  if (!bands) return corridor.principalFee;
  for (let i = bands.length - 1; i >= 0; i--) if (originAmount.gte(bands[i].fromOriginAmount)) return bands[i].fee;
  return corridor.principalFee;
}

/** What service pricing takes off the reference rate for `partnerId`: its own margin on the corridor, else the corridor's (0 when none). */
export function fxMarginFor(corridor: Corridor, partnerId: string | undefined): Decimal | undefined {
  return (partnerId === undefined ? undefined : corridor.partnerFxMargins?.[partnerId]) ?? corridor.fxMargin;
}

/**
 * A quote's corridor as the version it was priced under defined it (acceptance checks the quote
 * against the same prices); the version in force when this process has not loaded that one.
 */
export function corridorOfQuote(quote: { corridor: string; corridorDataVersion: string }): Corridor | undefined {
  return corridorByCode(quote.corridor, tableOfVersion(quote.corridorDataVersion));
}

/**
 * A transfer's corridor as the version it was priced under defined it (its methods and account
 * format are the ones its customer was offered); the version in force for a transfer accepted
 * before transfers recorded it, or when this process has not loaded that version.
 */
export function corridorOfTransfer(transfer: { corridor: string; configurationVersion: number | null }): Corridor | undefined {
  const table = transfer.configurationVersion === null ? undefined : tableOfVersion(String(transfer.configurationVersion));
  return corridorByCode(transfer.corridor, table) ?? corridorByCode(transfer.corridor);
}

/** How a customer may pay for a transfer on `corridor`: its fundingMethods, every method when it lists none. */
export function fundingMethodsOf(corridor: Corridor): readonly FundingMethod[] {
  return corridor.fundingMethods ?? FUNDING_METHODS;
}

/**
 * Refuses a funding method the transfer's corridor does not offer (409 funding.methodUnavailable):
 * `corridor` is the transfer's own version's (corridorOfTransfer), so a transfer keeps the methods
 * it was accepted under. A corridor no version defines refuses nothing (the transfer was accepted).
 */
export function checkFundingMethod(corridor: Corridor | undefined, method: FundingMethod): void {
  if (!corridor || fundingMethodsOf(corridor).includes(method)) return;
  const offered = fundingMethodsOf(corridor).join(", ");
  throw new DomainError("funding.methodUnavailable", {
    message: `${method === "CARD" ? "Card" : "Bank transfer"} is not offered on ${corridor.code} (it takes ${offered}).`,
    details: { method },
  });
}
