/**
 * Concurrent confirms (spec 3.1, 5.3; decisions 7, 8): one valid assertion sent twice at once under
 * different Idempotency-Keys confirms the transfer once (one funding session, one
 * TRF_AUTH_DEVICE_VERIFIED); the loser is 409 transfer.stateInvalid (already funding) or 422
 * freshness (nonce spent). The same key replays the original 200 byte for byte.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { before, describe, test } from "node:test";
import { assertFailedCheck, validatedTransfer, world, type World } from "./confirm-support";
import { assertConfirmed, assertError, confirm, transferDetail, useServicePricing, validAssertion, type CallResult } from "../support";

before(useServicePricing);

/** The losers of a race: each 409 transfer.stateInvalid or 422 device.assertionInvalid (freshness). */
function assertLost(res: CallResult) {
  if (res.status === 409) assertError(res, 409, "transfer.stateInvalid");
  else assertFailedCheck(res, "freshness");
}

/** After the race: funding, exactly one confirmation in the history, the winner's funding session. */
async function assertConfirmedOnce(w: World, transferId: string, fundingSessionId: string) {
  const t = await transferDetail(w.customer, transferId);
  assert.equal(t.transferStatus, "funding", JSON.stringify(t));
  assert.equal(t.fundingSession?.fundingSessionId, fundingSessionId, "the funding session is the winner's");
  assert.deepEqual(
    t.stateHistory.map((h) => h.reasonCode),
    ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_PASSED", "TRF_AUTH_DEVICE_VERIFIED"],
    "one confirmation",
  );
}

describe("confirm races", () => {
  test("two confirms with the same valid assertion and different keys: one 200, one 409 or 422; one funding session", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const latest = await transferDetail(w.customer, transfer.transferId);
    const jws = await validAssertion(w.device, latest);

    const results = await Promise.all([confirm(w.customer, transfer.transferId, jws), confirm(w.customer, transfer.transferId, jws)]);
    const won = results.filter((r) => r.status === 200);
    assert.equal(won.length, 1, results.map((r) => `${r.status} ${r.text}`).join("\n"));
    const winner = assertConfirmed(won[0], transfer.transferId);
    for (const r of results.filter((x) => x !== won[0])) assertLost(r);
    await assertConfirmedOnce(w, transfer.transferId, winner.fundingSession.fundingSessionId);
  });

  test("eight confirms at once, each with its own correct assertion and key: exactly one wins", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const latest = await transferDetail(w.customer, transfer.transferId);
    const assertions = await Promise.all(Array.from({ length: 8 }, () => validAssertion(w.device, latest)));

    const results = await Promise.all(assertions.map((jws) => confirm(w.customer, transfer.transferId, jws)));
    const won = results.filter((r) => r.status === 200);
    assert.equal(won.length, 1, results.map((r) => `${r.status} ${r.text}`).join("\n"));
    for (const r of results.filter((x) => x !== won[0])) assertError(r, 409, "transfer.stateInvalid");
    await assertConfirmedOnce(w, transfer.transferId, assertConfirmed(won[0], transfer.transferId).fundingSession.fundingSessionId);
  });

  test("the same Idempotency-Key replays the original 200 byte for byte, without a second confirmation", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const latest = await transferDetail(w.customer, transfer.transferId);
    const jws = await validAssertion(w.device, latest);
    const key = randomUUID();

    const first = await confirm(w.customer, transfer.transferId, jws, key);
    const body = assertConfirmed(first, transfer.transferId);
    assert.equal(first.headers.get("idempotent-replayed"), null);

    const again = await confirm(w.customer, transfer.transferId, jws, key);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.text, first.text, "identical body");
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    await assertConfirmedOnce(w, transfer.transferId, body.fundingSession.fundingSessionId);

    // The same key with another body is a conflict, not a confirmation.
    const other = await confirm(w.customer, transfer.transferId, `${jws}x`, key);
    assertError(other, 409, "idempotency.conflict");
  });

  test("the same key sent twice at once: one confirmation; the other is its replay or 409 idempotency.conflict (retry_later)", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const latest = await transferDetail(w.customer, transfer.transferId);
    const jws = await validAssertion(w.device, latest);
    const key = randomUUID();

    const results = await Promise.all([confirm(w.customer, transfer.transferId, jws, key), confirm(w.customer, transfer.transferId, jws, key)]);
    const ok = results.filter((r) => r.status === 200);
    assert.ok(ok.length >= 1, results.map((r) => `${r.status} ${r.text}`).join("\n"));
    const body = assertConfirmed(ok[0], transfer.transferId);
    for (const r of ok.slice(1)) assert.equal(r.text, ok[0].text, "a concurrent replay is identical");
    for (const r of results.filter((x) => x.status !== 200)) {
      const error = assertError(r, 409, "idempotency.conflict");
      assert.equal(error.hint, "retry_later", r.text);
    }
    await assertConfirmedOnce(w, transfer.transferId, body.fundingSession.fundingSessionId);
    // Once settled, the key replays.
    const replay = await confirm(w.customer, transfer.transferId, jws, key);
    assert.equal(replay.text, ok[0].text);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
  });
});
