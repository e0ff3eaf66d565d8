import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "@/lib/platform/errors";
import { checkIdentifierFormat, DESTINATION_IDENTIFIER_FIELD } from "@/lib/payments/payout-identifiers/format-check";
import type { BankAccountFormat } from "@/lib/payments/payout-identifiers/method-types";

function rejects(methodType: string, destinationIdentifier: string, bankAccountFormat: BankAccountFormat | null = null) {
  assert.throws(
    () => checkIdentifierFormat({ methodType, destinationIdentifier, bankAccountFormat }),
    (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.code, "validation.fieldFormatInvalid");
      assert.equal(error.status, 400);
      const issues = error.details?.issues as { field: string; code: string; message: string }[];
      assert.equal(issues.length, 1);
      assert.equal(issues[0]!.field, DESTINATION_IDENTIFIER_FIELD);
      assert.equal(issues[0]!.code, "validation.fieldFormatInvalid");
      assert.equal(typeof issues[0]!.message, "string");
      // The message never echoes what was submitted.
      if (destinationIdentifier.length >= 4) assert.ok(!issues[0]!.message.includes(destinationIdentifier));
      return true;
    },
  );
}

const accepts = (methodType: string, identifier: string, format: BankAccountFormat | null = null) =>
  checkIdentifierFormat({ methodType, destinationIdentifier: identifier, bankAccountFormat: format });

describe("format check: bank accounts", () => {
  it("accepts the corridor's national structure", () => {
    assert.equal(accepts("BANK_TRANSFER", "002010077777777771", "CLABE").identifier, "002010077777777771");
    assert.equal(accepts("BANK_TRANSFER", "1234567890", "DIGITS_10_16").identifier, "1234567890");
    assert.equal(accepts("BANK_TRANSFER", "1234567890123456", "DIGITS_10_16").identifier, "1234567890123456");
    assert.equal(accepts("BANK_TRANSFER", "0123456785", "NUBAN").identifier, "0123456785");
    assert.equal(accepts("BANK_TRANSFER", "SN08SN0100152000048500003035", "IBAN_SN").identifier, "SN08SN0100152000048500003035");
    assert.equal(accepts("BANK_TRANSFER", "123456", "DIGITS_6_20").identifier, "123456");
    assert.equal(accepts("BANK_TRANSFER", "12345678901234567890", "DIGITS_6_20").identifier, "12345678901234567890");
  });

  it("accepts BANK_ACCOUNT as an alias and returns the canonical type", () => {
    assert.equal(accepts("BANK_ACCOUNT", "002010077777777771", "CLABE").methodType, "BANK_TRANSFER");
  });

  it("normalises grouping spaces, hyphens and lower-case IBAN letters", () => {
    assert.equal(accepts("BANK_TRANSFER", "sn08 sn01 0015 2000 0485 0000 3035", "IBAN_SN").identifier, "SN08SN0100152000048500003035");
    assert.equal(accepts("BANK_TRANSFER", "002-010-07777777777-1", "CLABE").identifier, "002010077777777771");
    assert.equal(accepts("BANK_TRANSFER", " 0123 456 785 ", "NUBAN").identifier, "0123456785");
  });

  it("accepts an IBAN shape on any corridor (the fast-check decides the country)", () => {
    assert.equal(accepts("BANK_TRANSFER", "GB82 WEST 1234 5698 7654 32", "CLABE").identifier, "GB82WEST12345698765432");
    assert.equal(accepts("BANK_TRANSFER", "FR1420041010050500013M02606", null).identifier, "FR1420041010050500013M02606");
  });

  it("holds the corridor's own IBAN to its fixed length, other IBANs to the generic shape", () => {
    rejects("BANK_TRANSFER", "SN08SN01001520000485000030351", "IBAN_SN"); // 29 chars
    assert.equal(accepts("BANK_TRANSFER", "FR1420041010050500013M02606", "IBAN_SN").identifier, "FR1420041010050500013M02606");
    rejects("BANK_TRANSFER", "FR14", "IBAN_SN");
  });

  it("does not check checksums at submit", () => {
    // Wrong CLABE check digit and wrong IBAN check digits: well-formed, so accepted here.
    assert.equal(accepts("BANK_TRANSFER", "002010077777777772", "CLABE").identifier, "002010077777777772");
    assert.equal(accepts("BANK_TRANSFER", "SN00SN0100152000048500003035", "IBAN_SN").identifier, "SN00SN0100152000048500003035");
  });

  it("rejects wrong lengths and characters per format", () => {
    rejects("BANK_TRANSFER", "00201007777777777", "CLABE"); // 17
    rejects("BANK_TRANSFER", "0020100777777777712", "CLABE"); // 19
    rejects("BANK_TRANSFER", "00201007777777777A", "CLABE");
    rejects("BANK_TRANSFER", "123456789", "DIGITS_10_16");
    rejects("BANK_TRANSFER", "12345678901234567", "DIGITS_10_16");
    rejects("BANK_TRANSFER", "012345678", "NUBAN");
    rejects("BANK_TRANSFER", "01234567851", "NUBAN");
    rejects("BANK_TRANSFER", "SN08SN010015200004850000303", "IBAN_SN"); // 27 chars
    rejects("BANK_TRANSFER", "12345", "DIGITS_6_20");
    rejects("BANK_TRANSFER", "123456789012345678901", "DIGITS_6_20");
    rejects("BANK_TRANSFER", "12345.678", "DIGITS_6_20");
    rejects("BANK_TRANSFER", "", "CLABE");
  });

  it("rejects national numbers when the corridor only takes IBANs", () => {
    rejects("BANK_TRANSFER", "1234567890", null);
  });

  it("rejects input that is too long before looking at it", () => {
    rejects("BANK_TRANSFER", "1".repeat(129), "DIGITS_6_20");
  });
});

