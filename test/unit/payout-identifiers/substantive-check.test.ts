import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkIdentifierSubstance, isValidPhoneForCountry, toAlpha2 } from "@/lib/payments/payout-identifiers/substantive-check";
import type { BankAccountFormat } from "@/lib/payments/payout-identifiers/method-types";

function check(methodType: string, identifier: string, destinationCountry: string, bankAccountFormat: BankAccountFormat | null = null, bankCode?: string) {
  return checkIdentifierSubstance({ methodType, identifier, destinationCountry, bankAccountFormat, bankCode });
}
const ok = { ok: true };
const fail = (reasonCode: string) => ({ ok: false, reasonCode });

describe("substantive check: IBAN", () => {
  it("accepts a valid IBAN of the destination country", () => {
    assert.deepEqual(check("BANK_TRANSFER", "SN08SN0100152000048500003035", "SN", "IBAN_SN"), ok);
    assert.deepEqual(check("BANK_TRANSFER", "SN08 SN01 0015 2000 0485 0000 3035", "SEN", "IBAN_SN"), ok);
    assert.deepEqual(check("BANK_ACCOUNT", "SN08SN0100152000048500003035", "SN", "IBAN_SN"), ok);
  });

  it("rejects a bad mod-97 checksum", () => {
    assert.deepEqual(check("BANK_TRANSFER", "SN09SN0100152000048500003035", "SN", "IBAN_SN"), fail("TRF_CHECK_IBAN_INVALID"));
    assert.deepEqual(check("BANK_TRANSFER", "SN08SN0100152000048500003036", "SN", "IBAN_SN"), fail("TRF_CHECK_IBAN_INVALID"));
  });

  it("rejects a wrong length for the country", () => {
    // Valid-looking FR structure but one character short of France's 27.
    assert.deepEqual(check("BANK_TRANSFER", "FR142004101005050001302606", "FR", null), fail("TRF_CHECK_IBAN_INVALID"));
  });

  it("rejects a valid IBAN of another country", () => {
    assert.deepEqual(check("BANK_TRANSFER", "FR1420041010050500013M02606", "SN", "IBAN_SN"), fail("TRF_CHECK_IBAN_INVALID"));
    assert.deepEqual(check("BANK_TRANSFER", "GB82WEST12345698765432", "MX", "CLABE"), fail("TRF_CHECK_IBAN_INVALID"));
  });

  it("rejects a non-IBAN on an IBAN-only corridor", () => {
    assert.deepEqual(check("BANK_TRANSFER", "0123456785", "SN", "IBAN_SN"), fail("TRF_CHECK_IBAN_INVALID"));
    assert.deepEqual(check("BANK_TRANSFER", "0123456785", "FR", null), fail("TRF_CHECK_IBAN_INVALID"));
  });
});

describe("substantive check: national accounts", () => {
  it("CLABE: valid passes, corrupted fails", () => {
    assert.deepEqual(check("BANK_TRANSFER", "002010077777777771", "MX", "CLABE"), ok);
    assert.deepEqual(check("BANK_TRANSFER", "002010077777777772", "MEX", "CLABE"), fail("TRF_CHECK_CLABE_INVALID"));
    assert.deepEqual(check("BANK_TRANSFER", "00201007777777777", "MX", "CLABE"), fail("TRF_CHECK_CLABE_INVALID"));
  });

  it("NUBAN: check digit when the bank code is known, length only otherwise", () => {
    assert.deepEqual(check("BANK_TRANSFER", "0123456785", "NG", "NUBAN", "058"), ok);
    assert.deepEqual(check("BANK_TRANSFER", "0123456786", "NG", "NUBAN", "058"), fail("TRF_CHECK_ACCOUNT_INVALID"));
    assert.deepEqual(check("BANK_TRANSFER", "0123456786", "NG", "NUBAN"), ok);
    assert.deepEqual(check("BANK_TRANSFER", "012345678", "NG", "NUBAN"), fail("TRF_CHECK_ACCOUNT_INVALID"));
  });

  it("digit-range corridors re-check the structure", () => {
    assert.deepEqual(check("BANK_TRANSFER", "001234567890", "PH", "DIGITS_10_16"), ok);
    assert.deepEqual(check("BANK_TRANSFER", "123456789", "PH", "DIGITS_10_16"), fail("TRF_CHECK_ACCOUNT_INVALID"));
    assert.deepEqual(check("BANK_TRANSFER", "123456", "CO", "DIGITS_6_20"), ok);
    assert.deepEqual(check("BANK_TRANSFER", "12345", "CO", "DIGITS_6_20"), fail("TRF_CHECK_ACCOUNT_INVALID"));
  });
});

