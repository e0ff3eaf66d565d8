/**
 * The corridor table: versioned data in data/corridors (decisions 6: corridors are
 * configuration), validated at load. Lookups accept the alpha-3 codes of profiles (spec 2.1)
 * and the alpha-2 codes of corridor codes.
 */
import { z } from "zod";
import rawCorridors from "@/data/corridors/v2.json";
import { validationError } from "@/lib/platform/errors";
import type { Decimal } from "@/lib/platform/money/decimal";
import { corridorFileSchema, type Corridor } from "./schema";
import { isPayoutMethod, type PayoutMethod } from "./payout-methods";

export type { Corridor } from "./schema";

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    // Decimal instances are immutable already; freezing them is harmless but skipped for speed.
    for (const child of Object.values(value)) if (Array.isArray(child) || child?.constructor === Object) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Validates a corridor data file; throws with every problem listed. Exported for tests. */
export function loadCorridorFile(raw: unknown): { version: string; corridors: readonly Corridor[] } {
  const result = corridorFileSchema.safeParse(raw);
  if (!result.success) throw new Error(`Invalid corridor data:\n${z.prettifyError(result.error)}`);
  const { version, corridors } = result.data;
  return deepFreeze({ version, corridors });
}

const table = loadCorridorFile(rawCorridors);

/** Version of the corridor data in force ("v2"); record it with each quote for audit. */
export const CORRIDOR_DATA_VERSION: string = table.version;

export function listCorridors(): readonly Corridor[] {
  return table.corridors;
}

export function corridorByCode(code: string): Corridor | undefined {
  return table.corridors.find((c) => c.code === code);
}

function matchesCountry(country: Corridor["originCountry"], code: string): boolean {
  const upper = code.toUpperCase();
  return country.alpha2 === upper || country.alpha3 === upper;
}

/**
 * The corridor from the customer's residence to the beneficiary's country of residence
 * (decisions 6), each as alpha-2 or alpha-3; undefined when no corridor serves the pair.
 */
export function findCorridor(origin: string, destination: string): Corridor | undefined {
  return table.corridors.find((c) => matchesCountry(c.originCountry, origin) && matchesCountry(c.destinationCountry, destination));
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
