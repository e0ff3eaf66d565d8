/**
 * Device-assertion lockout (spec 5.3, 8; decisions 7): 5 failed assertions in 15 minutes per
 * customer or per device lock confirmation for the rest of the window: 429 device.assertionLockout
 * with details.retryAfterSeconds and a Retry-After header, even for a correct assertion. Parallel
 * failures never get past the threshold, and the lock ends with the window (LOCKOUT_SECONDS 900).
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { assertFailedCheck, validatedTransfer, world, type World } from "./confirm-support";
import {
  advanceClock,
  assertConfirmed,
  assertError,
  claimsFor,
  compactJws,
  confirm,
  registerDevice,
  transferDetail,
  useServicePricing,
  validAssertion,
  type CallResult,
  type Device,
  type TransferDetail,
} from "../support";

const LOCKOUT_SECONDS = 900;
const THRESHOLD = 5;

before(useServicePricing);

/** An authentic assertion of the device that fails verification 3 (amount off by a micro-unit). */
async function badAssertion(device: Device, t: TransferDetail): Promise<string> {
  return validAssertion(device, t, { amount: "100.000001" });
}

/** `n` failed confirms, one after the other, each 422 transferMatch. */
async function fail(w: { customer: World["customer"] }, device: Device, transferId: string, n: number) {
  for (let i = 0; i < n; i++) {
    const t = await transferDetail(w.customer, transferId);
    assertFailedCheck(await confirm(w.customer, transferId, await badAssertion(device, t)), "transferMatch");
  }
}

/** 429 device.assertionLockout with a sane retryAfterSeconds, mirrored by Retry-After; returns the seconds. */
function assertLockout(res: CallResult, maxSeconds = LOCKOUT_SECONDS): number {
  const error = assertError(res, 429, "device.assertionLockout");
  const seconds = error.details?.retryAfterSeconds;
  assert.ok(Number.isInteger(seconds), `retryAfterSeconds not an integer: ${res.text}`);
  assert.ok(seconds >= 1 && seconds <= maxSeconds, `retryAfterSeconds ${seconds} outside [1, ${maxSeconds}]`);
  assert.equal(res.headers.get("retry-after"), String(seconds), "Retry-After mirrors details.retryAfterSeconds");
  assert.equal(error.details?.remediationHint, "retry_later", res.text);
  return seconds;
}

/** Reads the transfer (new challenge) and tries a correct assertion. */
async function tryValid(w: { customer: World["customer"] }, device: Device, transferId: string) {
  const t = await transferDetail(w.customer, transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  return confirm(w.customer, transferId, await validAssertion(device, t));
}

describe("confirm lockout", () => {
  test("5 failed assertions: the 6th, even a correct one, is 429 with retryAfterSeconds and Retry-After; the transfer stays validated", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    await fail(w, w.device, transfer.transferId, THRESHOLD);

    assertLockout(await tryValid(w, w.device, transfer.transferId));
    // While locked, a bad assertion is refused as locked too (and not verified at all).
    const t = await transferDetail(w.customer, transfer.transferId);
    assertLockout(await confirm(w.customer, transfer.transferId, await badAssertion(w.device, t)));
    const after = await transferDetail(w.customer, transfer.transferId);
    assert.equal(after.transferStatus, "validated");
    assert.equal(after.fundingSession, undefined);
  });

  test("per customer: failures count across the customer's transfers, and a second registered device does not reset them", async () => {
    const w = await world();
    const [x, y] = await Promise.all([validatedTransfer(w), validatedTransfer(w)]);
    const second = await registerDevice(w.customer, undefined, "Second phone");
    await fail(w, w.device, x.transferId, 3);
    await fail(w, w.device, y.transferId, 2);

    // The other device, the other transfer, a correct assertion: still locked.
    assertLockout(await tryValid(w, second, x.transferId));
    // A device registered after the lockout started does not reset it either.
    const third = await registerDevice(w.customer, undefined, "Third phone");
    assertLockout(await tryValid(w, third, y.transferId));
  });

  test("per device: failures counted against the named device; another customer naming it cannot lock its owner out", async () => {
    const [victim, attacker] = await Promise.all([world(), world()]);
    const [victimTransfer, attackerTransfer] = await Promise.all([validatedTransfer(victim), validatedTransfer(attacker)]);

    // The attacker signs with its own key under the victim device's kid, on its own transfer, 5 times.
    for (let i = 0; i < THRESHOLD; i++) {
      const t = await transferDetail(attacker.customer, attackerTransfer.transferId);
      const jws = compactJws({ alg: "RS256", kid: victim.device.kid, typ: "JWT" }, await claimsFor(victim.device, t), attacker.device.privateKey);
      assertFailedCheck(await confirm(attacker.customer, attackerTransfer.transferId, jws), "signature");
    }
    // The attacker is locked out (its own customer scope) ...
    assertLockout(await tryValid(attacker, attacker.device, attackerTransfer.transferId));
    // ... the victim's device is not.
    assertConfirmed(await tryValid(victim, victim.device, victimTransfer.transferId), victimTransfer.transferId);

    // The owner's own 5 failures with its device lock that device (with the customer).
    const next = await validatedTransfer(victim);
    await fail(victim, victim.device, next.transferId, THRESHOLD);
    assertLockout(await tryValid(victim, victim.device, next.transferId));
  });

  test("20 parallel bad assertions: exactly 5 are verified (422) and 15 refused (429)", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const t = await transferDetail(w.customer, transfer.transferId);
    const assertions = await Promise.all(Array.from({ length: 20 }, () => badAssertion(w.device, t)));
    const results = await Promise.all(assertions.map((jws) => confirm(w.customer, transfer.transferId, jws)));

    for (const r of results) assert.ok(r.status === 422 || r.status === 429, `unexpected ${r.status}: ${r.text}`);
    const verified = results.filter((r) => r.status === 422);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(verified.length, THRESHOLD, results.map((r) => r.status).join(","));
    assert.equal(refused.length, 20 - THRESHOLD);
    for (const r of verified) assertFailedCheck(r, "transferMatch");
    for (const r of refused) assertLockout(r);
    // Never more than the threshold recorded: a correct assertion is still locked out, and the
    // lock is no longer than one window.
    assertLockout(await tryValid(w, w.device, transfer.transferId));
  });

  test("the lockout ends with its window: still locked part way, then a correct assertion confirms after LOCKOUT_SECONDS + 1", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    await fail(w, w.device, transfer.transferId, THRESHOLD);
    const first = assertLockout(await tryValid(w, w.device, transfer.transferId));

    await advanceClock(600);
    const later = assertLockout(await tryValid(w, w.device, transfer.transferId), LOCKOUT_SECONDS - 600);
    assert.ok(later <= first - 600, `retryAfterSeconds went from ${first} to ${later} over 600 s`);

    await advanceClock(LOCKOUT_SECONDS + 1 - 600);
    assertConfirmed(await tryValid(w, w.device, transfer.transferId), transfer.transferId);
  });
});
