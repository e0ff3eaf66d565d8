/**
 * The shape of one account requirement (what a payout needs for a destination country, currency
 * and method: the form's fields with their format, and the beneficiary's data): a leaf module, read
 * by the shipped file's loader (./account-requirements.ts) and by a configuration version's schema
 * (lib/payments/corridors/schema.ts), which may replace the file's list.
 */
import { z } from "zod";

const compiles = (regex: string) => {
  try {
    new RegExp(regex);
    return true;
  } catch {
    return false;
  }
};

const fieldSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: z.enum(["text", "select"]),
  required: z.boolean(),
  regex: z.string().refine(compiles, { message: "not a regular expression" }).optional(),
  description: z.string().optional(),
  example: z.string().optional(),
  allowedValues: z.array(z.string()).optional(),
  refreshRequirementsOnChange: z.boolean(),
});

export const requirementSchema = z.strictObject({
  corridor: z.string(),
  country: z.string().length(2),
  currency: z.string().length(3),
  method: z.string(),
  methodType: z.string(),
  fields: z.array(fieldSchema),
  beneficiary: z.array(z.strictObject({ key: z.string(), required: z.boolean() })),
});

export type AccountRequirement = z.output<typeof requirementSchema>;
