/**
 * POST /v1/core/transfers/{id}/confirm under attack (spec 5.3, decisions 7): every forged, replayed
 * or mismatched device assertion is 422 device.assertionInvalid naming the failed verification
 * step in details.failedCheck (or the documented 412 / 409 / 403), never a 500, and never moves the
 * transfer: a correct assertion still confirms it afterwards.
 *
 * Each top-level test has its own customers. A customer is locked out after 5 failures in 15
 * minutes, so no test makes more than 4 failing attempts with one customer before its final
 * valid confirm.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { before, describe, test } from "node:test";
import {
  corridorTransfer,
  assertFailedCheck,
  awaitState,
  validatedTransfer,
  corridorBeneficiary,
  corridorCustomer,
  world,
  type World,
} from "./confirm-support";
import {
  advanceClock,
  assertConfirmed,
  assertError,
  call,
  claimsFor,
  compactJws,
  confirm,
  confirmNow,
  deactivateDevice,
  newKeyPair,
  pendingCustomer,
  publicPem,
  registerDevice,
  serverSeconds,
  serverSecondsEarly,
  signAssertion,
  transferDetail,
  useServicePricing,
  validAssertion,
  type TransferDetail,
} from "../support";

before(useServicePricing);

/** The transfer is still validated and a correct assertion confirms it (the failures changed nothing). */
async function stillConfirmable(w: World, transferId: string) {
  const t = await transferDetail(w.customer, transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  assert.equal(t.stateHistory.filter((h) => h.reasonCode === "TRF_AUTH_DEVICE_VERIFIED").length, 0);
  return confirmNow(w, transferId);
}

describe("confirm attacks: algorithm and key confusion", () => {
  test("alg none, HS256 keyed with the public key, PS256 and RS512 with the device key → signature", async (t) => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const claims = await claimsFor(w.device, transfer);
    const header = (alg: string) => ({ alg, kid: w.device.kid, typ: "JWT" });

    await t.test("alg none (empty signature)", async () => {
      assertFailedCheck(await confirm(w.customer, transfer.transferId, compactJws(header("none"), claims, null, "none")), "signature");
    });
    await t.test("HS256 with the device's public key (PEM) as the HMAC secret", async () => {
      assertFailedCheck(await confirm(w.customer, transfer.transferId, compactJws(header("HS256"), claims, publicPem(w.device), "HS256")), "signature");
    });
    await t.test("PS256 with the device key", async () => {
      assertFailedCheck(await confirm(w.customer, transfer.transferId, compactJws(header("PS256"), claims, w.device.privateKey, "PS256")), "signature");
    });
    await t.test("RS512 with the device key", async () => {
      assertFailedCheck(await confirm(w.customer, transfer.transferId, compactJws(header("RS512"), claims, w.device.privateKey, "RS512")), "signature");
    });
    await t.test("the same claims as RS256 then confirm", async () => {
      await stillConfirmable(w, transfer.transferId);
    });
  });

  test("another customer's device: its key naming this device, its own kid naming this device, its own identity → signature, signature, customerBinding", async (t) => {
    const [victim, attacker] = await Promise.all([world(), corridorCustomer().then(async (c) => ({ customer: c, device: await registerDevice(c) }))]);
    const transfer = await validatedTransfer(victim);

    await t.test("signed by the other key under this device's kid and device_id", async () => {
      const claims = await claimsFor(victim.device, transfer);
      const jws = compactJws({ alg: "RS256", kid: victim.device.kid, typ: "JWT" }, claims, attacker.device.privateKey);
      assertFailedCheck(await confirm(victim.customer, transfer.transferId, jws), "signature");
    });
    await t.test("signed by the other device under its own kid, naming this device_id", async () => {
      const claims = await claimsFor(victim.device, transfer);
      assertFailedCheck(await confirm(victim.customer, transfer.transferId, signAssertion(attacker.device, claims)), "signature");
    });
    await t.test("the other customer's device as itself (correct signature, wrong customer)", async () => {
      const claims = await claimsFor(attacker.device, transfer);
      assertFailedCheck(await confirm(victim.customer, transfer.transferId, signAssertion(attacker.device, claims)), "customerBinding");
    });
    await t.test("the other customer cannot even see the transfer: 404 transfer.notFound", async () => {
      const jws = await validAssertion(attacker.device, transfer);
      assertError(await confirm(attacker.customer, transfer.transferId, jws), 404, "transfer.notFound");
    });
    await t.test("the owner's correct assertion still confirms", async () => {
      await stillConfirmable(victim, transfer.transferId);
    });
  });

  test("a kid that names no device → 412 device.notRegistered (the precondition, spec 5.3)", async (t) => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const stranger = newKeyPair();

    await t.test("an unregistered key under its own thumbprint-like kid", async () => {
      const claims = await claimsFor(w.device, transfer);
      const jws = compactJws({ alg: "RS256", kid: `unregistered-${randomUUID()}`, typ: "JWT" }, claims, stranger.privateKey);
      const error = assertError(await confirm(w.customer, transfer.transferId, jws), 412, "device.notRegistered");
      assert.equal(error.remediation, "register_device");
      assert.equal(error.details?.remediationHint, "register_device", JSON.stringify(error));
    });
    await t.test("the device's own key under an unknown kid", async () => {
      const jws = signAssertion(w.device, await claimsFor(w.device, transfer), { kid: "no-such-kid" });
      assertError(await confirm(w.customer, transfer.transferId, jws), 412, "device.notRegistered");
    });
    await t.test("the transfer is untouched", async () => {
      await stillConfirmable(w, transfer.transferId);
    });
  });

  test("hostile structure (embedded jwk, crit, duplicate claims, not a JWS) → signature, never a 500", async (t) => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const attackerKey = newKeyPair();

    await t.test("a header embedding the attacker's jwk, signed with it, under this device's kid", async () => {
      const claims = await claimsFor(w.device, transfer);
      const jws = compactJws({ alg: "RS256", kid: w.device.kid, typ: "JWT", jwk: attackerKey.publicJwk }, claims, attackerKey.privateKey);
      assertFailedCheck(await confirm(w.customer, transfer.transferId, jws), "signature");
    });
    await t.test("crit header, correctly signed by the device", async () => {
      const jws = signAssertion(w.device, await claimsFor(w.device, transfer), { crit: ["exp"], exp: 1 });
      assertFailedCheck(await confirm(w.customer, transfer.transferId, jws), "signature");
    });
    await t.test("duplicate amount claim (two parsers could read two amounts), correctly signed", async () => {
      const claims = await claimsFor(w.device, transfer);
      const json = JSON.stringify(claims).replace(/}$/, `,"amount":"0.000001"}`);
      const jws = signAssertion(w.device, json);
      assertFailedCheck(await confirm(w.customer, transfer.transferId, jws), "signature");
    });
    await t.test("not a JWS at all", async () => {
      assertFailedCheck(await confirm(w.customer, transfer.transferId, "not.a-jws"), "signature");
    });
    await t.test("the transfer is untouched", async () => {
      await stillConfirmable(w, transfer.transferId);
    });
  });
});

