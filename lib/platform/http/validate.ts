import type { z } from "zod";
import { DomainError, type ValidationCode, type ValidationIssue } from "@/lib/platform/errors";

/** zod path to the spec's field notation: dotted names, bracket indices (`items[2].amount`). */
export function fieldPath(path: readonly PropertyKey[], prefix?: string): string {
  let out = prefix ?? "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "(root)";
}

/**
 * A schema may tag an issue with its spec code through `params: { code, rule }`
 * (e.g. validation.fieldFormatInvalid with rule MIN_AGE_18, spec 2.2).
 */
function issuesOf(error: z.core.$ZodError, prefix?: string): { issues: ValidationIssue[]; rule?: string } {
  const issues: ValidationIssue[] = [];
  let rule: string | undefined;
  // One issue per field and code: two checks of one field that fail alike (a pattern and a
  // refinement, both format errors) are one problem for the client, reported once (first message).
  const seen = new Set<string>();
  const push = (i: ValidationIssue) => {
    const key = `${i.field}\u0000${i.code}`;
    if (!seen.has(key)) issues.push(i);
    seen.add(key);
  };
  for (const issue of error.issues) {
    const params = (issue as { params?: { code?: ValidationCode; rule?: string } }).params;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        push({
          field: fieldPath([...issue.path, key], prefix),
          code: "validation.fieldUnknown",
          message: "This field is not part of the request schema.",
        });
      }
      continue;
    }
    // Absent (undefined input) fails as invalid_type, or invalid_value for enums and literals.
    const missing = (issue.code === "invalid_type" || issue.code === "invalid_value") && (issue as { input?: unknown }).input === undefined;
    push({
      field: fieldPath(issue.path, prefix),
      // Pattern and format violations (regex, email, uuid...) are fieldFormatInvalid (spec 7).
      code:
        params?.code ?? (missing ? "validation.fieldMissing" : issue.code === "invalid_format" ? "validation.fieldFormatInvalid" : "validation.fieldInvalid"),
      message: missing ? "This field is required." : issue.message,
    });
    rule ??= params?.rule;
  }
  return { issues, rule };
}

/** Where the input holds a NUL character (PostgreSQL text cannot store one), or null. */
function nulPath(value: unknown, path: PropertyKey[] = [], depth = 0): PropertyKey[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (!value || typeof value !== "object" || depth > 32) return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes("\u0000")) return [...path, key];
    const found = nulPath(child, [...path, Array.isArray(value) ? Number(key) : key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** Parses input with a schema, or throws the spec's validation error listing every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const nul = nulPath(input);
  if (nul)
    thrower("validation.fieldInvalid", [{ field: fieldPath(nul, prefix), code: "validation.fieldInvalid", message: "NUL characters are not accepted." }]);
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const { issues, rule } = issuesOf(result.error, prefix);
  const codes = new Set(issues.map((i) => i.code));
  const code = codes.size === 1 && !codes.has("validation.fieldUnknown") ? [...codes][0] : "validation.fieldInvalid";
  return thrower(code, issues, rule);
}

function thrower(code: ValidationCode, issues: ValidationIssue[], rule?: string): never {
  throw new DomainError(code, {
    message: issues.length === 1 ? `Invalid field ${issues[0].field}: ${issues[0].message}` : `${issues.length} fields are invalid.`,
    details: rule ? { rule, issues } : { issues },
    hint: "fix_request",
  });
}
