/**
 * Published reference rates, pure: the ECB and secondary parsers, cross rates
 * through EUR in Decimal, pegs, precedence, staleness and missing currencies.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { publishedReferenceRates } from "@/lib/payments/pricing/published-rates";
import { parseEcbDaily, parseSecondary } from "@/lib/payments/pricing/rate-feeds";
import { rateFixture } from "../../support/rate-feed-server";

const ecbA = parseEcbDaily(rateFixture("eurofxref-daily-a.xml"));
const ecbB = parseEcbDaily(rateFixture("eurofxref-daily-b.xml"));
const secondary = parseSecondary(rateFixture("secondary-usd.json"));
const xofPeg = { currency: "XOF", anchor: "EUR", rate: "655.957" };
const at = (iso: string) => new Date(iso);
const friday = at("2026-11-21T09:00:00Z");

const provider = (sets: Parameters<typeof publishedReferenceRates>[0]["sets"], pegs = [xofPeg]) => publishedReferenceRates({ sets, pegs, maxAgeHours: 96 });

function unavailable(fn: () => unknown): DomainError {
  const err = (() => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    return assert.fail("expected internal.unavailable");
  })();
  assert.ok(err instanceof DomainError, String(err));
  assert.equal(err.code, "internal.unavailable");
  assert.equal(err.status, 503);
  return err;
}

test("the ECB daily XML parses to its date and rates, as strings", () => {
  assert.equal(ecbA.base, "EUR");
  assert.equal(ecbA.publishedAt.toISOString(), "2026-11-20T15:00:00.000Z");
  assert.equal(ecbA.rates.USD, "1.0500");
  assert.equal(ecbA.rates.MXN, "19.6875");
  assert.equal(Object.keys(ecbA.rates).length, 8);
});

test("cross rates go through EUR in Decimal: two fixtures, two rates", () => {
  assert.equal(provider({ ecb: ecbA }).rate({ from: "USD", to: "MXN" }, friday).toFixed(), "18.75");
  assert.equal(provider({ ecb: ecbB }).rate({ from: "USD", to: "MXN" }, at("2026-11-23T16:00:00Z")).toFixed(), "19");
  // 59.010 / 1.0500 = 56.2 exactly; a float division would give 56.199999999999996.
  assert.equal(provider({ ecb: ecbA }).rate({ from: "USD", to: "PHP" }, friday).toFixed(), "56.2");
  assert.equal(provider({ ecb: ecbA }).rate({ from: "EUR", to: "GBP" }, friday).toFixed(), "0.83");
});

test("a peg prices its currency without any feed carrying it, and is never stale against the euro", () => {
  assert.equal(provider({ ecb: ecbA }).rate({ from: "EUR", to: "XOF" }, friday).toFixed(), "655.957");
  assert.equal(provider({}).rate({ from: "EUR", to: "XOF" }, at("2030-01-01T00:00:00Z")).toFixed(), "655.957");
  // A peg to another currency follows that currency's feed rate: 1.05 USD per EUR x 2.7 = 2.835.
  assert.equal(
    provider({ ecb: ecbA }, [{ currency: "XCD", anchor: "USD", rate: "2.7" }])
      .rate({ from: "EUR", to: "XCD" }, friday)
      .toFixed(),
    "2.835",
  );
});

test("a currency no source carries makes its pairs unavailable (503), never synthetic", () => {
  const err = unavailable(() => provider({ ecb: ecbA }).rate({ from: "GBP", to: "NGN" }, friday));
  assert.deepEqual(err.details?.missingCurrencies, ["NGN"]);
  assert.match(err.message, /No reference rate source carries NGN/);
  unavailable(() => provider({ ecb: ecbA }).rate({ from: "EUR", to: "COP" }, friday));
  unavailable(() => provider({}).rate({ from: "USD", to: "MXN" }, friday));
});

test("the secondary source fills only what the ECB and pegs lack, through its base", () => {
  const p = provider({ ecb: ecbA, secondary });
  // NGN from the secondary (1530.25 per USD), GBP from the ECB: 1530.25 x 1.05 / 0.83 = 1935.8584337...
  assert.equal(p.rate({ from: "GBP", to: "NGN" }, friday).toFixed(), "1935.858434");
  assert.equal(p.rate({ from: "EUR", to: "COP" }, friday).toFixed(), "4211.025");
  // The secondary's MXN (99) loses to the ECB's.
  assert.equal(p.rate({ from: "USD", to: "MXN" }, friday).toFixed(), "18.75");
  // Without the ECB the secondary's base cannot be valued: nothing of it is used.
  unavailable(() => provider({ secondary }).rate({ from: "GBP", to: "NGN" }, friday));
});

test("rates older than the maximum age refuse, with their publication time in the message", () => {
  const p = provider({ ecb: ecbA, secondary });
  // Published 2026-11-20T15:00Z: 96 hours later still serves, one second past it refuses.
  assert.equal(p.rate({ from: "USD", to: "MXN" }, at("2026-11-24T15:00:00Z")).toFixed(), "18.75");
  const err = unavailable(() => p.rate({ from: "USD", to: "MXN" }, at("2026-11-24T15:00:01Z")));
  assert.match(err.message, /published at 2026-11-20T15:00:00.000Z, more than 96 hours ago/);
  assert.equal(err.remediation, "retry_later");
  // A pair through the secondary is as old as its oldest input (the ECB's USD here).
  unavailable(() => p.rate({ from: "GBP", to: "NGN" }, at("2026-11-24T15:00:01Z")));
});

test("malformed feeds are refused whole", () => {
  assert.throws(() => parseEcbDaily("<html>maintenance</html>"), /no <Cube time=/);
  assert.throws(() => parseEcbDaily("not xml <<"), /ECB feed/);
  assert.throws(() => parseEcbDaily(rateFixture("eurofxref-daily-a.xml").replace("'1.0500'", "'1,05'")), /USD/);
  assert.throws(() => parseSecondary('{"base":"USD","published_at":"2026-11-20T18:00:00Z","rates":{"NGN":1530.25}}'), /NGN/);
  assert.throws(() => parseSecondary('{"base":"USD","rates":{"NGN":"1530.25"}}'), /published_at/);
});

test("configuration: the feed URL selects the ecb provider (sandbox stays the default); pegs parse, bad ones are refused", () => {
  assert.equal(loadConfig({}).providers.referenceRates, "sandbox");
  assert.equal(loadConfig({ REFERENCE_RATES_URL: "http://127.0.0.1:1/eurofxref-daily.xml" }).providers.referenceRates, "ecb");
  assert.throws(() => loadConfig({ REFERENCE_RATES_PROVIDER: "ecb" }), /REFERENCE_RATES_PROVIDER=ecb needs REFERENCE_RATES_URL/);
  assert.deepEqual(loadConfig({}).REFERENCE_RATE_PEGS, [xofPeg]);
  assert.deepEqual(
    loadConfig({ REFERENCE_RATE_PEGS: "XOF:EUR:655.957, XAF:EUR:655.957" }).REFERENCE_RATE_PEGS.map((p) => p.currency),
    ["XOF", "XAF"],
  );
  assert.throws(() => loadConfig({ REFERENCE_RATE_PEGS: "XOF:EUR:0" }), /REFERENCE_RATE_PEGS/);
  assert.throws(() => loadConfig({ REFERENCE_RATE_PEGS: "XOF=655.957" }), /REFERENCE_RATE_PEGS/);
});