describe("confirm attacks: challenge", () => {
  test("stale challenge: read twice, sign the first → challenge; expired challenge → challenge", async (t) => {
    const w = await world();
    const first = await validatedTransfer(w);
    const second = await transferDetail(w.customer, first.transferId);
    assert.notEqual(second.confirmationChallenge, first.confirmationChallenge, "every read issues a new challenge");

    await t.test("the superseded challenge", async () => {
      assertFailedCheck(await confirm(w.customer, first.transferId, await validAssertion(w.device, first)), "challenge");
    });
    await t.test("the latest challenge after its 10 minutes", async () => {
      const latest = await transferDetail(w.customer, first.transferId);
      await advanceClock(601);
      assertFailedCheck(await confirm(w.customer, first.transferId, await validAssertion(w.device, latest)), "challenge");
    });
    await t.test("a fresh read's challenge confirms", async () => {
      await stillConfirmable(w, first.transferId);
    });
  });

  test("transfer A's challenge on transfer B → challenge", async () => {
    const w = await world();
    const [a, b] = await Promise.all([validatedTransfer(w), validatedTransfer(w)]);
    const latestA = await transferDetail(w.customer, a.transferId);
    const latestB = await transferDetail(w.customer, b.transferId);
    const forged = await validAssertion(w.device, latestB, { challenge: latestA.confirmationChallenge });
    assertFailedCheck(await confirm(w.customer, b.transferId, forged), "challenge");
    // Both transfers are still confirmable, each with its own latest challenge.
    await stillConfirmable(w, b.transferId);
    await stillConfirmable(w, a.transferId);
  });
});

