import { test } from "node:test";
import assert from "node:assert/strict";
import rawCorridors from "@/data/corridors/v2.json";
import { DomainError } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import {
  corridorByCode,
  findCorridor,
  checkMinimumAmount,
  isAtOrAboveReviewThreshold,
  listCorridors,
  loadCorridorFile,
  resolvePayoutMethod,
} from "@/lib/payments/corridors/corridors";
import { latestTable } from "@/lib/payments/corridors/versions";
import { corridorType, payoutMethodToType, payoutTypeToMethod, quoteTtlSeconds } from "@/lib/payments/corridors/payout-methods";

test("the five sandbox corridors of decisions 6, exactly", () => {
  const expected = [
    ["US-MX", "USA", "MEX", "USD", "MXN", ["bank_account", "cash_pickup"], "CLABE"],
    ["US-PH", "USA", "PHL", "USD", "PHP", ["bank_account", "wallet_transfer", "cash_pickup"], "DIGITS_10_16"],
    ["GB-NG", "GBR", "NGA", "GBP", "NGN", ["bank_account", "mobile_money"], "NUBAN"],
    ["FR-SN", "FRA", "SEN", "EUR", "XOF", ["bank_account", "mobile_money"], "IBAN_SN"],
    ["ES-CO", "ESP", "COL", "EUR", "COP", ["bank_account", "cash_pickup"], "DIGITS_6_20"],
  ];
  const actual = listCorridors().map((c) => [
    c.code,
    c.originCountry.alpha3,
    c.destinationCountry.alpha3,
    c.originCurrency,
    c.destinationCurrency,
    [...c.payoutMethods],
    c.bankAccount.format,
  ]);
  assert.deepEqual(actual, expected);
  // Without a database the shipped data stands in as version 1, in force from the start.
  assert.equal(latestTable().version, 1);
  for (const c of listCorridors()) assert.equal(c.reviewThreshold.eq(1000), true, c.code);
});

test("findCorridor takes alpha-3 (profiles) or alpha-2 (corridor codes), in one direction only", () => {
  assert.equal(findCorridor("USA", "MEX")?.code, "US-MX");
  assert.equal(findCorridor("US", "MX")?.code, "US-MX");
  assert.equal(findCorridor("USA", "PH")?.code, "US-PH");
  assert.equal(findCorridor("fra", "sen")?.code, "FR-SN");
  assert.equal(findCorridor("MEX", "USA"), undefined);
  assert.equal(findCorridor("USA", "NGA"), undefined);
  assert.equal(findCorridor("", ""), undefined);
  assert.equal(corridorByCode("GB-NG")?.destinationCurrency, "NGN");
  assert.equal(corridorByCode("gb-ng"), undefined);
});

test("corridor data is immutable at run time", () => {
  const c = corridorByCode("US-MX")!;
  assert.throws(() => (c.payoutMethods as string[]).push("mobile_money"), TypeError);
  assert.throws(() => {
    (c as { principalFee: Decimal }).principalFee = new Decimal(0);
  }, TypeError);
});

test("payout method <-> PayoutMethodType, BANK_ACCOUNT accepted as alias", () => {
  assert.equal(payoutMethodToType("bank_account"), "BANK_TRANSFER");
  assert.equal(payoutMethodToType("cash_pickup"), "CASH_PICKUP");
  assert.equal(payoutMethodToType("wallet_transfer"), "WALLET_TRANSFER");
  assert.equal(payoutMethodToType("mobile_money"), "MOBILE_MONEY");
  assert.equal(payoutTypeToMethod("BANK_TRANSFER"), "bank_account");
  assert.equal(payoutTypeToMethod("BANK_ACCOUNT"), "bank_account");
  assert.equal(payoutTypeToMethod("CASH_PICKUP"), "cash_pickup");
  assert.equal(payoutTypeToMethod("WALLET_TRANSFER"), "wallet_transfer");
  assert.equal(payoutTypeToMethod("MOBILE_MONEY"), "mobile_money");
  assert.equal(payoutTypeToMethod("bank_transfer"), null);
  assert.equal(payoutTypeToMethod("toString"), null);
});

test("corridor type and quote lifetime: cash pickup is OFFLINE with the 30-minute ceiling", () => {
  const config = { QUOTE_TTL_SECONDS: 60, QUOTE_OFFLINE_TTL_SECONDS: 1800 };
  assert.equal(corridorType("cash_pickup"), "OFFLINE");
  for (const m of ["bank_account", "wallet_transfer", "mobile_money"] as const) assert.equal(corridorType(m), "OPEN_PAYMENT");
  assert.equal(quoteTtlSeconds("OFFLINE", config), 1800);
  assert.equal(quoteTtlSeconds("OPEN_PAYMENT", config), 60);
});

