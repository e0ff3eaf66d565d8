/** Idempotency-Key on Core POSTs (decisions section 8), on POST /v1/core/profile and POST /v1/core/kyc-sessions. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { openWebview, EXPIRED_PAGE } from "../customers/helpers";
import { advanceClock, call, assertError, createKyc, customerWithProfile, newCustomer, readProfile, relogin, submitProfile, usaProfile } from "../support";

function assertHeaderIssue(res: Awaited<ReturnType<typeof call>>, code: string) {
  const error = assertError(res, 400, code);
  assert.deepEqual(
    error.details.issues.map((i: { field: string; code: string }) => [i.field, i.code]),
    [["header.Idempotency-Key", code]],
  );
}

test("missing Idempotency-Key → 400 validation.fieldMissing on header.Idempotency-Key (profile and kyc-sessions)", async () => {
  const c = await newCustomer();
  assertHeaderIssue(await submitProfile(c, usaProfile(), { idempotencyKey: null }), "validation.fieldMissing");
  assertHeaderIssue(await createKyc(c, { idempotencyKey: null }), "validation.fieldMissing");
  // Nothing ran.
  assert.equal((await readProfile(c)).body.profile, null);
});

test("a non-UUID Idempotency-Key → 400 validation.fieldInvalid on header.Idempotency-Key", async () => {
  const c = await newCustomer();
  for (const key of ["abc", "12345", `${randomUUID()}x`, randomUUID().replace(/-/g, "")]) {
    assertHeaderIssue(await submitProfile(c, usaProfile(), { idempotencyKey: key }), "validation.fieldInvalid");
  }
  assertHeaderIssue(await createKyc(c, { idempotencyKey: "not-a-uuid" }), "validation.fieldInvalid");
  assert.equal((await readProfile(c)).body.profile, null);
});

test("same key, same body → the original status and byte-identical body, with Idempotent-Replayed: true", async () => {
  const c = await newCustomer();
  const key = randomUUID();
  const body = usaProfile();
  const first = await submitProfile(c, body, { idempotencyKey: key });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.headers.get("idempotent-replayed"), null);

  // Meanwhile the profile moves on (a new key updates it) ...
  const updated = usaProfile({ firstName: "Changed" });
  assert.equal((await submitProfile(c, updated)).status, 200);
  // ... and the replay still answers the original, without running again.
  const replay = await submitProfile(c, body, { idempotencyKey: key });
  assert.equal(replay.status, first.status);
  assert.equal(replay.text, first.text);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  assert.equal((await readProfile(c)).body.profile.firstName, "Changed", "the replay did not resubmit");

  // The same JSON with keys in another order is the same request.
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  const again = await submitProfile(c, reordered, { idempotencyKey: key.toUpperCase() });
  assert.equal(again.status, 200);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
});

test("kyc-sessions: same key → the same session and the same webviewUrl (no second URL issued)", async () => {
  const c = await customerWithProfile();
  const key = randomUUID();
  const first = await createKyc(c, { idempotencyKey: key });
  assert.equal(first.status, 200, first.text);
  const replay = await createKyc(c, { idempotencyKey: key });
  assert.equal(replay.status, 200);
  assert.equal(replay.text, first.text);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  // A new key: server-side idempotency returns the session with a fresh URL.
  const fresh = await createKyc(c);
  assert.equal(fresh.body.kycSessionId, first.body.kycSessionId);
  assert.notEqual(fresh.body.webviewUrl, first.body.webviewUrl);
  assert.equal(fresh.headers.get("idempotent-replayed"), null);
});

test("an error answer is replayed too (same status and body)", async () => {
  const c = await newCustomer();
  const key = randomUUID();
  const first = await createKyc(c, { idempotencyKey: key }); // no profile yet
  assertError(first, 403, "customer.statusInsufficient");
  assert.equal((await submitProfile(c, usaProfile())).status, 200);
  const replay = await createKyc(c, { idempotencyKey: key });
  assert.equal(replay.status, 403);
  assert.equal(replay.text, first.text);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  // A new key runs: the customer has a profile now.
  assert.equal((await createKyc(c)).status, 200);
});

test("same key, different body → 409 idempotency.conflict, even for a body that would not validate", async () => {
  const c = await newCustomer();
  const key = randomUUID();
  const body = usaProfile();
  assert.equal((await submitProfile(c, body, { idempotencyKey: key })).status, 200);
  assertError(await submitProfile(c, { ...body, firstName: "Other" }, { idempotencyKey: key }), 409, "idempotency.conflict");
  assertError(await submitProfile(c, { ...body, firstName: "Иван" }, { idempotencyKey: key }), 409, "idempotency.conflict");
  assertError(await submitProfile(c, {}, { idempotencyKey: key }), 409, "idempotency.conflict");
  assertError(await submitProfile(c, { ...body, extra: 1 }, { idempotencyKey: key }), 409, "idempotency.conflict");
  assert.equal((await readProfile(c)).body.profile.firstName, body.firstName);
});

test("same key on a different path → 409 idempotency.conflict", async () => {
  const c = await newCustomer();
  const key = randomUUID();
  assert.equal((await submitProfile(c, usaProfile(), { idempotencyKey: key })).status, 200);
  const res = await createKyc(c, { idempotencyKey: key });
  assertError(res, 409, "idempotency.conflict");
  assert.equal((await readProfile(c)).body.kycStatus, "NOT_STARTED", "the KYC session was not created");
  // And the other way round.
  const key2 = randomUUID();
  assert.equal((await createKyc(c, { idempotencyKey: key2 })).status, 200);
  assertError(await submitProfile(c, usaProfile(), { idempotencyKey: key2 }), 409, "idempotency.conflict");
});

test("keys are scoped per subscription: two customers use the same key independently", async () => {
  const a = await customerWithProfile();
  const b = await customerWithProfile();
  const key = randomUUID();
  const ra = await createKyc(a, { idempotencyKey: key });
  const rb = await createKyc(b, { idempotencyKey: key });
  assert.equal(ra.status, 200, ra.text);
  assert.equal(rb.status, 200, rb.text);
  assert.equal(rb.headers.get("idempotent-replayed"), null);
  assert.notEqual(ra.body.kycSessionId, rb.body.kycSessionId);
  assert.notEqual(ra.body.webviewUrl, rb.body.webviewUrl);
  // Same key with a different body on profile is no conflict across customers either.
  const p = randomUUID();
  assert.equal((await submitProfile(a, usaProfile(), { idempotencyKey: p })).status, 200);
  const other = await submitProfile(b, usaProfile({ firstName: "Other" }), { idempotencyKey: p });
  assert.equal(other.status, 200, other.text);
  assert.equal(other.headers.get("idempotent-replayed"), null);
});

test("10 concurrent kyc-sessions with one key: a single execution; the rest are replays or 409 retry_later", async () => {
  const c = await customerWithProfile();
  const key = randomUUID();
  const results = await Promise.all(Array.from({ length: 10 }, () => createKyc(c, { idempotencyKey: key })));
  const ok = results.filter((r) => r.status === 200);
  const conflicts = results.filter((r) => r.status !== 200);
  assert.ok(ok.length >= 1, results.map((r) => `${r.status} ${r.text}`).join("\n"));
  for (const r of ok) assert.equal(r.text, ok[0].text, "every 200 is the same execution (same webviewUrl)");
  assert.equal(ok.filter((r) => r.headers.get("idempotent-replayed") === null).length, 1, "exactly one original answer");
  for (const r of conflicts) {
    const error = assertError(r, 409, "idempotency.conflict");
    assert.equal(error.hint, "retry_later", r.text);
  }
  // Afterwards the key replays the single execution.
  const replay = await createKyc(c, { idempotencyKey: key });
  assert.equal(replay.text, ok[0].text);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  assert.ok(!(await openWebview(ok[0].body.webviewUrl)).html.includes(EXPIRED_PAGE));
});

test("10 concurrent profile submits with one key: one execution, identical 200s, others 409 retry_later", async () => {
  const c = await newCustomer();
  const key = randomUUID();
  const body = usaProfile();
  const results = await Promise.all(Array.from({ length: 10 }, () => submitProfile(c, body, { idempotencyKey: key })));
  const ok = results.filter((r) => r.status === 200);
  assert.ok(ok.length >= 1, results.map((r) => `${r.status} ${r.text}`).join("\n"));
  for (const r of ok) assert.equal(r.text, ok[0].text);
  assert.equal(ok.filter((r) => r.headers.get("idempotent-replayed") === null).length, 1);
  for (const r of results.filter((x) => x.status !== 200)) assert.equal(assertError(r, 409, "idempotency.conflict").hint, "retry_later");
});

test("keys are kept 24 hours: replayed just before, run again after", async () => {
  let c = await customerWithProfile();
  const key = randomUUID();
  const first = await createKyc(c, { idempotencyKey: key });
  assert.equal(first.status, 200, first.text);

  await advanceClock(86400 - 120);
  c = await relogin(c); // the access token lived one hour
  const kept = await createKyc(c, { idempotencyKey: key });
  assert.equal(kept.text, first.text, "still replayed just under 24 hours later");
  assert.equal(kept.headers.get("idempotent-replayed"), "true");

  await advanceClock(121);
  c = await relogin(c);
  const after = await createKyc(c, { idempotencyKey: key });
  assert.equal(after.status, 200, after.text);
  assert.equal(after.headers.get("idempotent-replayed"), null);
  assert.notEqual(after.body.webviewUrl, first.body.webviewUrl);
  assert.notEqual(after.text, first.text);
});
