/**
 * Quotes priced from a published reference-rate feed, over HTTP: a server of
 * its own with REFERENCE_RATES_URL pointing at ECB-format fixtures on a loopback server. Quotes
 * follow the feed (two fixtures, two prices) and stale rates refuse new quotes with 503
 * internal.unavailable. The sandbox default is the shared server's (service-quotes.test.ts).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { corridorByCode } from "@/lib/payments/corridors/corridors";
import { constantReferenceRates } from "@/lib/payments/pricing/reference-rate";
import { priceQuote } from "@/lib/payments/pricing/service-pricing";
import { rateFixture, startRateFeedServer } from "../../support/rate-feed-server";
import { startOwnServer } from "../../support/own-server";

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

let feeds: Awaited<ReturnType<typeof startRateFeedServer>>;
let server: Awaited<ReturnType<typeof startOwnServer>>;
let support: typeof import("../support");

before(async () => {
  feeds = await startRateFeedServer();
  feeds.serve("/eurofxref-daily.xml", rateFixture("eurofxref-daily-a.xml", day(-1)));
  server = await startOwnServer(
    {
      REFERENCE_RATES_URL: feeds.url("/eurofxref-daily.xml"),
      REFERENCE_RATES_REFRESH_MINUTES: "1",
    },
    { followTestDriver: true },
  );
  // The helpers read TEST_BASE_URL when first imported: point them at this test's own server.
  process.env.TEST_BASE_URL = server.baseUrl;
  support = await import("../support");
});
after(async () => {
  await server?.stop();
  await feeds?.close();
});

/** What the service's pricing gives for 100 USD to MXN at this reference rate (margins included). */
const expectedFxRate = (usdMxn: string) =>
  priceQuote({ corridor: corridorByCode("US-MX")!, originAmount: "100.000000", now: new Date(), rates: constantReferenceRates({ "USD/MXN": usdMxn }) }).fxRate;

async function quoteOnceRatesArrive(c: import("../support").Customer, beneficiaryId: string, fxRate: string) {
  return support.eventually(
    async () => {
      const res = await support.createQuote(c, support.quoteBody(beneficiaryId));
      return res.status === 200 && res.body.fxRate === fxRate ? res.body : undefined;
    },
    20_000,
    `a quote at ${fxRate}`,
  );
}

test("quotes follow the feed (two fixtures, two prices); stale rates refuse new quotes with 503 internal.unavailable", async () => {
  const c = await support.validCustomer();
  const b = await support.validBeneficiary(c);

  // Fixture A: 19.6875 MXN and 1.05 USD per EUR, so USD/MXN 18.75 (the refresh runs at start).
  const first = await quoteOnceRatesArrive(c, b.beneficiaryId, expectedFxRate("18.75"));
  assert.equal(first.destinationAmount, "1875.000000");

  // Fixture B, published a day later: 20.14 / 1.06 = 19. The next refresh (every minute) takes it.
  feeds.serve("/eurofxref-daily.xml", rateFixture("eurofxref-daily-b.xml", day(0)));
  await support.advanceClock(61);
  const second = await quoteOnceRatesArrive(c, b.beneficiaryId, expectedFxRate("19"));
  assert.equal(second.destinationAmount, "1900.000000");
  assert.notEqual(second.fxRate, first.fxRate);

  // 97 hours on, the newest rates (B, published today) are too old: no quote is priced from them.
  await support.advanceClock(97 * 3600 + 24 * 3600);
  const refused = await support.createQuote(await support.relogin(c), support.quoteBody(b.beneficiaryId));
  assert.equal(refused.status, 503, refused.text);
  const error = support.errorOf(refused);
  assert.equal(error.code, "internal.unavailable");
  assert.match(error.message, /USD\/MXN were published at .*more than 96 hours ago/);
  assert.equal(error.details.remediationHint, "retry_later");
});
