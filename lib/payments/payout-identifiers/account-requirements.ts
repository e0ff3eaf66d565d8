/**
 * Account requirements as data (data/account-requirements/v1.json): what a payout needs per
 * destination country, currency and method, the form's fields with their format, and the
 * beneficiary's data; above ORIGINATOR_DATA_THRESHOLD the originator's date of birth, address and
 * identifier (FATF Recommendation 16) too. GET /v1/core/account-requirements answers from it and
 * submit validates the destination and the originator against the same data.
 */
import { z } from "zod";
import rawRequirements from "@/data/account-requirements/v1.json";
import countries from "@/lib/platform/i18n/iso-countries";
import { config } from "@/lib/platform/config";
import { validationError, type ValidationIssue } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";

const fieldSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: z.enum(["text", "select"]),
  required: z.boolean(),
  regex: z.string().optional(),
  description: z.string().optional(),
  example: z.string().optional(),
  allowedValues: z.array(z.string()).optional(),
  refreshRequirementsOnChange: z.boolean(),
});

const fileSchema = z.strictObject({
  $comment: z.string().optional(),
  version: z.string(),
  requirements: z.array(
    z.strictObject({
      corridor: z.string(),
      country: z.string().length(2),
      currency: z.string().length(3),
      method: z.string(),
      methodType: z.string(),
      fields: z.array(fieldSchema),
      beneficiary: z.array(z.strictObject({ key: z.string(), required: z.boolean() })),
    }),
  ),
});

export type AccountRequirement = z.output<typeof fileSchema>["requirements"][number];

/** Validates a requirements file, its regexes compiled (exported for tests). */
export function loadRequirementsFile(raw: unknown) {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid account requirements data:\n${z.prettifyError(parsed.error)}`);
  for (const r of parsed.data.requirements) for (const f of r.fields) if (f.regex) new RegExp(f.regex);
  return parsed.data;
}

const table = loadRequirementsFile(rawRequirements);

/** The originator's data a payout of this origin amount needs (empty at or under the threshold). */
export function originatorRequirements(originAmount: string | null | undefined): { key: string; required: boolean; description: string }[] {
  if (!originAmount || !new Decimal(originAmount).gt(config().ORIGINATOR_DATA_THRESHOLD)) return [];
  return [
    { key: "dateOfBirth", required: true, description: "The customer's date of birth (profile)." },
    { key: "address", required: true, description: "The customer's residence address, structured (profile)." },
    { key: "identifier", required: true, description: "The customer's identifier at the service: sent by the service." },
  ];
}

/** The requirement of a country (alpha-2 or alpha-3), currency and method; undefined when no corridor pays it. */
export function requirementFor(country: string, currency: string, method: string): AccountRequirement | undefined {
  const alpha2 = country.length === 3 ? countries.alpha3ToAlpha2(country.toUpperCase()) : country.toUpperCase();
  return table.requirements.find((r) => r.country === alpha2 && r.currency === currency.toUpperCase() && r.method === method);
}

/** The answer of GET /v1/core/account-requirements. */
export function accountRequirements(input: { country: string; currency: string; method: string; amount?: string }) {
  const r = requirementFor(input.country, input.currency, input.method);
  if (!r) return undefined;
  return {
    country: r.country,
    currency: r.currency,
    method: r.method,
    methodType: r.methodType,
    fields: r.fields,
    beneficiary: r.beneficiary,
    originator: originatorRequirements(input.amount),
  };
}

/** The destination (already normalised by the format check) against its requirement's field format: the issue, or null. */
export function destinationIssue(corridor: string, method: string, identifier: string): ValidationIssue | null {
  const r = table.requirements.find((x) => x.corridor === corridor && x.method === method);
  const field = r?.fields.find((f) => f.key === "destinationIdentifier");
  if (!field?.regex || new RegExp(field.regex).test(identifier)) return null;
  return {
    field: "payoutMethod.destinationIdentifier",
    code: "validation.fieldFormatInvalid",
    message: `The destination identifier must be ${field.description}.`,
  };
}

/**
 * The originator's data a transfer of `originAmount` is refused without, named: the customer's
 * date of birth and structured residence address (the identifier is the customer's id, always
 * there). Throws 400 validation.fieldMissing naming each missing field.
 */
export function checkOriginatorData(
  originAmount: string,
  profile: { dateOfBirth?: string | null; residenceAddress?: { addressLine1?: string; city?: string; country?: string } | null } | null,
): void {
  const needed = originatorRequirements(originAmount);
  if (needed.length === 0) return;
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
