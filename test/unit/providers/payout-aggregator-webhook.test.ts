/**
 * The payout aggregator's webhook signature: `t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<body>">`.
 * The time is signed with the body, so neither can be changed; a signed body that is no status is
 * told apart from an unsigned one (400, not 401, at the route).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { payoutAggregatorFor, signAggregatorBody } from "@/lib/payments/providers/payout-aggregator";

const sandbox = payoutAggregatorFor("sandbox", true);
const body = JSON.stringify({ id: "agg_1", external_id: "ppa_1", status: "REJECTED", status_reason_code: "AC01" });
const at = new Date("2026-11-29T05:00:00Z");

test("a body signed by the aggregator reads as its status, with the time it was signed", () => {
  const read = sandbox.readWebhook(body, signAggregatorBody(body, at));
  assert.equal(read.kind, "status");
  assert.ok(read.kind === "status");
  assert.deepEqual(
    { externalId: read.status.externalId, status: read.status.status, reasonCode: read.status.reasonCode, reference: read.status.reference },
    { externalId: "ppa_1", status: "REJECTED", reasonCode: "AC01", reference: "agg_1" },
  );
  assert.equal(read.signedAt.toISOString(), at.toISOString());
});

test("no signature, another secret, an altered body or an altered time: unsigned", () => {
  const signature = signAggregatorBody(body, at);
  const t = Math.floor(at.getTime() / 1000);
  for (const [b, s] of [
    [body, null],
    [body, ""],
    [body, "garbage"],
    [body, signAggregatorBody(body, at, "another-secret-entirely")],
    [body.replace("AC01", "AC04"), signature],
    [body, signature.replace(`t=${t}`, `t=${t + 600}`)],
    [body, signature.replace(/v1=[0-9a-f]{2}/, "v1=zz")],
  ] as const) {
    assert.equal(sandbox.readWebhook(b, s).kind, "unsigned", `${b} ${s}`);
  }
});

test("signed, but not a status: malformed", () => {
  for (const b of ["not json", "[]", JSON.stringify({ external_id: "ppa_1", status: "PAID" }), JSON.stringify({ status: "COMPLETED" })]) {
    assert.equal(sandbox.readWebhook(b, signAggregatorBody(b, at)).kind, "malformed", b);
  }
});