describe("confirm attacks: freshness", () => {
  test("nonce already used on another transfer → freshness", async () => {
    const w = await world();
    const [a, b] = await Promise.all([validatedTransfer(w), validatedTransfer(w)]);
    const nonce = randomUUID();
    const latestA = await transferDetail(w.customer, a.transferId);
    assertConfirmed(await confirm(w.customer, a.transferId, await validAssertion(w.device, latestA, { nonce })), a.transferId);

    const latestB = await transferDetail(w.customer, b.transferId);
    assertFailedCheck(await confirm(w.customer, b.transferId, await validAssertion(w.device, latestB, { nonce })), "freshness");
    await stillConfirmable(w, b.transferId);
  });

  test("nonce reused on the same transfer after a failed attempt → freshness", async () => {
    const w = await world();
    const stale = await validatedTransfer(w);
    const latest = await transferDetail(w.customer, stale.transferId);
    const nonce = randomUUID();
    // An authentic, fresh, matching assertion that fails only on the superseded challenge (step 5):
    // its nonce was presented at step 4 and is spent.
    assertFailedCheck(await confirm(w.customer, stale.transferId, await validAssertion(w.device, stale, { nonce })), "challenge");
    assertFailedCheck(await confirm(w.customer, stale.transferId, await validAssertion(w.device, latest, { nonce })), "freshness");
    await stillConfirmable(w, stale.transferId);
  });

  test("nonce reused on the same transfer after its funding session expired (back in validated) → freshness", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    const nonce = randomUUID();
    const latest = await transferDetail(w.customer, transfer.transferId);
    assertConfirmed(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest, { nonce })), transfer.transferId);

    await advanceClock(30 * 60 + 1);
    const back = await awaitState(w.customer, transfer.transferId, "validated", "funding");
    assert.deepEqual(
      back.stateHistory.map((h) => h.reasonCode),
      ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_PASSED", "TRF_AUTH_DEVICE_VERIFIED", "TRF_FUNDING_SESSION_EXPIRED"],
    );
    assertFailedCheck(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, back, { nonce })), "freshness");
    // A new nonce opens a new funding session.
    const again = await transferDetail(w.customer, transfer.transferId);
    assertConfirmed(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, again)), transfer.transferId);
  });

  test("iat 61 s in the past and 61 s in the future fail; 59 s in the past passes", async (t) => {
    const w = await world();
    const transfer = await validatedTransfer(w);

    await t.test("61 s in the past", async () => {
      const latest = await transferDetail(w.customer, transfer.transferId);
      const iat = (await serverSeconds()) - 61;
      assertFailedCheck(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest, { iat })), "freshness");
    });
    await t.test("61 s in the future", async () => {
      const latest = await transferDetail(w.customer, transfer.transferId);
      // Read early in a second, so the server judges it within that second or the next: 61 or 60 s
      // ahead would be ambiguous, so the margin is taken on the strict side (62 at worst is still > 60).
      const iat = (await serverSecondsEarly()) + 61;
      const res = await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest, { iat }));
      assertFailedCheck(res, "freshness");
    });
    await t.test("a non-integer iat", async () => {
      const latest = await transferDetail(w.customer, transfer.transferId);
      const iat = (await serverSeconds()) + 0.5;
      assertFailedCheck(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest, { iat })), "freshness");
    });
    await t.test("59 s in the past confirms", async () => {
      const latest = await transferDetail(w.customer, transfer.transferId);
      const iat = (await serverSeconds()) - 59;
      assertConfirmed(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest, { iat })), transfer.transferId);
    });
  });
});

