/**
 * Rolling limits by verification tier: GET /v1/core/limits, enforcement at quote
 * accept (422 customer.limitExceeded, nothing created), release when a transfer is aborted, the
 * 50-parallel-accepts race, and the step-up to tier 2 (an ENHANCED KYC session approved).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Decimal } from "@/lib/platform/money/decimal";
import {
  acceptQuote,
  acceptTransfer,
  assertError,
  call,
  cancel,
  completeKyc,
  createKyc,
  disclosureToken,
  listTransfers,
  openKyc,
  serviceQuote,
  validBeneficiaryId,
  validCustomer,
  type Customer,
} from "../support";

const readLimits = (c: Customer) => call("GET", "/v1/core/limits", { token: c.token });

async function limitsOf(c: Customer) {
  const res = await readLimits(c);
  assert.equal(res.status, 200, res.text);
  return res.body as {
    tier: number;
    currency: string;
    windows: { window: string; limit: string; used: string; remaining: string }[];
    nextTier: { tier: number; requires: string[] } | null;
  };
}

const eq = (actual: string, expected: string, what: string) => assert.ok(new Decimal(actual).eq(expected), `${what}: ${actual}, expected ${expected}`);
const windowOf = (l: Awaited<ReturnType<typeof limitsOf>>, w: string) => l.windows.find((x) => x.window === w)!;

describe("limits by tier", () => {
  test("a new KYC-completed customer is tier 1 with the shipped defaults in USD, nothing used", async () => {
    const c = await validCustomer();
    const l = await limitsOf(c);
    assert.equal(l.tier, 1);
    assert.equal(l.currency, "USD");
    assert.deepEqual(
      l.windows.map((w) => w.window),
      ["P1D", "P30D", "P180D"],
    );
    for (const [w, limit] of [
      ["P1D", "2999"],
      ["P30D", "10000"],
      ["P180D", "18000"],
    ] as const) {
      eq(windowOf(l, w).limit, limit, `${w} limit`);
      eq(windowOf(l, w).used, "0", `${w} used`);
      eq(windowOf(l, w).remaining, limit, `${w} remaining`);
    }
    assert.match(windowOf(l, "P1D").limit, /^\d+\.\d{6}$/);
    assert.deepEqual(l.nextTier, { tier: 2, requires: ["SOURCE_OF_FUNDS"] });
  });

  test("2,900 used in 24 h: a 200 accept is refused (422 customer.limitExceeded, remaining 99, no transfer); aborting the 2,900 releases it", async () => {
    const c = await validCustomer();
    const ben = await validBeneficiaryId(c);
    const big = await acceptTransfer(c, ben, { originAmount: "2900.000000" });
    const after = await limitsOf(c);
    eq(windowOf(after, "P1D").used, "2900", "P1D used");
    eq(windowOf(after, "P1D").remaining, "99", "P1D remaining");
    eq(windowOf(after, "P30D").remaining, "7100", "P30D remaining");

    const q = await serviceQuote(c, ben, { originAmount: "200.000000" });
    const token = await disclosureToken(c, q.quoteId);
    const refused = await acceptQuote(c, q.quoteId, token);
    assertError(refused, 422, "customer.limitExceeded");
    const d = refused.body.error?.details ?? refused.body.details;
    assert.equal(d.window, "P1D");
    eq(d.limit, "2999", "details.limit");
    eq(d.remaining, "99", "details.remaining");
    assert.equal(d.currency, "USD");
    assert.equal(d.remediationHint, "provide_source_of_funds");
    const list = await listTransfers(c);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.items.map((t: { transferId: string }) => t.transferId),
      [big.transferId],
      "the refused accept created no transfer",
    );

    const canceled = await cancel(c, big.transferId);
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal(canceled.body.transferStatus, "aborted");
    const released = await limitsOf(c);
    eq(windowOf(released, "P1D").used, "0", "P1D used after the abort");
    eq(windowOf(released, "P1D").remaining, "2999", "P1D remaining after the abort");

    // The refused accept consumed nothing: the same quote and disclosure token are accepted now.
    const accepted = await acceptQuote(c, q.quoteId, token);
    assert.equal(accepted.status, 201, accepted.text);
    eq(windowOf(await limitsOf(c), "P1D").used, "200", "P1D used after the second accept");
  });

  test("50 parallel accepts of 100 never overshoot the 2,999 window: 29 accepted, 21 refused", async () => {
    const c = await validCustomer();
    const ben = await validBeneficiaryId(c);
    const ready: { quoteId: string; token: string }[] = [];
    for (let i = 0; i < 50; i++) {
      const q = await serviceQuote(c, ben, { originAmount: "100.000000" });
      ready.push({ quoteId: q.quoteId, token: await disclosureToken(c, q.quoteId) });
    }
    const results = await Promise.all(ready.map((r) => acceptQuote(c, r.quoteId, r.token)));
    const statuses = results.map((r) => r.status);
    assert.deepEqual(
      statuses.filter((s) => s !== 201 && s !== 422),
      [],
      results
        .filter((r) => r.status !== 201 && r.status !== 422)
        .map((r) => r.text)
        .join("\n"),
    );
    assert.equal(statuses.filter((s) => s === 201).length, 29);
    for (const r of results.filter((r) => r.status === 422)) assertError(r, 422, "customer.limitExceeded");
    const l = await limitsOf(c);
    eq(windowOf(l, "P1D").used, "2900", "P1D used");
    eq(windowOf(l, "P1D").remaining, "99", "P1D remaining");
  });
});

describe("step-up to tier 2", () => {
  test("at tier 1 a KYC session has purpose ENHANCED; its approval moves the customer to tier 2 (event with the tier); then contact_support", async () => {
    const c = await validCustomer();
    const session = await openKyc(c);
    assert.equal(session.purpose, "ENHANCED");
    const done = await completeKyc(c, session.kycSessionId, "APPROVED");
    assert.equal(done.status, 200, done.text);
    const l = await limitsOf(c);
    assert.equal(l.tier, 2);
    assert.equal(l.nextTier, null);
    eq(windowOf(l, "P1D").limit, "10000", "tier 2 P1D");
    eq(windowOf(l, "P30D").limit, "25000", "tier 2 P30D");
    eq(windowOf(l, "P180D").limit, "60000", "tier 2 P180D");

    const events = await call("GET", "/v1/core/events?limit=100", { token: c.token });
    assert.equal(events.status, 200, events.text);
    const tierChange = events.body.items.find((e: any) => e.eventType === "customer.status.changed" && e.data.tier === 2);
    assert.ok(tierChange, "customer.status.changed with tier 2");
    assert.equal(tierChange.data.previousTier, 1);
    assert.equal(tierChange.data.status, "VALID");
    assert.equal(tierChange.data.kycStatus, "COMPLETED");

    // At the top tier nothing more is needed: no session, and a breach says contact_support.
    assertError(await createKyc(c), 409, "kyc.notRequired");
    const ben = await validBeneficiaryId(c);
    await acceptTransfer(c, ben, { originAmount: "9950.000000" });
    const q = await serviceQuote(c, ben, { originAmount: "100.000000" });
    const refused = await acceptQuote(c, q.quoteId, await disclosureToken(c, q.quoteId));
    assertError(refused, 422, "customer.limitExceeded");
    const d = refused.body.error?.details ?? refused.body.details;
    assert.equal(d.remediationHint, "contact_support");
    eq(d.remaining, "50", "details.remaining");
  });

  test("a refused ENHANCED session leaves the customer VALID, KYC COMPLETED, at tier 1", async () => {
    const c = await validCustomer();
    const session = await openKyc(c);
    assert.equal(session.purpose, "ENHANCED");
    assert.equal((await completeKyc(c, session.kycSessionId, "REJECTED")).status, 200);
    const profile = await call("GET", "/v1/core/profile", { token: c.token });
    assert.equal(profile.body.status, "VALID", profile.text);
    assert.equal(profile.body.kycStatus, "COMPLETED");
    assert.equal((await limitsOf(c)).tier, 1);
  });
});
