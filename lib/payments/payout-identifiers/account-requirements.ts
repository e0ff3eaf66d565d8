/**
 * Account requirements as data (data/account-requirements/v1.json): what a payout needs per
 * destination country, currency and method, the form's fields with their format, and the
 * beneficiary's data; above ORIGINATOR_DATA_THRESHOLD (in ORIGINATOR_DATA_THRESHOLD_CURRENCY, the
 * send amount converted at the reference rate) the originator's date of birth, address and
 * identifier (FATF Recommendation 16) too. GET /v1/core/account-requirements answers from it and
 * submit validates the destination and the originator against the same data.
 */
import { z } from "zod";
import rawRequirements from "@/data/account-requirements/v1.json";
import countries from "@/lib/platform/i18n/iso-countries";
import { config } from "@/lib/platform/config";
import { validationError, type ValidationIssue } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import { roundToMinorUnit } from "@/lib/platform/money/format";
import { corridorByCode } from "@/lib/payments/corridors/corridors";
import { tableInForce, tableOfVersion, type CorridorTable } from "@/lib/payments/corridors/versions";
import { clock } from "@/lib/platform/clock";
import { requirementSchema, type AccountRequirement } from "./requirement-schema";
import type { ReferenceRateProvider } from "@/lib/payments/pricing/reference-rate";

const fileSchema = z.strictObject({
  $comment: z.string().optional(),
  version: z.string(),
  requirements: z.array(requirementSchema),
});

export type { AccountRequirement } from "./requirement-schema";

/** Validates a requirements file, its regexes compiled (exported for tests). */
export function loadRequirementsFile(raw: unknown) {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid account requirements data:\n${z.prettifyError(parsed.error)}`);
  for (const r of parsed.data.requirements) for (const f of r.fields) if (f.regex) new RegExp(f.regex);
  return parsed.data;
}

const shipped = loadRequirementsFile(rawRequirements);

/**
 * The requirements of a configuration version (docs/decisions.md "Account requirements in a
 * configuration version"): its own list when it has one, else the shipped file's. Default: the
 * version in force now.
 */
function requirementsOf(table: CorridorTable = tableInForce(clock.now())): readonly AccountRequirement[] {
  return table.accountRequirements ?? shipped.requirements;
}

/** A send amount with its currency. */
export interface SendAmount {
  amount: string;
  currency: string;
}

/**
 * The send amount in the threshold's currency (ORIGINATOR_DATA_THRESHOLD_CURRENCY) at the
 * reference rate of `now`, rounded to that currency's minor unit; null when no rate converts it.
 * The rates are asked for only when the currencies differ.
 */
export async function inThresholdCurrency(send: SendAmount, rates: () => Promise<ReferenceRateProvider>, now: Date): Promise<Decimal | null> {
  const to = config().ORIGINATOR_DATA_THRESHOLD_CURRENCY;
  const amount = new Decimal(send.amount);
  if (send.currency === to) return amount;
  const provider = await rates();
  try {
    return roundToMinorUnit(amount.times(provider.rate({ from: send.currency, to }, now)), to);
  } catch {
    try {
      return roundToMinorUnit(amount.dividedBy(provider.rate({ from: to, to: send.currency }, now)), to);
    } catch {
      return null;
    }
  }
}

/**
 * Whether a payout of this send amount carries the originator's data: strictly above the threshold
 * once converted into its currency. An amount no rate converts is taken as above (the data is
 * asked for: the safe side, as dual control's threshold does).
 */
export async function aboveOriginatorThreshold(send: SendAmount, rates: () => Promise<ReferenceRateProvider>, now: Date): Promise<boolean> {
  const converted = await inThresholdCurrency(send, rates, now);
  return converted === null || converted.gt(config().ORIGINATOR_DATA_THRESHOLD);
}

/** The originator's data a payout above the threshold needs (empty at or under it). */
export function originatorRequirements(above: boolean): { key: string; required: boolean; description: string }[] {
  if (!above) return [];
  return [
    { key: "dateOfBirth", required: true, description: "The customer's date of birth (profile)." },
    { key: "address", required: true, description: "The customer's residence address, structured (profile)." },
    { key: "identifier", required: true, description: "The customer's identifier at the service: sent by the service." },
  ];
}

/** The requirement of a country (alpha-2 or alpha-3), currency and method; undefined when no corridor pays it. */
export function requirementFor(country: string, currency: string, method: string): AccountRequirement | undefined {
  const alpha2 = country.length === 3 ? countries.alpha3ToAlpha2(country.toUpperCase()) : country.toUpperCase();
  return requirementsOf().find((r) => r.country === alpha2 && r.currency === currency.toUpperCase() && r.method === method);
}

/**
 * The answer of GET /v1/core/account-requirements. The amount is the send amount in the corridor's
 * origin currency (each destination is paid by one corridor), compared as submit compares it.
 */
export async function accountRequirements(
  input: { country: string; currency: string; method: string; amount?: string },
  context: { rates: () => Promise<ReferenceRateProvider>; now: Date },
) {
  const r = requirementFor(input.country, input.currency, input.method);
  if (!r) return undefined;
  const originCurrency = corridorByCode(r.corridor)?.originCurrency;
  const above =
    !!input.amount && !!originCurrency && (await aboveOriginatorThreshold({ amount: input.amount, currency: originCurrency }, context.rates, context.now));
  return {
    country: r.country,
    currency: r.currency,
    method: r.method,
    methodType: r.methodType,
    fields: r.fields,
    beneficiary: r.beneficiary,
    originator: originatorRequirements(above),
  };
}

/**
 * The destination (already normalised by the format check) against its requirement's field format:
 * the issue, or null. `version`: the transfer's configuration version (its terms), when recorded
 * and loaded; else the version in force.
 */
export function destinationIssue(corridor: string, method: string, identifier: string, version: number | null = null): ValidationIssue | null {
  const table = version === null ? undefined : tableOfVersion(String(version));
  const r = requirementsOf(table).find((x) => x.corridor === corridor && x.method === method);
  const field = r?.fields.find((f) => f.key === "destinationIdentifier");
  if (!field?.regex || new RegExp(field.regex).test(identifier)) return null;
  return {
    field: "payoutMethod.destinationIdentifier",
    code: "validation.fieldFormatInvalid",
    message: `The destination identifier must be ${field.description}.`,
  };
}

/**
 * The originator's data a transfer above the threshold is refused without, named: the customer's
 * date of birth and structured residence address (the identifier is the customer's id, always
 * there). Throws 400 validation.fieldMissing naming each missing field.
 */
export function checkOriginatorData(
  profile: { dateOfBirth?: string | null; residenceAddress?: { addressLine1?: string; city?: string; country?: string } | null } | null,
): void {
  const issues: ValidationIssue[] = [];
  if (!profile?.dateOfBirth)
    issues.push({
      field: "originator.dateOfBirth",
      code: "validation.fieldMissing",
      message: "The customer's date of birth is required above the originator data threshold.",
    });
  const a = profile?.residenceAddress;
  if (!a?.addressLine1 || !a.city || !a.country)
    issues.push({
      field: "originator.address",
      code: "validation.fieldMissing",
      message: "The customer's structured residence address is required above the originator data threshold.",
    });
  if (issues.length)
    throw validationError(
      issues,
      "validation.fieldMissing",
      `This payout needs the originator's ${issues.map((i) => i.field.replace("originator.", "")).join(" and ")} (update the customer's profile).`,
    );
}