test("resolvePayoutMethod: default is the first method; others must be offered", () => {
  const usMx = corridorByCode("US-MX")!;
  assert.equal(resolvePayoutMethod(usMx), "bank_account");
  assert.equal(resolvePayoutMethod(usMx, "cash_pickup"), "cash_pickup");
  assert.equal(resolvePayoutMethod(corridorByCode("US-PH")!, "wallet_transfer"), "wallet_transfer");
  for (const bad of ["mobile_money", "BANK_TRANSFER", "", 3]) {
    assert.throws(
      () => resolvePayoutMethod(usMx, bad),
      (err: unknown) => err instanceof DomainError && err.code === "validation.methodNotAvailableForCorridor" && err.status === 400,
    );
  }
});

test("review threshold applies at or above 1000 in the origin currency", () => {
  const c = corridorByCode("GB-NG")!;
  assert.equal(isAtOrAboveReviewThreshold(c, new Decimal("999.99")), false);
  assert.equal(isAtOrAboveReviewThreshold(c, new Decimal("1000.000000")), true);
});

/** A copy of the shipped file with one corridor changed by `edit`. */
function variant(edit: (c: Record<string, unknown>) => void): unknown {
  const copy = structuredClone(rawCorridors) as { corridors: Record<string, unknown>[] };
  edit(copy.corridors[0]!);
  return copy;
}

test("the shipped file passes its schema", () => {
  assert.doesNotThrow(() => loadCorridorFile(rawCorridors));
});

test("schema rejects inconsistent corridor data", () => {
  const broken: [string, unknown][] = [
    ["alpha-2/alpha-3 disagree", variant((c) => (c.originCountry = { alpha2: "US", alpha3: "MEX" }))],
    ["code not matching countries", variant((c) => (c.code = "US-PH"))],
    ["fee below the minor unit", variant((c) => (c.principalFee = "2.999"))],
    ["no minimum amount", variant((c) => delete c.minimumOriginAmount)],
    ["minimum not above the fee", variant((c) => (c.minimumOriginAmount = "2.99"))],
    ["minimum below the minor unit", variant((c) => (c.minimumOriginAmount = "15.001"))],
    ["fee as a JSON number", variant((c) => (c.principalFee = 2.99))],
    ["negative fee", variant((c) => (c.partnerFeeCap = "-1"))],
    ["unknown currency", variant((c) => (c.destinationCurrency = "MXX"))],
    ["no payout method", variant((c) => (c.payoutMethods = []))],
    ["unknown payout method", variant((c) => (c.payoutMethods = ["bank_account", "pigeon"]))],
    ["duplicate payout method", variant((c) => (c.payoutMethods = ["bank_account", "bank_account"]))],
    ["unknown bank account format", variant((c) => (c.bankAccount = { format: "SWIFT", description: "x" }))],
    ["tolerance not covering the rate swing", variant((c) => (c.fxTolerance = "0.004"))],
    ["zero tolerance", variant((c) => (c.fxTolerance = "0"))],
    ["zero reference rate", variant((c) => (c.referenceRate = { source: "sandbox", mid: "0", amplitude: "0" }))],
    ["unknown key (typo)", variant((c) => (c.principleFee = "2.99"))],
    ["duplicate corridor", { ...(rawCorridors as object), corridors: [rawCorridors.corridors[0], rawCorridors.corridors[0]] }],
    ["bad version", { ...(rawCorridors as object), version: "1" }],
  ];
  for (const [label, file] of broken) {
    assert.throws(() => loadCorridorFile(file), /Invalid corridor data/, label);
  }
});

test("each corridor has a minimum amount with the fee at most 20% of it; below it is refused naming the minimum (issue 20 item 7)", () => {
  assert.deepEqual(
    listCorridors().map((c) => [c.code, c.minimumOriginAmount.toFixed(2)]),
    [
      ["US-MX", "15.00"],
      ["US-PH", "15.00"],
      ["GB-NG", "10.00"],
      ["FR-SN", "15.00"],
      ["ES-CO", "15.00"],
    ],
  );
  for (const c of listCorridors()) assert.ok(c.principalFee.div(c.minimumOriginAmount).lte("0.2"), c.code);
  const usMx = corridorByCode("US-MX")!;
  assert.doesNotThrow(() => checkMinimumAmount(usMx, new Decimal("15.000000")));
  for (const amount of ["14.99", "0.01", "3.00"]) {
    assert.throws(
      () => checkMinimumAmount(usMx, new Decimal(amount)),
      (e) =>
        e instanceof DomainError &&
        e.code === "validation.fieldInvalid" &&
        JSON.stringify((e.details as { issues: unknown }).issues) ===
          JSON.stringify([{ field: "originAmount", code: "validation.fieldInvalid", message: "The amount is below the minimum of 15.00 USD for US-MX." }]),
      amount,
    );
  }
});
