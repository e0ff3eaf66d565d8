import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  creditorReference,
  findCreditorReference,
  isCreditorReference,
  newCreditorReference,
  printedReference,
} from "@/lib/payments/reconciliation/creditor-reference";

describe("ISO 11649 creditor references", () => {
  test("the standard's published example: 539007547034 has check digits 18", () => {
    assert.equal(creditorReference("539007547034"), "RF18539007547034");
    assert.ok(isCreditorReference("RF18539007547034"));
    assert.ok(isCreditorReference("RF18 5390 0754 7034"), "print form with spaces");
    assert.equal(printedReference("RF18539007547034"), "RF18 5390 0754 7034");
  });

  test("letters count as 10..35 and check digits below 10 keep their leading zero", () => {
    assert.equal(creditorReference("ABC"), creditorReference("abc"));
    assert.ok(isCreditorReference(creditorReference("ABC")));
    const refs = Array.from({ length: 300 }, (_, i) => creditorReference(String(i)));
    assert.ok(refs.some((r) => r.slice(2, 4).startsWith("0")));
    for (const r of refs) assert.ok(isCreditorReference(r), r);
  });

  test("a changed digit, swapped digits, a bad shape or a too long body fail", () => {
    assert.equal(isCreditorReference("RF18539007547035"), false);
    assert.equal(isCreditorReference("RF81539007547034"), false);
    assert.equal(isCreditorReference("RF18539007547304"), false);
    assert.equal(isCreditorReference("XX18539007547034"), false);
    assert.equal(isCreditorReference("RF18"), false);
    assert.throws(() => creditorReference("1".repeat(22)), RangeError);
    assert.throws(() => creditorReference("12-3"), RangeError);
  });

  test("new references are valid, 22 characters, and differ", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const ref = newCreditorReference();
      assert.ok(isCreditorReference(ref), ref);
      assert.equal(ref.length, 22);
      seen.add(ref);
    }
    assert.equal(seen.size, 200);
  });

  test("found in free text: print form, glued to words, or absent", () => {
    assert.equal(findCreditorReference("Invoice RF18 5390 0754 7034 thanks"), "RF18539007547034");
    assert.equal(findCreditorReference("payment rf18539007547034"), "RF18539007547034");
    assert.equal(findCreditorReference("RF18539007547034/transfer"), "RF18539007547034");
    assert.equal(findCreditorReference("no reference here, RF99 1234"), null);
    assert.equal(findCreditorReference(""), null);
  });

  test("a word after the reference is not read into it, even where the longer run passes the check digits", () => {
    // References whose run into the next word ("…THA" of "thanks") also passes mod 97: about 3 in 97.
    const tricky: string[] = [];
    for (let n = 0; tricky.length < 5; n++) {
      const ref = creditorReference(String(100_000_000_000_000_000n + BigInt(n)));
      if (["T", "TH", "THA"].some((more) => isCreditorReference(ref + more))) tricky.push(ref);
    }
    for (const ref of tricky) {
      assert.equal(findCreditorReference(`for ${ref} thanks`), ref);
      assert.equal(findCreditorReference(`${printedReference(ref)} - thanks`), ref);
    }
  });
});