describe("confirm attacks: claims must match the transfer exactly", () => {
  test("transfer_id, amount 100.0, currency usd, beneficiary_id, one at a time → transferMatch", async (t) => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    assert.equal(transfer.originAmount, "100.000000");
    assert.equal(transfer.originCurrency, "USD");
    // Real identifiers of the same customer: another transfer and another beneficiary.
    const [other, otherBeneficiary] = await Promise.all([corridorTransfer(w.customer, w.beneficiaryId), corridorBeneficiary(w.customer)]);

    const rows: [string, Record<string, unknown>][] = [
      ["transfer_id of another transfer of the customer", { transfer_id: other.transferId }],
      ['amount "100.0" for "100.000000"', { amount: "100.0" }],
      ['currency "usd" for "USD"', { currency: "usd" }],
      ["beneficiary_id of another beneficiary of the customer", { beneficiary_id: otherBeneficiary }],
    ];
    for (const [name, override] of rows) {
      await t.test(name, async () => {
        const latest = await transferDetail(w.customer, transfer.transferId);
        assertFailedCheck(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest, override)), "transferMatch");
      });
    }
    await t.test("the exact values confirm", async () => {
      await stillConfirmable(w, transfer.transferId);
    });
  });
});

describe("confirm preconditions", () => {
  test("an assertion of a deactivated device → 412 device.deactivated, while another device is active", async () => {
    const w = await world();
    const spare = await registerDevice(w.customer, undefined, "Spare phone");
    const transfer = await validatedTransfer(w);
    await deactivateDevice(w.customer, w.device);
    const latest = await transferDetail(w.customer, transfer.transferId);
    const error = assertError(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest)), 412, "device.deactivated");
    assert.equal(error.remediation, "register_device");
    assert.equal(error.details?.remediationHint, "register_device", JSON.stringify(error));
    await stillConfirmable({ ...w, device: spare }, transfer.transferId);
  });

  test("the only device deactivated → 412 device.notRegistered (no active device)", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    await deactivateDevice(w.customer, w.device);
    const latest = await transferDetail(w.customer, transfer.transferId);
    assertError(await confirm(w.customer, transfer.transferId, await validAssertion(w.device, latest)), 412, "device.notRegistered");
    // Registering a device again lets the customer confirm.
    const fresh = await registerDevice(w.customer);
    await stillConfirmable({ ...w, device: fresh }, transfer.transferId);
  });

  test("a deactivated key registered again as a new device confirms as that new device", async () => {
    const w = await world();
    const transfer = await validatedTransfer(w);
    await deactivateDevice(w.customer, w.device);
    // The same key pair, registered again: a new deviceId, the same kid (RFC 7638 thumbprint).
    const again = await registerDevice(w.customer, w.device);
    assert.notEqual(again.deviceId, w.device.deviceId);
    assert.equal(again.kid, w.device.kid);
    await stillConfirmable({ ...w, device: again }, transfer.transferId);
  });

  test("no device ever registered → 412 device.notRegistered", async () => {
    const customer = await corridorCustomer();
    const beneficiaryId = await corridorBeneficiary(customer);
    const transfer = await validatedTransfer({ customer, beneficiaryId });
    const unregistered = { ...newKeyPair(), deviceId: "dev_unregistered", kid: "kid-unregistered" };
    const jws = await validAssertion(unregistered, transfer);
    const error = assertError(await confirm(customer, transfer.transferId, jws), 412, "device.notRegistered");
    assert.equal(error.details?.remediationHint, "register_device", JSON.stringify(error));
  });

  test("a transfer not yet validated (registered, not submitted) → 409 transfer.stateInvalid", async () => {
    const w = await world();
    const { transferId } = await corridorTransfer(w.customer, w.beneficiaryId);
    const t: TransferDetail = await transferDetail(w.customer, transferId);
    assert.equal(t.transferStatus, "registered");
    assert.equal(t.confirmationChallenge, undefined, "no challenge before validated");
    const jws = signAssertion(w.device, await claimsFor(w.device, { ...t, confirmationChallenge: "no-challenge-yet" }));
    assertError(await confirm(w.customer, transferId, jws), 409, "transfer.stateInvalid");
    assert.equal((await transferDetail(w.customer, transferId)).transferStatus, "registered");
  });

  test("a customer still PENDING cannot confirm (gate) → 403 customer.statusInsufficient", async () => {
    const c = await pendingCustomer();
    const res = await call("POST", "/v1/core/transfers/trf_does_not_matter/confirm", { token: c.token, body: { deviceAssertion: "a.b.c" } });
    const error = assertError(res, 403, "customer.statusInsufficient");
    assert.equal(error.details?.currentStatus, "PENDING", res.text);
    assert.equal(error.details?.remediationHint, "complete_kyc", res.text);
  });
});
