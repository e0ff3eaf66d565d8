import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { maskIdentifier } from "@/lib/payments/payout-identifiers/mask";

describe("maskIdentifier", () => {
  it("shows the last 4 of bank accounts and phone numbers", () => {
    assert.equal(maskIdentifier("BANK_TRANSFER", "002010077777777771"), "****7771");
    assert.equal(maskIdentifier("BANK_ACCOUNT", "SN08 SN01 0015 2000 0485 0000 3035"), "****3035");
    assert.equal(maskIdentifier("MOBILE_MONEY", "+2348031234567"), "****4567");
    assert.equal(maskIdentifier("CASH_PICKUP", "+52 55 1234 5678"), "****5678");
  });

  it("shows the last 6 of wallet identifiers", () => {
    assert.equal(maskIdentifier("WALLET_TRANSFER", "PHWALLET0001UI"), "****0001UI");
  });

  it("does not reveal the length", () => {
    assert.equal(maskIdentifier("BANK_TRANSFER", "123456"), "****3456");
    assert.equal(maskIdentifier("BANK_TRANSFER", "12345678901234567890"), "****7890");
  });

  it("never returns the full identifier, even for short or unknown input", () => {
    assert.equal(maskIdentifier("BANK_TRANSFER", "1234"), "****");
    assert.equal(maskIdentifier("WALLET_TRANSFER", "ABCDEF"), "****");
    assert.equal(maskIdentifier("SOMETHING_NEW", "ABCDEFGHIJ"), "****GHIJ");
    fc.assert(
      fc.property(fc.constantFrom("BANK_TRANSFER", "MOBILE_MONEY", "CASH_PICKUP", "WALLET_TRANSFER", "X"), fc.string({ minLength: 1 }), (method, id) => {
        const masked = maskIdentifier(method, id);
        return masked.startsWith("****") && (id.trim() === "" || masked !== id) && masked.length <= 10;
      }),
    );
  });
});