describe("format check: phones (MOBILE_MONEY and CASH_PICKUP)", () => {
  for (const method of ["MOBILE_MONEY", "CASH_PICKUP"]) {
    it(`${method} takes the E.164 shape`, () => {
      assert.equal(accepts(method, "+525512345678").identifier, "+525512345678");
      assert.equal(accepts(method, "+52 55 1234 5678").identifier, "+525512345678");
      assert.equal(accepts(method, "+1234567").identifier, "+1234567"); // 7 digits, the shortest shape
      assert.equal(accepts(method, "+123456789012345").identifier, "+123456789012345"); // 15 digits
      // Shape only: not a real number for any country, still accepted at submit.
      assert.equal(accepts(method, "+999999999").identifier, "+999999999");
    });

    it(`${method} rejects other shapes`, () => {
      rejects(method, "525512345678"); // no +
      rejects(method, "+0525512345678"); // leading zero country code
      rejects(method, "+123456"); // 6 digits
      rejects(method, "+1234567890123456"); // 16 digits
      rejects(method, "+52-55-1234-5678");
      rejects(method, "+52(55)12345678");
      rejects(method, "00525512345678");
    });
  }
});

describe("format check: wallets", () => {
  it("accepts 8-64 letters and digits, case preserved", () => {
    assert.equal(accepts("WALLET_TRANSFER", "maya4f7a2c9e1bD9").identifier, "maya4f7a2c9e1bD9");
    assert.equal(accepts("WALLET_TRANSFER", "A".repeat(8)).identifier, "A".repeat(8));
    assert.equal(accepts("WALLET_TRANSFER", "a".repeat(64)).identifier, "a".repeat(64));
    assert.equal(accepts("WALLET_TRANSFER", "  PHWALLET0001UI ").identifier, "PHWALLET0001UI");
  });

  it("rejects other lengths and characters", () => {
    rejects("WALLET_TRANSFER", "A".repeat(7));
    rejects("WALLET_TRANSFER", "A".repeat(65));
    rejects("WALLET_TRANSFER", "PHWALLET-0001");
    rejects("WALLET_TRANSFER", "PHWALLET 0001");
    rejects("WALLET_TRANSFER", "wallet_address_01");
    rejects("WALLET_TRANSFER", "ñandúwallet01");
  });
});

describe("format check: method type", () => {
  it("rejects an unknown method type on the methodType field", () => {
    assert.throws(
      () => checkIdentifierFormat({ methodType: "CARD", destinationIdentifier: "4111111111111111", bankAccountFormat: null }),
      (error: unknown) =>
        error instanceof DomainError &&
        error.code === "validation.fieldInvalid" &&
        (error.details?.issues as { field: string }[])[0]!.field === "payoutMethod.methodType",
    );
  });
});
