/**
 * beneficiary.state.changed webhooks (decisions 9): one per state change, Standard Webhooks
 * signature, data {beneficiaryId, state, previousState}, never screening evidence.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import {
  receivePartnerWebhooks,
  type Delivery,
  archiveBeneficiary,
  assertNoKeyDeep,
  createBeneficiary,
  eventually,
  forceScreening,
  mexBeneficiary,
  screenedBeneficiary,
  validCustomer,
  type Customer,
} from "../support";

const deliveries: Delivery[] = [];
let webhooks: Awaited<ReturnType<typeof receivePartnerWebhooks>>;
let c: Customer;

before(async () => {
  webhooks = await receivePartnerWebhooks(deliveries);
  c = await validCustomer();
});

after(() => webhooks.close());

const beneficiaryEvents = (beneficiaryId: string) =>
  deliveries.filter((d) => d.body?.eventType === "beneficiary.state.changed" && d.body?.data?.beneficiaryId === beneficiaryId);

/** Waits for `count` events of the beneficiary, then a quiet period (no extra ones). */
async function awaitEvents(beneficiaryId: string, count: number): Promise<any[]> {
  await eventually(() => Promise.resolve(beneficiaryEvents(beneficiaryId).length >= count), 15_000, `${count} events of ${beneficiaryId}`);
  await new Promise((r) => setTimeout(r, 1500));
  return beneficiaryEvents(beneficiaryId)
    .map((d) => d.body)
    .sort((a, b) => a.sequence - b.sequence);
}

test("screening PENDING → VALID emits one signed event with the decisions 9 envelope", async () => {
  const b = await screenedBeneficiary(c, mexBeneficiary());
  assert.equal(b.state, "VALID");
  const events = await awaitEvents(b.beneficiaryId, 1);
  assert.equal(events.length, 1, JSON.stringify(events));
  const e = events[0];
  assert.deepEqual(Object.keys(e).sort(), ["data", "eventId", "eventType", "occurredAt", "sequence", "subscriptionId"]);
  assert.equal(e.subscriptionId, c.subscriptionId);
  assert.deepEqual(e.data, { beneficiaryId: b.beneficiaryId, state: "VALID", previousState: "PENDING" });
  assertNoKeyDeep(e, "screeningResult");
  const d = beneficiaryEvents(b.beneficiaryId)[0]!;
  const verified = new Webhook(webhooks.secret).verify(d.rawBody, {
    "webhook-id": String(d.headers["webhook-id"]),
    "webhook-timestamp": String(d.headers["webhook-timestamp"]),
    "webhook-signature": String(d.headers["webhook-signature"]),
  });
  assert.deepEqual(verified, e);
});

test("BLOCKED by screening, then VALID by the sandbox (operator), then ARCHIVED: three events in sequence", async () => {
  const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
  assert.equal(b.state, "BLOCKED");
  assert.equal((await forceScreening(c, b.beneficiaryId, "VALID")).status, 200);
  assert.equal((await archiveBeneficiary(c, b.beneficiaryId)).status, 200);
  const events = await awaitEvents(b.beneficiaryId, 3);
  assert.deepEqual(
    events.map((e) => [e.data.previousState, e.data.state]),
    [
      ["PENDING", "BLOCKED"],
      ["BLOCKED", "VALID"],
      ["VALID", "ARCHIVED"],
    ],
  );
  assert.ok(events[0].sequence < events[1].sequence && events[1].sequence < events[2].sequence);
});

test("archive straight from PENDING: one event PENDING → ARCHIVED, and screening adds none later", async () => {
  // Archived right after create; should screening (SCREENING_DELAY_MS) still win the race, the
  // record went PENDING → VALID → ARCHIVED (checked), and a fresh record is tried.
  for (let attempt = 1; attempt <= 5; attempt++) {
    const created = await createBeneficiary(c, mexBeneficiary());
    assert.equal(created.status, 202, created.text);
    const id = created.body.beneficiaryId;
    assert.equal((await archiveBeneficiary(c, id)).status, 200);
    const first = await awaitEvents(id, 1);
    if (first[0].data.previousState === "PENDING" && first[0].data.state === "VALID") {
      const events = await awaitEvents(id, 2);
      assert.deepEqual(
        events.map((e) => [e.data.previousState, e.data.state]),
        [
          ["PENDING", "VALID"],
          ["VALID", "ARCHIVED"],
        ],
      );
      continue;
    }
    // Past the screening delay: still exactly one event.
    assert.deepEqual(
      first.map((e) => e.data),
      [{ beneficiaryId: id, state: "ARCHIVED", previousState: "PENDING" }],
    );
    return;
  }
  assert.fail("screening won the race five times in a row");
});

test("a refused archive (BLOCKED) emits nothing", async () => {
  const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
  assert.equal((await archiveBeneficiary(c, b.beneficiaryId)).status, 409);
  const events = await awaitEvents(b.beneficiaryId, 1);
  assert.deepEqual(
    events.map((e) => e.data.state),
    ["BLOCKED"],
  );
});
