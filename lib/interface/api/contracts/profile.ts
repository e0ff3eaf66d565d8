import countries from "@/lib/platform/i18n/iso-countries";
import { z } from "zod";
import { IDENTIFIER_TYPES, CUSTOMER_STATUSES, KYC_STATUSES } from "@/lib/identity";
import { defineContract } from "@/lib/interface/http/contract";
import { LANGUAGES } from "@/lib/platform/i18n/language";
import { NextStepSchema, PersonName, Timestamp } from "../schemas";
import { EX } from "../examples/ids";

const tags = ["Profile and KYC"];

/** ISO 3166-1 alpha-3, checked against the real list (i18n-iso-countries). */
export const alpha3 = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: "Use an ISO 3166-1 alpha-3 code such as USA.", abort: true })
  .refine((c) => countries.alpha3ToAlpha2(c) !== undefined, { params: { code: "validation.fieldFormatInvalid" }, message: "Unknown ISO 3166-1 alpha-3 code." })
  .meta({ example: "USA" });

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "Use YYYY-MM-DD.", abort: true })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
    params: { code: "validation.fieldFormatInvalid" },
    message: "Not a calendar date.",
  })
  .meta({ example: "1990-04-12" });

/** Spec 2.10 example aliases accepted on input: line1/line2 for addressLine1/addressLine2. */
function addressAliases(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const { line1, line2, ...rest } = input as Record<string, unknown>;
  return {
    ...rest,
    ...(line1 !== undefined && rest.addressLine1 === undefined ? { addressLine1: line1 } : line1 !== undefined ? { line1 } : {}),
    ...(line2 !== undefined && rest.addressLine2 === undefined ? { addressLine2: line2 } : line2 !== undefined ? { line2 } : {}),
  };
}

export const StructuredAddressSchema = z
  .preprocess(
    addressAliases,
    z.strictObject({
      addressLine1: z.string().trim().min(1).max(200),
      addressLine2: z.string().trim().max(200).optional(),
      city: z.string().trim().min(1).max(100),
      region: z.string().trim().min(1).max(100).optional(),
      postalCode: z.string().trim().min(1).max(20).optional(),
      country: alpha3,
    }),
  )
  .meta({ id: "StructuredAddress" });

export const GENDERS = ["FEMALE", "MALE", "NON_BINARY", "UNDISCLOSED"] as const;

/** Spec 2.10: residentialAddress is accepted for residenceAddress. */
function profileAliases(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const { residentialAddress, ...rest } = input as Record<string, unknown>;
  if (residentialAddress === undefined) return input;
  return rest.residenceAddress === undefined ? { ...rest, residenceAddress: residentialAddress } : input;
}

export const ProfileSubmitRequestSchema = z
  .preprocess(
    profileAliases,
    z.strictObject({
      firstName: PersonName,
      lastName: PersonName,
      middleNames: z.array(PersonName).max(5).optional(),
      dateOfBirth: isoDate,
      nationality: alpha3,
      residenceCountry: alpha3,
      residenceAddress: StructuredAddressSchema,
      gender: z.enum(GENDERS).optional(),
      placeOfBirth: z.strictObject({ city: z.string().trim().min(1).max(100), country: alpha3 }).optional(),
      preferredLanguage: z.enum(LANGUAGES).optional().meta({ description: "Language for disclosures and webviews." }),
    }),
  )
  .meta({ id: "ProfileSubmitRequest" });

export const CustomerStatusSchema = z.enum(CUSTOMER_STATUSES).meta({ id: "CustomerStatus" });
export const KycStatusSchema = z.enum(KYC_STATUSES).meta({ id: "KycStatus" });

export const submitProfile = defineContract({
  operationId: "submitProfile",
  method: "POST",
  path: "/v1/core/profile",
  summary: "Submit (or, while PENDING, update) the customer profile",
  description: "Create-and-update at one URL. The answer has the same shape for every identity-resolution outcome.",
  tags,
  auth: "customer",
  gate: "onboarding",
  idempotency: "required",
  body: ProfileSubmitRequestSchema,
  success: {
    status: 200,
    description: "Profile accepted; screening runs asynchronously.",
    schema: z.object({ status: CustomerStatusSchema, kycRequired: z.boolean(), nextStep: NextStepSchema }).meta({ id: "ProfileSubmitResponse" }),
  },
  examples: {
    request: {
      firstName: "Ana",
      lastName: "García",
      dateOfBirth: "1988-03-14",
      nationality: "MEX",
      residenceCountry: "USA",
      residenceAddress: { addressLine1: "100 Congress Ave", addressLine2: "Apt 4B", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
      preferredLanguage: "es",
    },
    response: { status: "PENDING", kycRequired: true, nextStep: "START_KYC" },
  },
  errors: [
    "validation.fieldFormatInvalid",
    "validation.nationalityNotAccepted",
    "validation.residenceCountryNotAccepted",
    "validation.fieldMissing",
    "customer.profileLocked",
    "customer.statusBlocking",
  ],
});

const IdentifierSummarySchema = z
  .object({ identifierId: z.string(), identifierType: z.enum(IDENTIFIER_TYPES), identifierMasked: z.string(), verifiedAt: Timestamp, canRemove: z.boolean() })
  .meta({ id: "IdentifierSummary" });

export const readProfile = defineContract({
  operationId: "readProfile",
  method: "GET",
  path: "/v1/core/profile",
  summary: "Read the customer profile, statuses and identifiers",
  tags,
  auth: "customer",
  gate: "onboarding",
  success: {
    status: 200,
    description: "The profile.",
    schema: z
      .object({
        subscriptionId: z.string(),
        status: CustomerStatusSchema,
        statusOperationalHint: z.string().nullable(),
        kycStatus: KycStatusSchema,
        transactability: z.boolean(),
        customerActionExpected: z.boolean(),
        profile: z.record(z.string(), z.unknown()).nullable(),
        identifiers: z.array(IdentifierSummarySchema),
      })
      .meta({ id: "ProfileReadResponse" }),
  },
  examples: {
    response: {
      subscriptionId: EX.subscriptionId,
      status: "VALID",
      statusOperationalHint: null,
      kycStatus: "COMPLETED",
      transactability: true,
      customerActionExpected: false,
      profile: {
        firstName: "Ana",
        lastName: "García",
        dateOfBirth: "1988-03-14",
        nationality: "MEX",
        residenceCountry: "USA",
        residenceAddress: { addressLine1: "100 Congress Ave", addressLine2: "Apt 4B", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
        preferredLanguage: "es",
      },
      identifiers: [
        { identifierId: "idf_2m7k4q9d1x6c3v8b5n0p2r7t", identifierType: "EMAIL", identifierMasked: "a***@example.com", verifiedAt: EX.at(0), canRemove: false },
      ],
    },
  },
  errors: ["customer.statusBlocking"],
});
