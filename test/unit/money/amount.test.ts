import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import { parseMoneyAmount } from "@/lib/platform/money/amount";

function issueOf(fn: () => unknown): { status: number; code: string; field: string; issueCode: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof DomainError);
    const [issue] = err.details?.issues as { field: string; code: string }[];
    return { status: err.status, code: err.code, field: issue!.field, issueCode: issue!.code };
  }
  assert.fail("expected a validation error");
}

test("amounts payable in their currency are accepted in any wire spelling", () => {
  assert.equal(parseMoneyAmount("10.120000", "USD").toFixed(), "10.12");
  assert.equal(parseMoneyAmount("10.12", "USD").toFixed(), "10.12");
  assert.equal(parseMoneyAmount("5000.000000", "XOF").toFixed(), "5000");
  assert.equal(parseMoneyAmount("1.234000", "KWD").toFixed(), "1.234");
});

test("digits below the minor unit are refused (10.123456 USD cannot be charged)", () => {
  assert.deepEqual(
    issueOf(() => parseMoneyAmount("10.123456", "USD", { field: "originAmount" })),
    {
      status: 400,
      code: "validation.fieldFormatInvalid",
      field: "originAmount",
      issueCode: "validation.fieldFormatInvalid",
    },
  );
  assert.equal(issueOf(() => parseMoneyAmount("5.5", "XOF")).issueCode, "validation.fieldFormatInvalid");
  assert.equal(issueOf(() => parseMoneyAmount("1.2345", "KWD")).issueCode, "validation.fieldFormatInvalid");
});

test("zero only when allowed; malformed strings and unknown currencies refused", () => {
  assert.equal(issueOf(() => parseMoneyAmount("0.000000", "USD")).issueCode, "validation.fieldInvalid");
  assert.equal(parseMoneyAmount("0", "USD", { allowZero: true }).isZero(), true);
  assert.equal(issueOf(() => parseMoneyAmount("-1.00", "USD")).issueCode, "validation.fieldFormatInvalid");
  assert.equal(issueOf(() => parseMoneyAmount(100, "USD")).issueCode, "validation.fieldFormatInvalid");
  assert.equal(issueOf(() => parseMoneyAmount("1.00", "ABC")).issueCode, "validation.fieldInvalid");
});
