import { z } from "zod";

/** Shared wire schemas. Request bodies are strict: an unknown member is a precise 400, not silently ignored. */

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

// Spec 2.2's name rule, for every person's name the API accepts (profile, beneficiary): letters of
// the Latin blocks (Basic Latin, Latin-1, Extended-A/B, Extended Additional), combining accents
// only right after a letter, and the separators real names use (space, hyphen, period, and the
// apostrophes phones type: ' ’ ʼ). Anything else is refused rather than cleaned: format and
// control characters (zero-width space and joiners, soft hyphen, word joiner, BOM, bidi controls)
// are invisible and would split a listed name for screening, and letters of other scripts
// (Cyrillic "о" in "Nоriega") or compatibility forms (fullwidth "Ｎ") are lookalikes.
const NAME_LETTER = "A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u024F\\u1E00-\\u1EFF";
// Combining Diacritical Marks without U+034F (combining grapheme joiner: default-ignorable).
const NAME_MARK = "\\u0300-\\u034E\\u0350-\\u036F";
const PERSON_NAME = new RegExp(`^[${NAME_LETTER}][${NAME_MARK}]*(?:[${NAME_LETTER}][${NAME_MARK}]*|['’ʼ .-])*$`, "u");

/**
 * A person's first, middle or last name: trimmed, stored NFC (so "José" typed with a combining
 * accent is the same text as the precomposed one), Latin script only (400
 * validation.fieldFormatInvalid at the field's path otherwise).
 */
export const PersonName = z
  .string()
  .trim()
  .normalize("NFC")
  .min(1)
  .max(100)
  .regex(PERSON_NAME, "Use Latin letters (diacritics allowed), spaces, hyphens, apostrophes and periods.")
  .meta({ example: "María José" });
