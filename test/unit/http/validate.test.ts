/** lib/platform/http/validate.ts: field paths and the validation error of spec section 7 / decisions section 8. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { DomainError } from "@/lib/platform/errors";
import { fieldPath, parseOrThrow } from "@/lib/platform/http/validate";

/** Runs parseOrThrow expecting a DomainError and returns it. */
function failure(schema: z.ZodType, input: unknown, prefix?: string): DomainError {
  try {
    parseOrThrow(schema, input, prefix);
  } catch (err) {
    assert.ok(err instanceof DomainError, `expected a DomainError, got ${String(err)}`);
    return err;
  }
  assert.fail("parseOrThrow accepted invalid input");
}

const issuesOf = (err: DomainError) => (err.details as { issues: { field: string; code: string; message?: string }[] }).issues;
const fieldsAndCodes = (err: DomainError) => issuesOf(err).map((i) => [i.field, i.code]);

test("fieldPath: dotted names, bracket indices", () => {
  assert.equal(fieldPath(["amount"]), "amount");
  assert.equal(fieldPath(["receiver", "address", "line1"]), "receiver.address.line1");
  assert.equal(fieldPath(["items", 2, "amount"]), "items[2].amount");
  assert.equal(fieldPath(["matrix", 0, 1]), "matrix[0][1]");
  assert.equal(fieldPath([0, "name"]), "[0].name");
  assert.equal(fieldPath([3]), "[3]");
});

test("fieldPath: prefix and root", () => {
  assert.equal(fieldPath([]), "(root)");
  assert.equal(fieldPath([], "query"), "query");
  assert.equal(fieldPath(["identifier"], "query"), "query.identifier");
  assert.equal(fieldPath(["deviceId"], "path"), "path.deviceId");
  assert.equal(fieldPath(["ids", 1], "query"), "query.ids[1]");
});

test("parseOrThrow returns the parsed (transformed) data on success", () => {
  const schema = z.strictObject({ n: z.string().transform((s) => s.length) });
  assert.deepEqual(parseOrThrow(schema, { n: "abcd" }), { n: 4 });
});

test("missing field: validation.fieldMissing summary and issue", () => {
  const err = failure(z.strictObject({ identifier: z.string() }), {});
  assert.equal(err.code, "validation.fieldMissing");
  assert.equal(err.status, 400);
  assert.equal(err.hint, "fix_request");
  assert.deepEqual(fieldsAndCodes(err), [["identifier", "validation.fieldMissing"]]);
  assert.equal(issuesOf(err)[0].message, "This field is required.");
  assert.equal(err.details?.rule, undefined);
});

test("explicit null is invalid, not missing", () => {
  const err = failure(z.strictObject({ identifier: z.string() }), { identifier: null });
  assert.equal(err.code, "validation.fieldInvalid");
  assert.deepEqual(fieldsAndCodes(err), [["identifier", "validation.fieldInvalid"]]);
});

test("wrong type: validation.fieldInvalid with dotted/bracket path", () => {
  const schema = z.strictObject({ items: z.array(z.strictObject({ amount: z.string() })) });
  const err = failure(schema, { items: [{ amount: "1.00" }, { amount: "2.00" }, { amount: 3 }] });
  assert.equal(err.code, "validation.fieldInvalid");
  assert.equal(err.status, 400);
  assert.deepEqual(fieldsAndCodes(err), [["items[2].amount", "validation.fieldInvalid"]]);
  assert.match(err.message, /items\[2\]\.amount/);
});

test("nested missing field keeps its full path", () => {
  const schema = z.strictObject({ address: z.strictObject({ line1: z.string(), city: z.string() }) });
  const err = failure(schema, { address: { city: "Paris" } });
  assert.equal(err.code, "validation.fieldMissing");
  assert.deepEqual(fieldsAndCodes(err), [["address.line1", "validation.fieldMissing"]]);
});

test("unknown field: issue validation.fieldUnknown, summary validation.fieldInvalid", () => {
  const err = failure(z.strictObject({ identifier: z.string() }), { identifier: "a@b.co", extra: 1 });
  assert.equal(err.code, "validation.fieldInvalid");
  assert.deepEqual(fieldsAndCodes(err), [["extra", "validation.fieldUnknown"]]);
});

test("unknown nested field and several unknown keys: one issue each, full path", () => {
  const schema = z.strictObject({ a: z.strictObject({ b: z.string() }) });
  const err = failure(schema, { a: { b: "x", c: 1, d: 2 } });
  assert.equal(err.code, "validation.fieldInvalid");
  assert.deepEqual(fieldsAndCodes(err), [
    ["a.c", "validation.fieldUnknown"],
    ["a.d", "validation.fieldUnknown"],
  ]);
  assert.equal(err.message, "2 fields are invalid.");
});

