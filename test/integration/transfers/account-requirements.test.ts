/**
 * GET /v1/core/account-requirements over HTTP: every shipped corridor's methods answer their
 * fields, and the demo's payout methods (the sandbox identifiers) meet the destination's format;
 * an amount above the threshold adds the originator's data; a destination no corridor pays, a
 * malformed query and a missing token are 4xx in the envelope.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { listCorridors } from "@/lib/payments/corridors/corridors";
import { checkIdentifierFormat } from "@/lib/payments/payout-identifiers/format-check";
import { sandboxTestIdentifiers } from "@/lib/payments/payout-identifiers/sandbox-identifiers";
import { call, errorOf, validCustomer, type Customer } from "../support";

let c: Customer;
before(async () => {
  c = await validCustomer();
});

const requirements = (query: Record<string, string>, token: string | undefined = c.token) =>
  call("GET", `/v1/core/account-requirements?${new URLSearchParams(query)}`, token ? { token } : {});

describe("GET /v1/core/account-requirements", () => {
  test("every shipped corridor's methods: the fields with their format, which the demo's payout methods meet", async () => {
    let checked = 0;
    for (const corridor of listCorridors()) {
      const demo = sandboxTestIdentifiers[corridor.code as keyof typeof sandboxTestIdentifiers];
      for (const method of corridor.payoutMethods) {
        const res = await requirements({ country: corridor.destinationCountry.alpha2, currency: corridor.destinationCurrency, method });
        assert.equal(res.status, 200, `${corridor.code} ${method}: ${res.text}`);
        assert.equal(res.body.method, method);
        assert.equal(res.body.currency, corridor.destinationCurrency);
        const methodType = res.body.fields.find((f: { key: string }) => f.key === "methodType");
        assert.ok(methodType?.refreshRequirementsOnChange, `${corridor.code} ${method}: the method refreshes the form`);
        assert.ok(methodType.allowedValues.includes(res.body.methodType));
        const destination = res.body.fields.find((f: { key: string }) => f.key === "destinationIdentifier");
        assert.ok(destination?.required && destination.regex, `${corridor.code} ${method}: a required destination with a format`);
        assert.ok(
          res.body.beneficiary.some((d: { key: string; required: boolean }) => d.required),
          `${corridor.code} ${method}: the beneficiary's data`,
        );
        assert.deepEqual(res.body.originator, [], "no amount: no originator data");
        const values: readonly string[] = method === "bank_account" ? demo.bankAccounts : method === "wallet_transfer" ? demo.wallets : demo.phones;
        for (const v of values) {
          const { identifier } = checkIdentifierFormat({
            methodType: res.body.methodType,
            destinationIdentifier: v,
            bankAccountFormat: corridor.bankAccount.format,
          });
          assert.match(identifier, new RegExp(destination.regex), `${corridor.code} ${method} ${v}`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 25, `${checked} demo payout methods checked`);
  });

  test("above the originator data threshold the originator's date of birth, address and identifier are required; at it, none", async () => {
    const at = await requirements({ country: "MEX", currency: "MXN", method: "bank_account", amount: "1000" });
    assert.equal(at.status, 200, at.text);
    assert.deepEqual(at.body.originator, []);
    const above = await requirements({ country: "MX", currency: "MXN", method: "bank_account", amount: "1500.00" });
    assert.equal(above.status, 200, above.text);
    assert.deepEqual(
      above.body.originator.map((o: { key: string; required: boolean }) => [o.key, o.required]),
      [
        ["dateOfBirth", true],
        ["address", true],
        ["identifier", true],
      ],
    );
  });

  test("a destination no corridor pays, a malformed query, no token: 4xx in the envelope", async () => {
    const none = await requirements({ country: "MX", currency: "PHP", method: "bank_account" });
    assert.equal(none.status, 400, none.text);
    assert.equal(errorOf(none).code, "validation.methodNotAvailableForCorridor");
    const badCountry = await requirements({ country: "M1", currency: "MXN", method: "bank_account" });
    assert.equal(badCountry.status, 400, badCountry.text);
    const badAmount = await requirements({ country: "MX", currency: "MXN", method: "bank_account", amount: "-5" });
    assert.equal(badAmount.status, 400, badAmount.text);
    const badMethod = await requirements({ country: "MX", currency: "MXN", method: "carrier_pigeon" });
    assert.equal(badMethod.status, 400, badMethod.text);
    const anonymous = await requirements({ country: "MX", currency: "MXN", method: "bank_account" }, "");
    assert.equal(anonymous.status, 401, anonymous.text);
  });
});
