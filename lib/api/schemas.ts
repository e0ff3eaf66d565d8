import { z } from "zod";

/** Shared wire schemas. Request bodies are strict: an unknown member is a precise 400, not silently ignored. */

export const ValidationIssueSchema = z
  .object({
    field: z.string().meta({ example: "payoutMethod.destinationIdentifier" }),
    code: z.string().meta({ example: "validation.fieldMissing" }),
    message: z.string().optional(),
  })
  .meta({ id: "ValidationIssue" });

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "Stable code; branch on this, never on message.", example: "auth.tokenExpired" }),
      message: z.string(),
      hint: z.string().nullable().meta({ description: "Identifier guiding the partner integration." }),
      remediation: z.string().nullable().meta({ description: "Identifier guiding the customer UX (spec section 7)." }),
      details: z.record(z.string(), z.unknown()).nullable(),
    }),
    correlationId: z.string(),
  })
  .meta({ id: "ErrorEnvelope", description: "Every error answer has this shape (spec section 7)." });

export const NextStepSchema = z.string().meta({ id: "NextStep", example: "COMPLETE_PROFILE" });

export const Timestamp = z.string().meta({ format: "date-time", example: "2026-11-21T10:00:00.000Z" });

export const TokenResponseSchema = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    tokenType: z.literal("Bearer"),
    expiresIn: z.number().int().meta({ example: 3600 }),
    subscriptionId: z.string(),
    nextStep: NextStepSchema,
  })
  .meta({ id: "TokenResponse" });

/**
 * A query parameter listing enum values separated by commas (`states=VALID,BLOCKED`): checked by
 * one pattern (one issue, the documented format), then read as the typed values.
 */
export function commaSeparated<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  const one = values.join("|");
  return z
    .string()
    .regex(new RegExp(`^(${one})(,(${one}))*$`), message)
    .transform((s) => s.split(","))
    .pipe(z.array(z.enum(values)));
}
