/**
 * Reference rates from published feeds, at the domain level with a database: the
 * refresh job fetches fixtures from a loopback server and stores them with their publication date;
 * quotes' provider follows the newest; an unreachable or malformed feed keeps the last good rates.
 * PGlite here; PostgreSQL too when TEST_DB_URL is set.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { asc } from "drizzle-orm";
import type { Db } from "@/db";
import { referenceRateSets } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { freshDb } from "../../support/db";
import { rateFixture, startRateFeedServer } from "../../support/rate-feed-server";

let db: Db;
let close: () => Promise<void>;
let feeds: Awaited<ReturnType<typeof startRateFeedServer>>;

before(async () => {
  feeds = await startRateFeedServer();
  process.env.REFERENCE_RATES_URL = feeds.url("/eurofxref-daily.xml");
  process.env.REFERENCE_RATES_SECONDARY_URL = feeds.url("/secondary.json");
  process.env.REFERENCE_RATES_REFRESH_MINUTES = "15";
  ({ db, close } = await freshDb());
});
after(async () => {
  await close();
  await feeds.close();
});

const friday = new Date("2026-11-21T09:00:00Z");
const monday = new Date("2026-11-23T16:00:00Z");

async function refresh(): Promise<void> {
  const { refreshReferenceRates } = await import("@/lib/payments/pricing/refresh-job");
  await refreshReferenceRates.perform!(db, { payload: {}, jobId: "job_test", attempt: 1, now: friday, signal: new AbortController().signal });
}

async function rate(from: string, to: string, now: Date): Promise<string> {
  const { referenceRates } = await import("@/lib/payments/pricing/rate-store");
  return (await referenceRates(db)).rate({ from, to }, now).toFixed();
}

describe("the reference-rate refresh job", () => {
  it("is registered as a periodic job every REFERENCE_RATES_REFRESH_MINUTES", async () => {
    const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
    assert.equal(jobRegistry["referenceRates.refresh"].every, 15 * 60);
  });

  it("before any fetch, quotes have no rates to price from (503), never the sandbox's", async () => {
    await assert.rejects(rate("USD", "MXN", friday), (e) => e instanceof DomainError && e.code === "internal.unavailable");
  });

  it("stores each feed with its publication date; quotes follow the newest (two fixtures, two rates)", async () => {
    feeds.serve("/eurofxref-daily.xml", rateFixture("eurofxref-daily-a.xml"));
    feeds.serve("/secondary.json", rateFixture("secondary-usd.json"));
    await refresh();
    assert.equal(await rate("USD", "MXN", friday), "18.75");
    feeds.serve("/eurofxref-daily.xml", rateFixture("eurofxref-daily-b.xml"));
    await refresh();
    assert.equal(await rate("USD", "MXN", monday), "19");
    const rows = await db.select().from(referenceRateSets).orderBy(asc(referenceRateSets.source), asc(referenceRateSets.publishedAt));
    assert.deepEqual(
      rows.map((r) => [r.source, r.base, r.publishedAt.toISOString()]),
      [
        ["ecb", "EUR", "2026-11-20T15:00:00.000Z"],
        ["ecb", "EUR", "2026-11-23T15:00:00.000Z"],
        ["secondary", "USD", "2026-11-20T18:00:00.000Z"],
      ],
    );
    assert.equal(rows[1].rates.MXN, "20.1400");
  });

  it("prices pegs, fills missing currencies from the secondary source, and keeps the ECB first", async () => {
    assert.equal(await rate("EUR", "XOF", monday), "655.957");
    // 1530.25 NGN per USD x 1.06 USD per EUR / 0.84 GBP per EUR = 1931.0297619...
    assert.equal(await rate("GBP", "NGN", monday), "1931.029762");
    assert.equal(await rate("USD", "MXN", monday), "19");
  });

  it("an unreachable or malformed feed stores nothing, fails the run (retried), and the last good rates keep serving", async () => {
    feeds.fail("/eurofxref-daily.xml");
    await assert.rejects(refresh(), /answered 503/);
    feeds.serve("/eurofxref-daily.xml", "<html>maintenance</html>");
    await assert.rejects(refresh(), /no <Cube time=/);
    assert.equal(await rate("USD", "MXN", monday), "19");
    assert.equal((await db.select().from(referenceRateSets)).length, 3);
  });

  it("the stored rates grow stale: 96 hours after publication new pairs are refused with 503 internal.unavailable", async () => {
    await assert.rejects(rate("USD", "MXN", new Date("2026-11-27T15:00:01Z")), (e) => {
      assert.ok(e instanceof DomainError && e.code === "internal.unavailable" && e.status === 503, String(e));
      assert.match(e.message, /more than 96 hours ago/);
      return true;
    });
  });
});
