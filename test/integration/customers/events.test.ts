/** customer.status.changed webhooks (spec 6; decisions 4 and 9): Standard Webhooks signatures, sequence, one per change. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver, type Delivery, call, eventually, completeKyc, customerWithProfile, openKyc, usaProfile } from "../support";

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const deliveries: Delivery[] = [];
let secret: string;

before(async () => {
  receiver = await startWebhookReceiver(deliveries);
  const res = await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: receiver.url } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.webhookUrl, receiver.url);
  assert.match(res.body.webhookSecret, /^whsec_[A-Za-z0-9+/=]+$/);
  secret = res.body.webhookSecret;
});

after(async () => {
  const res = await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: null } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.webhookUrl, null);
  assert.equal(res.body.webhookSecret, null);
  await receiver.close();
});

const forSubscription = (subscriptionId: string) => deliveries.filter((d) => d.body?.subscriptionId === subscriptionId);

/** Waits for `count` deliveries of a subscription, then a short quiet period (no extra ones). */
async function awaitDeliveries(subscriptionId: string, count: number): Promise<Delivery[]> {
  await eventually(() => Promise.resolve(forSubscription(subscriptionId).length >= count), 15_000, `${count} webhook deliveries`);
  await new Promise((r) => setTimeout(r, 1500));
  return forSubscription(subscriptionId);
}

/** Signature, envelope and header checks common to every delivery. */
function assertSignedEvent(d: Delivery, subscriptionId: string) {
  const verified = new Webhook(secret).verify(d.rawBody, {
    "webhook-id": String(d.headers["webhook-id"]),
    "webhook-timestamp": String(d.headers["webhook-timestamp"]),
    "webhook-signature": String(d.headers["webhook-signature"]),
  });
  assert.deepEqual(verified, d.body);
  assert.match(String(d.headers["webhook-signature"]), /^v1,/);
  assert.match(String(d.headers["content-type"]), /^application\/json/);
  assert.equal(d.headers["webhook-id"], d.body.eventId);
  // A tampered body does not verify (the check above is meaningful).
  assert.throws(() =>
    new Webhook(secret).verify(d.rawBody.replace(subscriptionId, `${subscriptionId}x`), {
      "webhook-id": String(d.headers["webhook-id"]),
      "webhook-timestamp": String(d.headers["webhook-timestamp"]),
      "webhook-signature": String(d.headers["webhook-signature"]),
    }),
  );
  assert.deepEqual(Object.keys(d.body).sort(), ["data", "eventId", "eventType", "occurredAt", "sequence", "subscriptionId"]);
  assert.equal(d.body.eventType, "customer.status.changed");
  assert.equal(d.body.subscriptionId, subscriptionId);
  assert.ok(Number.isInteger(d.body.sequence), String(d.body.sequence));
  assert.ok(!Number.isNaN(Date.parse(d.body.occurredAt)), d.body.occurredAt);
  assert.deepEqual(Object.keys(d.body.data).sort(), ["kycStatus", "previousKycStatus", "previousStatus", "previousTier", "remediationHint", "status", "tier"]);
}

function assertOrderedAndUnique(list: Delivery[]) {
  const sequences = list.map((d) => d.body.sequence);
  for (let i = 1; i < sequences.length; i++) assert.ok(sequences[i] > sequences[i - 1], `sequence not increasing in arrival order: ${sequences}`);
  const ids = list.map((d) => d.body.eventId);
  assert.equal(new Set(ids).size, ids.length, `duplicate eventIds: ${ids}`);
}

test("KYC start and approval: exactly one signed customer.status.changed per change, in sequence", async () => {
  const c = await customerWithProfile(); // a profile submit alone changes no status: no event
  const s = await openKyc(c); // NOT_STARTED → IN_PROGRESS
  await openKyc(c); // the same open session again: no change, no event
  const done = await completeKyc(c, s.kycSessionId, "APPROVED"); // → VALID / COMPLETED
  assert.equal(done.status, 200, done.text);

  const list = await awaitDeliveries(c.subscriptionId, 2);
  assert.equal(list.length, 2, `expected 2 events, got ${list.map((d) => d.rawBody).join("\n")}`);
  for (const d of list) assertSignedEvent(d, c.subscriptionId);
  assertOrderedAndUnique(list);
  assert.deepEqual(list[0].body.data, {
    status: "PENDING",
    kycStatus: "IN_PROGRESS",
    previousStatus: "PENDING",
    previousKycStatus: "NOT_STARTED",
    remediationHint: "complete_kyc",
    tier: 1,
    previousTier: 1,
  });
  assert.deepEqual(list[1].body.data, {
    status: "VALID",
    kycStatus: "COMPLETED",
    previousStatus: "PENDING",
    previousKycStatus: "IN_PROGRESS",
    remediationHint: null,
    tier: 1,
    previousTier: 1,
  });
});

test("a sanctions hit surfaces as one event PENDING → BLOCKED with remediationHint contact_support", async () => {
  const c = await customerWithProfile(usaProfile({ firstName: "Viktor", lastName: "Sanctionov" }));
  const list = await awaitDeliveries(c.subscriptionId, 1);
  assert.equal(list.length, 1, list.map((d) => d.rawBody).join("\n"));
  assertSignedEvent(list[0], c.subscriptionId);
  assert.deepEqual(list[0].body.data, {
    status: "BLOCKED",
    kycStatus: "NOT_STARTED",
    previousStatus: "PENDING",
    previousKycStatus: "NOT_STARTED",
    remediationHint: "contact_support",
    tier: 1,
    previousTier: 1,
  });
});

test("remediation then approval: RESTRICTED (complete_kyc) then VALID, sequences increasing", async () => {
  const c = await customerWithProfile();
  const s = await openKyc(c);
  assert.equal((await completeKyc(c, s.kycSessionId, "REMEDIATION_REQUIRED")).status, 200);
  const again = await openKyc(c); // RESUBMISSION: kycStatus stays REMEDIATION_REQUIRED, no event
  assert.equal((await completeKyc(c, again.kycSessionId, "APPROVED")).status, 200);
  const list = await awaitDeliveries(c.subscriptionId, 3);
  assert.equal(list.length, 3, list.map((d) => d.rawBody).join("\n"));
  for (const d of list) assertSignedEvent(d, c.subscriptionId);
  assertOrderedAndUnique(list);
  assert.deepEqual(
    list.map((d) => [d.body.data.previousStatus, d.body.data.previousKycStatus, d.body.data.status, d.body.data.kycStatus, d.body.data.remediationHint]),
    [
      ["PENDING", "NOT_STARTED", "PENDING", "IN_PROGRESS", "complete_kyc"],
      ["PENDING", "IN_PROGRESS", "RESTRICTED", "REMEDIATION_REQUIRED", "complete_kyc"],
      ["RESTRICTED", "REMEDIATION_REQUIRED", "VALID", "COMPLETED", null],
    ],
  );
});
