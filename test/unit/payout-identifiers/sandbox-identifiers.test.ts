import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isValidIBAN } from "ibantools";
import { checkIdentifierFormat } from "@/lib/payments/payout-identifiers/format-check";
import { sandboxTestIdentifiers, sandboxTestPhones } from "@/lib/payments/payout-identifiers/sandbox-identifiers";
import { checkIdentifierSubstance, isValidPhoneForCountry } from "@/lib/payments/payout-identifiers/substantive-check";

describe("sandbox test identifiers pass both checks", () => {
  for (const [corridor, data] of Object.entries(sandboxTestIdentifiers)) {
    const bankCodes: Readonly<Record<string, string>> = "nubanBankCodes" in data ? data.nubanBankCodes : {};
    const cases: [string, readonly string[]][] = [
      ["BANK_TRANSFER", data.bankAccounts],
      ["MOBILE_MONEY", data.phones],
      ["CASH_PICKUP", data.phones],
      ["WALLET_TRANSFER", data.wallets],
    ];
    for (const [methodType, identifiers] of cases) {
      for (const identifier of identifiers) {
        it(`${corridor} ${methodType} ${identifier}`, () => {
          const formatted = checkIdentifierFormat({ methodType, destinationIdentifier: identifier, bankAccountFormat: data.bankAccountFormat });
          assert.equal(formatted.identifier, identifier);
          const result = checkIdentifierSubstance({
            methodType,
            identifier,
            destinationCountry: data.destinationCountry,
            bankAccountFormat: data.bankAccountFormat,
            bankCode: bankCodes[identifier],
          });
          assert.deepEqual(result, { ok: true });
        });
      }
    }
  }

  it("the FR-SN example IBAN is valid per ibantools", () => {
    assert.ok(isValidIBAN("SN08SN0100152000048500003035"));
  });

  it("the GB-NG accounts carry a correct check digit for their bank", () => {
    const ng = sandboxTestIdentifiers["GB-NG"];
    for (const account of ng.bankAccounts) assert.ok(ng.nubanBankCodes[account], account);
  });

  it("every sandbox phone is valid for its country", () => {
    for (const [country, phones] of Object.entries(sandboxTestPhones)) {
      for (const phone of phones) assert.ok(isValidPhoneForCountry(phone, country), `${country} ${phone}`);
    }
  });
});
