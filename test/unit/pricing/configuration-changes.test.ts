/**
 * What a configuration version changes (lib/payments/corridors/changes.ts): the fields that differ between
 * two documents, a corridor's prices replaced keeping the written form of what did not change, a
 * document's problems at their fields, and the preview quote the approver reads.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  diffDocuments,
  documentProblems,
  optionalPriceText,
  parsePairs,
  previewQuote,
  tierLimitTexts,
  withCorridorPrices,
  withTierLimits,
} from "@/lib/payments/corridors/changes";
import { seedDocument, parseConfiguration, parseDocument } from "@/lib/payments/corridors/versions";
import { constantReferenceRates } from "@/lib/payments/pricing/reference-rate";

const prices = { principalFee: "3.49", minimumOriginAmount: "15", partnerFeeCap: "10.0", fxTolerance: "0.005", reviewThreshold: "1000" };

test("a price change replaces only what differs; the diff lists it by corridor and field", () => {
  const seed = seedDocument();
  const next = withCorridorPrices(seed, "US-MX", prices);
  assert.deepEqual(diffDocuments(seed, next), [{ field: "US-MX.principalFee", before: "2.99", after: "3.49" }]);
  assert.deepEqual(diffDocuments(seed, seed), []);
  assert.deepEqual(diffDocuments(seed, withCorridorPrices(seed, "XX-YY", prices)), [], "an unknown corridor changes nothing");
});

test("a corridor added or removed shows as the corridor itself", () => {
  const seed = seedDocument() as { corridors: Record<string, unknown>[] };
  const fewer = { ...seed, corridors: seed.corridors.filter((c) => c.code !== "ES-CO") };
  const changes = diffDocuments(seed, fewer);
  assert.deepEqual(changes[0], { field: "ES-CO", before: "offered", after: null });
  assert.ok(changes.every((c) => c.field.startsWith("ES-CO") && c.after === null));
});

test("problems are named by corridor code and field", () => {
  assert.deepEqual(documentProblems(seedDocument()), []);
  const bad = withCorridorPrices(seedDocument(), "GB-NG", { ...prices, principalFee: "1.999", fxTolerance: "0.2", minimumOriginAmount: "1" });
  const fields = documentProblems(bad).map((p) => p.field);
  assert.deepEqual([...new Set(fields)].sort(), ["GB-NG.fxTolerance", "GB-NG.minimumOriginAmount", "GB-NG.principalFee"]);
  assert.deepEqual(
    documentProblems({ ...seedDocument(), corridors: [] }).map((p) => p.field),
    ["corridors"],
  );
  assert.deepEqual(
    documentProblems({ ...seedDocument(), extra: 1 }).map((p) => p.field),
    ["document"],
  );
  assert.deepEqual(
    documentProblems({ corridors: seedDocument().corridors }).map((p) => p.field),
    ["tierLimits"],
    "a version without tier limits",
  );
});

test("the preview: a 100 USD quote to MXN under the price, fee, rate and amount received", () => {
  const rates = constantReferenceRates({ "USD/MXN": "18.75" });
  const [usmx] = parseDocument(withCorridorPrices(seedDocument(), "US-MX", prices));
  assert.equal(previewQuote(usmx, new Date(), rates), "100.00 USD to MXN: fee 3.49 USD, rate 18.75, receives 1875.00 MXN, pays 103.49 USD");
});

test("the form's optional prices: written as pairs, changed only when they differ, removed when left empty", () => {
  const seed = seedDocument();
  const banded = withCorridorPrices(seed, "US-MX", {
    ...prices,
    principalFee: "2.99",
    fxTolerance: "0.02",
    principalFeeBands: "500.00=4.99; 1500.00=7.99",
    partnerFxMargins: "par_1=0.005",
    fxMargin: "0.01",
    maximumOriginAmount: "",
  });
  assert.deepEqual(
    diffDocuments(seed, banded).map((c) => [c.field, c.after]),
    [
      ["US-MX.fxTolerance", "0.02"],
      ["US-MX.fxMargin", "0.01"],
      [
        "US-MX.principalFeeBands",
        JSON.stringify([
          { fromOriginAmount: "500.00", fee: "4.99" },
          { fromOriginAmount: "1500.00", fee: "7.99" },
        ]),
      ],
      ["US-MX.partnerFxMargins.par_1", "0.005"],
    ],
  );
  assert.deepEqual(documentProblems(banded), []);
  const usMx = (banded.corridors as Record<string, unknown>[]).find((c) => c.code === "US-MX");
  assert.equal(optionalPriceText(usMx, "principalFeeBands"), "500.00=4.99; 1500.00=7.99");
  assert.equal(optionalPriceText(usMx, "partnerFxMargins"), "par_1=0.005");
  // The same pairs written differently change nothing; empty removes them.
  const same = withCorridorPrices(banded, "US-MX", { ...prices, principalFee: "2.99", fxTolerance: "0.02", principalFeeBands: "500.00 = 4.99,1500.00=7.99\n" });
  assert.deepEqual(diffDocuments(banded, same), []);
  const removed = withCorridorPrices(banded, "US-MX", {
    ...prices,
    principalFee: "2.99",
    fxTolerance: "0.02",
    principalFeeBands: "",
    partnerFxMargins: "",
    fxMargin: "",
  });
  assert.deepEqual(
    diffDocuments(banded, removed).map((c) => [c.field, c.after]),
    [
      ["US-MX.fxMargin", null],
      ["US-MX.principalFeeBands", null],
      ["US-MX.partnerFxMargins.par_1", null],
    ],
  );
  assert.equal(parsePairs("500=4.99; 7.99"), null, "a pair without its value");
});

test("tier limits: seeded with the shipped values; a change replaces only what differs, listed as tierLimits.<tier>.<window>", () => {
  const seed = seedDocument();
  assert.deepEqual(parseConfiguration(seed).tierLimits, {
    "1": { P1D: "2999", P30D: "10000", P180D: "18000" },
    "2": { P1D: "10000", P30D: "25000", P180D: "60000" },
  });
  const texts = tierLimitTexts(seed) as Parameters<typeof withTierLimits>[1];
  assert.equal(Object.keys(texts).length, 6);
  const next = withTierLimits(seed, { ...texts, "1.P1D": "1500", "2.P30D": "25000.00" });
  assert.deepEqual(diffDocuments(seed, next), [{ field: "tierLimits.1.P1D", before: "2999", after: "1500" }], "25000.00 is 25000: kept as written");
  assert.deepEqual(diffDocuments(seed, withTierLimits(seed, texts)), []);
});

test("tier limits' problems at their fields: positive cents, a longer window never below a shorter, tier 2 never below tier 1", () => {
  const seed = seedDocument();
  const texts = tierLimitTexts(seed) as Parameters<typeof withTierLimits>[1];
  const problems = (changes: Partial<typeof texts>) => documentProblems(withTierLimits(seed, { ...texts, ...changes }));
  assert.deepEqual(
    problems({ "1.P1D": "0" }).map((p) => p.field),
    ["tierLimits.1.P1D"],
  );
  assert.deepEqual(
    problems({ "1.P1D": "29.999" }).map((p) => p.field),
    ["tierLimits.1.P1D"],
  );
  assert.deepEqual(
    problems({ "1.P1D": "abc" }).map((p) => p.field),
    ["tierLimits.1.P1D"],
  );
  assert.deepEqual(
    problems({ "1.P30D": "2000" }).map((p) => [p.field, p.message]),
    [["tierLimits.1.P30D", "may not be below tier 1's P1D"]],
  );
  assert.deepEqual(
    problems({ "2.P1D": "2000" }).map((p) => [p.field, p.message]),
    [["tierLimits.2.P1D", "may not be below tier 1's P1D"]],
  );
  assert.deepEqual(problems({ "1.P1D": "2999.50" }), []);
});

test("the form's funding methods: a list, changed only when it differs, empty for every method", () => {
  const seed = seedDocument();
  const withMethods = (fundingMethods: string) => withCorridorPrices(seed, "US-MX", { ...prices, principalFee: "2.99", fundingMethods });
  const cardOnly = withMethods("CARD");
  assert.deepEqual(diffDocuments(seed, cardOnly), [{ field: "US-MX.fundingMethods", before: null, after: '["CARD"]' }]);
  assert.equal(optionalPriceText((cardOnly.corridors as Record<string, unknown>[])[0], "fundingMethods"), "CARD");
  assert.deepEqual(diffDocuments(cardOnly, withCorridorPrices(cardOnly, "US-MX", { ...prices, principalFee: "2.99", fundingMethods: "CARD" })), []);
  assert.deepEqual(diffDocuments(seed, withMethods("")), [], "empty: every method, as the shipped corridors");
  assert.deepEqual(
    documentProblems(withMethods("CARD, CHEQUE")).map((p) => p.field),
    ["US-MX.fundingMethods.1"],
  );
});
