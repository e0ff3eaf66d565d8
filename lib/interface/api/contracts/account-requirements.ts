import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";

const tags = ["Payouts"];

const FieldSchema = z
  .object({
    key: z.string().meta({ description: "The request field it fills: methodType, destinationIdentifier." }),
    label: z.string(),
    type: z.enum(["text", "select"]),
    required: z.boolean(),
    regex: z.string().optional().meta({ description: "The format of the normalised value (spaces removed; letters upper-cased for an IBAN)." }),
    description: z.string().optional(),
    example: z.string().optional(),
    allowedValues: z.array(z.string()).optional(),
    refreshRequirementsOnChange: z.boolean().meta({ description: "A change of this field changes the requirements: ask again." }),
  })
  .meta({ id: "AccountRequirementField" });

const DataSchema = z.object({ key: z.string(), required: z.boolean(), description: z.string().optional() }).meta({ id: "RequiredData" });

export const readAccountRequirements = defineContract({
  operationId: "readAccountRequirements",
  method: "GET",
  path: "/v1/core/account-requirements",
  summary: "What a payout needs for a destination country, currency and method (optionally an amount)",
  description: [
    "Extension (docs/decisions.md, Routed payouts): the payout form's fields with their format, allowed values and whether a change refreshes the requirements; the beneficiary's data; and, for an `amount` (the send amount, in the corridor's origin currency) above the originator data threshold (1,000 USD by default: the amount is converted into the threshold's currency at the reference rate), the originator's data that must travel with the payment (FATF Recommendation 16).",
    "Submit validates against the same data: a destination outside the format is 400 `validation.fieldFormatInvalid`; a payout above the threshold without the originator's data is 400 `validation.fieldMissing` naming each field.",
  ].join("\n"),
  tags,
  auth: "customer",
  gate: "transferRead",
  query: z.object({
    country: z
      .string()
      .regex(/^[A-Za-z]{2,3}$/, "ISO 3166 alpha-2 or alpha-3")
      .meta({ description: "Destination country, alpha-2 or alpha-3." }),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "ISO 4217")
      .meta({ description: "Destination currency." }),
    method: z.enum(["bank_account", "cash_pickup", "wallet_transfer", "mobile_money"]).meta({ description: "Corridor payout method." }),
    amount: z
      .string()
      .regex(/^(0|[1-9][0-9]*)([.][0-9]+)?$/, "a decimal string")
      .optional()
      .meta({
        description: "Send amount in the corridor's origin currency: adds the originator's data when above the threshold once converted into its currency.",
      }),
  }),
  success: {
    status: 200,
    description: "The requirements.",
    schema: z
      .object({
        country: z.string(),
        currency: z.string(),
        method: z.string(),
        methodType: z.string(),
        fields: z.array(FieldSchema),
        beneficiary: z.array(DataSchema),
        originator: z.array(DataSchema),
      })
      .meta({ id: "AccountRequirements" }),
  },
  examples: {
    response: {
      country: "MX",
      currency: "MXN",
      method: "bank_account",
      methodType: "BANK_TRANSFER",
      fields: [
        {
          key: "methodType",
          label: "Payout method",
          type: "select",
          required: true,
          allowedValues: ["BANK_TRANSFER", "CASH_PICKUP"],
          refreshRequirementsOnChange: true,
        },
        {
          key: "destinationIdentifier",
          label: "CLABE or IBAN",
          type: "text",
          required: true,
          regex: "^([0-9]{18}|[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30})$",
          description: "18-digit CLABE or an IBAN",
          example: "002010077777777771",
          refreshRequirementsOnChange: false,
        },
      ],
      beneficiary: [
        { key: "firstName", required: true },
        { key: "lastName", required: true },
        { key: "address", required: false },
      ],
      originator: [],
    },
  },
  errors: ["validation.fieldInvalid", "validation.methodNotAvailableForCorridor"],
});
