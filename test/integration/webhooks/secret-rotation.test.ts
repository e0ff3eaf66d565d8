/** The partner rotates its webhook secret; deliveries verify with either secret during the window. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call, eventually, startWebhookReceiver, type Delivery, customerWithProfile, openKyc, serverNow } from "../support";

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const deliveries: Delivery[] = [];

before(async () => {
  receiver = await startWebhookReceiver(deliveries);
});

after(async () => {
  await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: null } });
  await receiver.close();
});

const headersOf = (d: Delivery) => ({
  "webhook-id": String(d.headers["webhook-id"]),
  "webhook-timestamp": String(d.headers["webhook-timestamp"]),
  "webhook-signature": String(d.headers["webhook-signature"]),
});

test("PUT /v1/sandbox/partner {rotateWebhookSecret: true} returns a new secret; both sign during the window", async () => {
  const set = await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: receiver.url } });
  assert.equal(set.status, 200, set.text);
  const oldSecret: string = set.body.webhookSecret;

  const rotatedAt = (await serverNow()).getTime(); // the shared server clock, which other files move forward
  const rotated = await call("PUT", "/v1/sandbox/partner", { body: { rotateWebhookSecret: true } });
  assert.equal(rotated.status, 200, rotated.text);
  const newSecret: string = rotated.body.webhookSecret;
  assert.match(newSecret, /^whsec_[A-Za-z0-9+/]{32}$/);
  assert.notEqual(newSecret, oldSecret);
  const validUntil = Date.parse(rotated.body.previousWebhookSecretValidUntil);
  assert.ok(Math.abs(validUntil - rotatedAt - 86400_000) < 3600_000, `previous valid until ${rotated.body.previousWebhookSecretValidUntil}`);

  // A customer.status.changed event, delivered after the rotation.
  const c = await customerWithProfile();
  await openKyc(c);
  await eventually(() => Promise.resolve(deliveries.some((d) => d.body?.subscriptionId === c.subscriptionId)), 15_000, "a delivery");
  const d = deliveries.find((x) => x.body?.subscriptionId === c.subscriptionId)!;
  assert.equal(headersOf(d)["webhook-signature"].split(" ").length, 2);
  assert.deepEqual(new Webhook(oldSecret).verify(d.rawBody, headersOf(d)), d.body, "a receiver still on the old secret verifies");
  assert.deepEqual(new Webhook(newSecret).verify(d.rawBody, headersOf(d)), d.body, "a receiver on the new secret verifies");
});

test("rotating without a webhook URL is a 400 on the field", async () => {
  const res = await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: null, rotateWebhookSecret: true } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.code, "validation.fieldInvalid");
  assert.ok(JSON.stringify(res.body).includes("rotateWebhookSecret"));
});

test("the OpenAPI contract documents rotateWebhookSecret and the previous secret's window", async () => {
  const res = await call("GET", "/v1/openapi.json", { key: null });
  assert.equal(res.status, 200, res.text.slice(0, 200));
  const schemas = res.body.components.schemas;
  assert.equal(schemas.SandboxPartnerRequest.properties.rotateWebhookSecret.type, "boolean");
  assert.match(schemas.SandboxPartnerRequest.properties.rotateWebhookSecret.description, /previous secret/);
  assert.ok(schemas.SandboxPartnerSettings.properties.previousWebhookSecretValidUntil);
});