describe("substantive check: phones", () => {
  it("accepts a valid number of the destination country", () => {
    assert.deepEqual(check("MOBILE_MONEY", "+2348031234567", "NG"), ok);
    assert.deepEqual(check("CASH_PICKUP", "+52 55 1234 5678", "MEX"), ok);
  });

  it("rejects a valid number of another country (the country argument is not a default here)", () => {
    assert.deepEqual(check("CASH_PICKUP", "+639171234567", "MX"), fail("TRF_CHECK_PHONE_INVALID"));
    assert.deepEqual(check("MOBILE_MONEY", "+221771234567", "NG"), fail("TRF_CHECK_PHONE_INVALID"));
  });

  it("rejects numbers that are well-formed but not in the numbering plan", () => {
    assert.deepEqual(check("MOBILE_MONEY", "+2341234", "NG"), fail("TRF_CHECK_PHONE_INVALID"));
    assert.deepEqual(check("MOBILE_MONEY", "+22112345678", "SN"), fail("TRF_CHECK_PHONE_INVALID"));
    assert.deepEqual(check("CASH_PICKUP", "+5212", "MX"), fail("TRF_CHECK_PHONE_INVALID"));
    assert.deepEqual(check("CASH_PICKUP", "525512345678", "MX"), fail("TRF_CHECK_PHONE_INVALID"));
  });

  it("handles calling codes shared by several countries", () => {
    // +1 416 is Toronto: valid for CA, not for US.
    assert.equal(isValidPhoneForCountry("+14169671111", "CA"), true);
    assert.equal(isValidPhoneForCountry("+14169671111", "US"), false);
    assert.equal(isValidPhoneForCountry("+12025550123", "US"), true);
    assert.equal(isValidPhoneForCountry("+12025550123", "CA"), false);
  });
});

describe("substantive check: wallets", () => {
  it("accepts a correct checksum and rejects a wrong one", () => {
    assert.deepEqual(check("WALLET_TRANSFER", "PHWALLET0001UI", "PH"), ok);
    assert.deepEqual(check("WALLET_TRANSFER", "PHWALLET0001UJ", "PH"), fail("TRF_CHECK_WALLET_INVALID"));
    assert.deepEqual(check("WALLET_TRANSFER", "PHWALLET0002UI", "PH"), fail("TRF_CHECK_WALLET_INVALID"));
    assert.deepEqual(check("WALLET_TRANSFER", "short", "PH"), fail("TRF_CHECK_WALLET_INVALID"));
  });
});

describe("substantive check: configuration errors are bugs", () => {
  it("throws on an unknown method or country", () => {
    assert.throws(() => check("CARD", "4111111111111111", "MX"), TypeError);
    assert.throws(() => check("MOBILE_MONEY", "+525512345678", "XX"), TypeError);
    assert.throws(() => check("MOBILE_MONEY", "+525512345678", "XXX"), TypeError);
  });

  it("maps alpha-3 to alpha-2", () => {
    assert.equal(toAlpha2("MEX"), "MX");
    assert.equal(toAlpha2("phl"), "PH");
    assert.equal(toAlpha2("NG"), "NG");
  });
});
