import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { clabeCheckDigit, isValidClabe } from "@/lib/platform/bank-identifiers/clabe";
import { isValidNuban, nubanCheckDigit } from "@/lib/payments/payout-identifiers/nuban";
import { isValidWalletIdentifier, walletCheckCharacters, withWalletCheck } from "@/lib/payments/payout-identifiers/wallet-checksum";

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
const alnum = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"), minLength: min, maxLength: max });

describe("CLABE check digit", () => {
  it("accepts known valid CLABEs", () => {
    for (const clabe of ["002010077777777771", "032180000118359719", "014027000005555558"]) {
      assert.ok(isValidClabe(clabe), clabe);
    }
    assert.equal(clabeCheckDigit("00201007777777777"), 1);
  });

  it("rejects a corrupted CLABE", () => {
    assert.equal(isValidClabe("002010077777777772"), false); // check digit changed
    assert.equal(isValidClabe("002010077777778771"), false); // body digit changed
    assert.equal(isValidClabe("00201007777777777"), false); // too short
    assert.equal(isValidClabe("00201007777777777X"), false);
  });

  it("detects every single-digit substitution (weights 3, 7, 1 are all units mod 10)", () => {
    fc.assert(
      fc.property(digits(17, 17), fc.nat(17), fc.integer({ min: 1, max: 9 }), (body, pos, delta) => {
        const valid = body + clabeCheckDigit(body);
        const changed = valid.slice(0, pos) + ((Number(valid[pos]) + delta) % 10) + valid.slice(pos + 1);
        return isValidClabe(valid) && !isValidClabe(changed);
      }),
    );
  });
});

describe("NUBAN check digit", () => {
  it("matches the CBN worked example (bank 011, serial 000001457, check 9)", () => {
    assert.equal(nubanCheckDigit("011", "000001457"), 9);
    assert.ok(isValidNuban("0000014579", "011"));
  });

  it("treats a 3-digit bank code as the 6-digit code 000xxx", () => {
    fc.assert(fc.property(digits(3, 3), digits(9, 9), (bank, serial) => nubanCheckDigit(bank, serial) === nubanCheckDigit(`000${bank}`, serial)));
  });

  it("rejects a wrong check digit, a wrong bank and a wrong length", () => {
    assert.ok(isValidNuban("0123456785", "058"));
    assert.equal(isValidNuban("0123456786", "058"), false);
    assert.equal(isValidNuban("0123456785", "011"), false);
    assert.equal(isValidNuban("012345678", "058"), false);
    assert.equal(isValidNuban("0123456785", "58"), false);
  });
});

describe("wallet checksum (ISO/IEC 7064 MOD 1271-36)", () => {
  it("matches the standard's example: ISO79 -> 3W", () => {
    assert.equal(walletCheckCharacters("ISO79"), "3W");
  });

  it("accepts generated identifiers, case-insensitively", () => {
    fc.assert(fc.property(alnum(6, 62), (body) => isValidWalletIdentifier(withWalletCheck(body))));
    assert.ok(isValidWalletIdentifier("PHWALLET0001UI"));
    assert.ok(isValidWalletIdentifier("PHWALLET0001ui"));
    assert.ok(isValidWalletIdentifier("phwallet0001UI"));
  });

  it("detects every single substitution", () => {
    fc.assert(
      fc.property(alnum(6, 62), fc.nat(), fc.integer({ min: 1, max: 35 }), (body, p, delta) => {
        const valid = withWalletCheck(body).toUpperCase();
        const pos = p % valid.length;
        const replacement = ((parseInt(valid[pos]!, 36) + delta) % 36).toString(36).toUpperCase();
        const changed = valid.slice(0, pos) + replacement + valid.slice(pos + 1);
        return !isValidWalletIdentifier(changed);
      }),
    );
  });

  it("detects every adjacent transposition of different characters", () => {
    fc.assert(
      fc.property(alnum(6, 62), fc.nat(), (body, p) => {
        const valid = withWalletCheck(body).toUpperCase();
        const pos = p % (valid.length - 1);
        fc.pre(valid[pos] !== valid[pos + 1]);
        const swapped = valid.slice(0, pos) + valid[pos + 1] + valid[pos] + valid.slice(pos + 2);
        return !isValidWalletIdentifier(swapped);
      }),
    );
  });

  it("has exactly one spelling of the check characters", () => {
    assert.equal(walletCheckCharacters("ABCDEF0"), walletCheckCharacters("abcdef0"));
    // A body whose check value v is at most 24 also "verifies" as v + 1271 (ZB..ZZ) under a plain
    // mod test; only the computed spelling is accepted.
    let body = "";
    for (let n = 0; !body; n++) {
      const candidate = `WALLET${n.toString(36).toUpperCase()}`;
      if (parseInt(walletCheckCharacters(candidate), 36) <= 24) body = candidate;
    }
    const value = parseInt(walletCheckCharacters(body), 36) + 1271;
    const alias = (Math.floor(value / 36).toString(36) + (value % 36).toString(36)).toUpperCase();
    assert.ok(isValidWalletIdentifier(withWalletCheck(body)));
    assert.equal(isValidWalletIdentifier(body + alias), false);
  });

  it("rejects the wrong length or characters", () => {
    assert.equal(isValidWalletIdentifier("AB12345"), false);
    assert.equal(isValidWalletIdentifier("PHWALLET-0001UI"), false);
  });
});