test("missing and invalid together: summary validation.fieldInvalid, every issue listed", () => {
  const schema = z.strictObject({ a: z.string(), b: z.number() });
  const err = failure(schema, { b: "nope" });
  assert.equal(err.code, "validation.fieldInvalid");
  assert.deepEqual(fieldsAndCodes(err).sort(), [
    ["a", "validation.fieldMissing"],
    ["b", "validation.fieldInvalid"],
  ]);
});

test("several missing fields: summary stays validation.fieldMissing", () => {
  const err = failure(z.strictObject({ a: z.string(), b: z.string() }), {});
  assert.equal(err.code, "validation.fieldMissing");
  assert.deepEqual(fieldsAndCodes(err), [
    ["a", "validation.fieldMissing"],
    ["b", "validation.fieldMissing"],
  ]);
});

test("prefix is applied to every issue path (query / path params)", () => {
  const err = failure(z.object({ identifier: z.string().min(3) }), { identifier: "x" }, "query");
  assert.deepEqual(fieldsAndCodes(err), [["query.identifier", "validation.fieldInvalid"]]);
});

test("root that is not an object: field (root)", () => {
  const err = failure(z.strictObject({ a: z.string() }), [1, 2]);
  assert.equal(err.code, "validation.fieldInvalid");
  assert.deepEqual(fieldsAndCodes(err), [["(root)", "validation.fieldInvalid"]]);
});

test("custom params code and rule: validation.fieldFormatInvalid with details.rule MIN_AGE_18", () => {
  const schema = z.strictObject({
    dateOfBirth: z.string().refine((s) => s < "2000-01-01", { params: { code: "validation.fieldFormatInvalid", rule: "MIN_AGE_18" } }),
  });
  const err = failure(schema, { dateOfBirth: "2015-06-01" });
  assert.equal(err.code, "validation.fieldFormatInvalid");
  assert.equal(err.status, 400);
  assert.equal(err.details?.rule, "MIN_AGE_18");
  assert.deepEqual(fieldsAndCodes(err), [["dateOfBirth", "validation.fieldFormatInvalid"]]);
});

test("custom code mixed with another problem: summary falls back to validation.fieldInvalid, rule kept", () => {
  const schema = z.strictObject({
    dateOfBirth: z.string().refine(() => false, { params: { code: "validation.fieldFormatInvalid", rule: "MIN_AGE_18" } }),
    name: z.string(),
  });
  const err = failure(schema, { dateOfBirth: "2015-06-01", name: 7 });
  assert.equal(err.code, "validation.fieldInvalid");
  assert.equal(err.details?.rule, "MIN_AGE_18");
  assert.deepEqual(fieldsAndCodes(err).sort(), [
    ["dateOfBirth", "validation.fieldFormatInvalid"],
    ["name", "validation.fieldInvalid"],
  ]);
});

test("no rule: details has only issues", () => {
  const err = failure(z.strictObject({ a: z.string() }), { a: 1 });
  assert.deepEqual(Object.keys(err.details ?? {}), ["issues"]);
});

test("format violations (regex, email, uuid): validation.fieldFormatInvalid", () => {
  const schema = z.strictObject({ email: z.email(), id: z.uuid(), code: z.string().regex(/^\d{6}$/) });
  const err = failure(schema, { email: "nope", id: "123", code: "abc" });
  assert.equal(err.code, "validation.fieldFormatInvalid");
  assert.deepEqual(fieldsAndCodes(err), [
    ["email", "validation.fieldFormatInvalid"],
    ["id", "validation.fieldFormatInvalid"],
    ["code", "validation.fieldFormatInvalid"],
  ]);
  // A length or type problem is not a format problem.
  const short = failure(z.strictObject({ name: z.string().min(3) }), { name: "a" });
  assert.deepEqual(fieldsAndCodes(short), [["name", "validation.fieldInvalid"]]);
});

test("one issue per field and code: two format checks failing on one field are reported once", () => {
  const schema = z.object({
    code: z
      .string()
      .regex(/^[A-Z]+$/, "Upper case letters.")
      .regex(/^.{3}$/, "Three characters."),
    other: z.string().regex(/^x$/),
  });
  const err = failure(schema, { code: "ab12", other: "y" });
  assert.equal(err.code, "validation.fieldFormatInvalid");
  assert.deepEqual(
    issuesOf(err).map((i) => [i.field, i.code, i.message]),
    [
      ["code", "validation.fieldFormatInvalid", "Upper case letters."],
      ["other", "validation.fieldFormatInvalid", "Invalid string: must match pattern /^x$/"],
    ],
  );
});
