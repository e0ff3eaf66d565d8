/**
 * Idempotency-Key on beneficiary creation (decisions 8): a key makes one record however many
 * times and however concurrently it is sent; every success answer is the original, byte for byte.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { assertError, assertIssue, createBeneficiary, listBeneficiaries, mexBeneficiary, validCustomer, call } from "../support";

const ALL = "states=PENDING,VALID,MONITORED,BLOCKED,ARCHIVED&limit=200";

test("N=8 parallel creates with one Idempotency-Key → exactly one beneficiary; every 2xx body identical", async () => {
  const c = await validCustomer();
  const before = await listBeneficiaries(c, ALL);
  assert.equal(before.body.items.length, 0);
  const key = randomUUID();
  const body = mexBeneficiary();
  const results = await Promise.all(Array.from({ length: 8 }, () => createBeneficiary(c, body, { idempotencyKey: key })));
  for (const r of results) {
    assert.ok(r.status < 500, r.text);
    if (r.status !== 202) {
      // A duplicate still running under the key: 409 idempotency.conflict, retry_later.
      const error = assertError(r, 409, "idempotency.conflict");
      assert.equal(error.hint, "retry_later");
    }
  }
  const ok = results.filter((r) => r.status === 202);
  assert.ok(ok.length >= 1, "at least one 202");
  for (const r of ok) assert.equal(r.text, ok[0]!.text);

  // A later retry with the key replays the original.
  const replay = await createBeneficiary(c, body, { idempotencyKey: key });
  assert.equal(replay.status, 202, replay.text);
  assert.equal(replay.text, ok[0]!.text);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");

  const after = await listBeneficiaries(c, ALL);
  assert.equal(after.body.items.length, 1, after.text);
  assert.equal(after.body.items[0].beneficiaryId, ok[0]!.body.beneficiaryId);
});

test("sequential retries with one key → one record, identical 202 with Idempotent-Replayed", async () => {
  const c = await validCustomer();
  const key = randomUUID();
  const body = mexBeneficiary();
  const first = await createBeneficiary(c, body, { idempotencyKey: key });
  assert.equal(first.status, 202, first.text);
  assert.equal(first.headers.get("idempotent-replayed"), null);
  for (let i = 0; i < 3; i++) {
    const again = await createBeneficiary(c, body, { idempotencyKey: key });
    assert.equal(again.status, 202);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
  }
  assert.equal((await listBeneficiaries(c, ALL)).body.items.length, 1);
});

test("same key, different body → 409 idempotency.conflict, no second record", async () => {
  const c = await validCustomer();
  const key = randomUUID();
  assert.equal((await createBeneficiary(c, mexBeneficiary(), { idempotencyKey: key })).status, 202);
  assertError(await createBeneficiary(c, mexBeneficiary(), { idempotencyKey: key }), 409, "idempotency.conflict");
  assert.equal((await listBeneficiaries(c, ALL)).body.items.length, 1);
});

test("the key is scoped to the customer: another customer's same key creates its own record", async () => {
  const a = await validCustomer();
  const b = await validCustomer();
  const key = randomUUID();
  const body = mexBeneficiary();
  const ra = await createBeneficiary(a, body, { idempotencyKey: key });
  const rb = await createBeneficiary(b, body, { idempotencyKey: key });
  assert.equal(ra.status, 202, ra.text);
  assert.equal(rb.status, 202, rb.text);
  assert.notEqual(ra.body.beneficiaryId, rb.body.beneficiaryId);
});

test("missing Idempotency-Key → 400 validation.fieldMissing on header.Idempotency-Key; not a UUID → fieldInvalid", async () => {
  const c = await validCustomer();
  const missing = await call("POST", "/v1/core/beneficiaries", { token: c.token, body: mexBeneficiary(), idempotencyKey: null });
  assertIssue(missing, "header.Idempotency-Key", "validation.fieldMissing");
  const bad = await call("POST", "/v1/core/beneficiaries", { token: c.token, body: mexBeneficiary(), idempotencyKey: "not-a-uuid" });
  assertIssue(bad, "header.Idempotency-Key", "validation.fieldInvalid");
  assert.equal((await listBeneficiaries(c, ALL)).body.items.length, 0);
});
