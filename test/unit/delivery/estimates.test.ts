/** Delivery estimates: cut-off, weekends and both countries' public holidays, as data. */
import { test } from "node:test";
import assert from "node:assert/strict";
import rawEstimates from "@/data/delivery-estimates/v1.json";
import { businessDaysAfter, estimateDeliveryBy, loadEstimateFile } from "@/lib/payments/delivery/estimates";
import { localTime, zonedInstant } from "@/lib/payments/delivery/business-calendar";
import { transferDelivery } from "@/lib/payments/delivery/transfer-delivery";

const at = (iso: string) => new Date(iso);
const est = (corridor: string, method: string, from: string) => estimateDeliveryBy(corridor, method, at(from))?.toISOString();

test("US-MX bank: before the New York cut-off, the same Mexican business day's close (17:00 in Mexico City, UTC-6)", () => {
  assert.equal(est("US-MX", "bank_account", "2026-11-24T15:00:00Z"), "2026-11-24T23:00:00.000Z");
});

test("after the cut-off, processing starts at the next origin business day's opening", () => {
  // Tuesday 17:00 in New York (after 16:00): Wednesday.
  assert.equal(est("US-MX", "bank_account", "2026-11-24T22:00:00Z"), "2026-11-25T23:00:00.000Z");
});

test("an origin public holiday (Thanksgiving, 26 Nov 2026) and a weekend are skipped", () => {
  assert.equal(est("US-MX", "bank_account", "2026-11-26T15:00:00Z"), "2026-11-27T23:00:00.000Z");
  // Friday after the cut-off: Monday.
  assert.equal(est("US-MX", "bank_account", "2026-11-27T22:00:00Z"), "2026-11-30T23:00:00.000Z");
});

test("a destination public holiday is skipped (Revolution Day in Mexico, Monday 16 Nov 2026)", () => {
  // Friday 13 Nov after the cut-off: processing starts Monday 16 in New York, Mexico is closed until Tuesday.
  assert.equal(est("US-MX", "bank_account", "2026-11-13T22:00:00Z"), "2026-11-17T23:00:00.000Z");
});

test("business days are counted in the destination (FR-SN, 2 days over Christmas)", () => {
  // Thursday 24 Dec 2026, 11:00 in Paris: 25 Dec is a holiday in Senegal, then a weekend: Mon 28, Tue 29.
  assert.equal(est("FR-SN", "bank_account", "2026-12-24T10:00:00Z"), "2026-12-29T17:00:00.000Z");
});

test("wallets run around the clock: hours after processing starts", () => {
  // Saturday: processing starts Monday 09:00 in New York (14:00 UTC), available 2 hours later.
  assert.equal(est("US-PH", "wallet_transfer", "2026-11-28T10:00:00Z"), "2026-11-30T16:00:00.000Z");
});

test("never before the funding", () => {
  for (let h = 0; h < 24 * 14; h += 5) {
    const from = new Date(Date.UTC(2026, 11, 20) + h * 3_600_000);
    for (const [c, m] of [
      ["US-MX", "bank_account"],
      ["GB-NG", "mobile_money"],
      ["ES-CO", "cash_pickup"],
    ] as const)
      assert.ok(estimateDeliveryBy(c, m, from)!.getTime() > from.getTime(), `${c} ${m} ${from.toISOString()}`);
  }
});

test("a refund's 3 business days of the origin country (Thanksgiving skipped)", () => {
  assert.equal(businessDaysAfter("US-MX", at("2026-11-25T15:00:00Z"), 3).toISOString(), "2026-12-01T15:00:00.000Z");
});

test("the transfer's estimate follows its state: funded counts from the funding, held counts from now, ended has none", () => {
  const row = { corridor: "US-MX", payoutMethod: "bank_account", configurationVersion: 1 };
  const history = [{ state: "funded", transitionedAt: at("2026-11-24T15:00:00Z") }];
  const now = at("2026-11-25T15:00:00Z");
  assert.deepEqual(transferDelivery({ ...row, state: "topay" }, history, now), { estimatedDeliveryBy: at("2026-11-24T23:00:00Z"), basis: "FUNDED" });
  assert.deepEqual(transferDelivery({ ...row, state: "spended" }, history, now), { estimatedDeliveryBy: at("2026-11-25T23:00:00Z"), basis: "ON_HOLD" });
  assert.deepEqual(transferDelivery({ ...row, state: "validated" }, [], now), { estimatedDeliveryBy: at("2026-11-25T23:00:00Z"), basis: "IF_FUNDED_NOW" });
  assert.equal(transferDelivery({ ...row, state: "paid" }, history, now), undefined);
});

test("the data file covers every corridor and payout method; a missing method stops the load", () => {
  assert.doesNotThrow(() => loadEstimateFile(rawEstimates));
  const broken = structuredClone(rawEstimates) as { corridors: { code: string; methods: Record<string, unknown> }[] };
  delete broken.corridors.find((c) => c.code === "US-MX")!.methods.cash_pickup;
  assert.throws(() => loadEstimateFile(broken), /US-MX cash_pickup: no delivery estimate/);
});

test("the wall clock is memoised per minute: across DST changes and odd offsets, the same answer as Intl's, first and second time", () => {
  const intl = (instant: Date, timeZone: string) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat("en-CA", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
        .formatToParts(instant)
        .map((x) => [x.type, x.value]),
    );
    return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
  };
  const cases: [string, string[]][] = [
    // New York: back to EST at 06:00Z on 1 Nov 2026, to EDT at 07:00Z on 8 Mar 2026.
    [
      "America/New_York",
      ["2026-11-01T05:59:59.999Z", "2026-11-01T06:00:00.000Z", "2026-11-01T06:00:30.500Z", "2026-03-08T06:59:00.000Z", "2026-03-08T07:00:00.000Z"],
    ],
    ["Asia/Kathmandu", ["2026-11-24T18:14:59.000Z", "2026-11-24T18:15:00.000Z"]],
    // Lord Howe moves half an hour: to +11 at 15:30Z on 3 Oct 2026.
    ["Australia/Lord_Howe", ["2026-10-03T15:29:59.000Z", "2026-10-03T15:30:00.000Z"]],
  ];
  for (const [zone, instants] of cases)
    for (const iso of instants)
      for (let round = 0; round < 2; round++) assert.deepEqual(localTime(at(iso), zone), intl(at(iso), zone), `${zone} ${iso} (round ${round + 1})`);
  // Noon on either side of New York's change to EST.
  assert.equal(zonedInstant("2026-10-31", "12:00", "America/New_York").toISOString(), "2026-10-31T16:00:00.000Z");
  assert.equal(zonedInstant("2026-11-01", "12:00", "America/New_York").toISOString(), "2026-11-01T17:00:00.000Z");
  assert.equal(zonedInstant("2026-10-04", "12:00", "Australia/Lord_Howe").toISOString(), "2026-10-04T01:00:00.000Z");
});
