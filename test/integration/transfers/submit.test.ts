/**
 * POST /v1/core/transfers/{id}/submit (spec 2.7, 3.1, 4.1 rule 9; decisions 7): 202 in registered,
 * format-level validation only, payout method selection rules, quote expiry, customer gating, and
 * the destination identifier never shown in full.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { registeredScenario } from "./support";
import {
  CLABE,
  CLABES,
  MX_PHONE,
  acceptTransfer,
  advanceClock,
  assertError,
  assertIssue,
  assertNotLeaked,
  awaitFastCheck,
  call,
  listTransfers,
  monitoredCustomer,
  readBeneficiary,
  readTransfer,
  reasons,
  submit,
  submitBody,
  timed,
  assertWithin,
  validBeneficiaryId,
  validCustomer,
} from "../support";

describe("submit: accepted", () => {
  test("202: registered, masked payout method (last 4), AWAIT_FAST_CHECK, fastCheckExpectedBy after submittedAt", async () => {
    const s = await registeredScenario();
    const { result: res, before, after } = await timed(() => submit(s.c, s.transferId, submitBody(s.beneficiaryId)));
    assert.equal(res.status, 202, res.text);
    const b = res.body;
    assert.deepEqual(Object.keys(b).sort(), [
      "beneficiaryId",
      "fastCheckExpectedBy",
      "nextStep",
      "payoutMethod",
      "purposeOfTransfer",
      "submittedAt",
      "transferId",
      "transferStatus",
    ]);
    assert.equal(b.transferId, s.transferId);
    assert.equal(b.transferStatus, "registered");
    assert.equal(b.beneficiaryId, s.beneficiaryId);
    assert.equal(b.purposeOfTransfer, "FAMILY_SUPPORT");
    assert.equal(b.nextStep, "AWAIT_FAST_CHECK");
    assert.equal(typeof b.payoutMethod.payoutMethodId, "string");
    assert.equal(b.payoutMethod.methodType, "BANK_TRANSFER");
    assert.equal(b.payoutMethod.corridor, "US-MX");
    assert.equal(b.payoutMethod.destinationIdentifierMasked, `****${CLABE.slice(-4)}`);
    assert.equal(b.payoutMethod.archived, false);
    assertWithin(b.submittedAt, before, after, 0, "submittedAt");
    const submittedAt = new Date(b.submittedAt).getTime();
    const expectedBy = new Date(b.fastCheckExpectedBy).getTime();
    assert.ok(expectedBy > submittedAt, `fastCheckExpectedBy ${b.fastCheckExpectedBy} is not after submittedAt ${b.submittedAt}`);
    assert.ok(expectedBy - submittedAt <= 10_000, `fastCheckExpectedBy ${b.fastCheckExpectedBy} is not "about 5 s" after submittedAt`);

    // The detail agrees (while still registered, or already past the fast-check).
    const read = await readTransfer(s.c, s.transferId);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.submittedAt, b.submittedAt);
    assert.deepEqual(read.body.payoutMethod, b.payoutMethod);
  });

  test("methodType BANK_ACCOUNT is accepted as an alias of BANK_TRANSFER (stored and shown as BANK_TRANSFER)", async () => {
    const s = await registeredScenario();
    const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_ACCOUNT", destinationIdentifier: CLABE }));
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.payoutMethod.methodType, "BANK_TRANSFER");
    const t = await awaitFastCheck(s.c, s.transferId);
    assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  });

  test("payoutMethodId of an earlier transfer to the same beneficiary is accepted and reused", async () => {
    const s = await registeredScenario({ freshBeneficiary: true });
    const first = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: CLABES[2] }));
    assert.equal(first.status, 202, first.text);
    const pmId = first.body.payoutMethod.payoutMethodId;

    const { transferId } = await acceptTransfer(s.c, s.beneficiaryId);
    const second = await submit(s.c, transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", payoutMethodId: pmId }));
    assert.equal(second.status, 202, second.text);
    assert.deepEqual(second.body.payoutMethod, first.body.payoutMethod);
    // The stored (encrypted) identifier goes through the fast-check like a new one.
    const t = await awaitFastCheck(s.c, transferId);
    assert.equal(t.transferStatus, "validated", JSON.stringify(t));

    // One method on the beneficiary, not two.
    const ben = await readBeneficiary(s.c, s.beneficiaryId);
    assert.equal(ben.status, 200, ben.text);
    assert.deepEqual(
      ben.body.payoutMethods.map((m: any) => m.payoutMethodId),
      [pmId],
    );
  });

  test("same key and same body replays the original 202", async () => {
    const s = await registeredScenario();
    const key = randomUUID();
    const body = submitBody(s.beneficiaryId);
    const first = await submit(s.c, s.transferId, body, { idempotencyKey: key });
    assert.equal(first.status, 202, first.text);
    const again = await submit(s.c, s.transferId, body, { idempotencyKey: key });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
  });
});

describe("submit: payout method rules (400)", () => {
  test("destinationIdentifier and payoutMethodId together: validation.payoutMethodConflict", async () => {
    const s = await registeredScenario();
    const res = await submit(
      s.c,
      s.transferId,
      submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: CLABE, payoutMethodId: "pm_whatever" }),
    );
    assertIssue(res, "payoutMethod", "validation.payoutMethodConflict");
  });

  test("neither destinationIdentifier nor payoutMethodId: validation.destinationIdentifierMissing", async () => {
    const s = await registeredScenario();
    const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER" }));
    assertIssue(res, "payoutMethod.destinationIdentifier", "validation.destinationIdentifierMissing");
  });

  test("a methodType the corridor does not offer (WALLET_TRANSFER on US-MX): validation.methodNotAvailableForCorridor", async () => {
    const s = await registeredScenario();
    const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "WALLET_TRANSFER", destinationIdentifier: "PHWALLET0001UI" }));
    assertIssue(res, "payoutMethod.methodType", "validation.methodNotAvailableForCorridor");
  });

  test("an unknown methodType: validation.fieldInvalid on payoutMethod.methodType", async () => {
    const s = await registeredScenario();
    const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "CARRIER_PIGEON", destinationIdentifier: CLABE }));
    assertIssue(res, "payoutMethod.methodType", "validation.fieldInvalid");
  });

  test("payoutMethodId of another method type (CASH_PICKUP method for a BANK_TRANSFER submit): validation.payoutMethodTypeMismatch", async () => {
    const s = await registeredScenario({ payoutMethod: "cash_pickup" });
    const pickup = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "CASH_PICKUP", destinationIdentifier: MX_PHONE }));
    assert.equal(pickup.status, 202, pickup.text);
    assert.equal(pickup.body.payoutMethod.methodType, "CASH_PICKUP");
    assert.equal(pickup.body.payoutMethod.destinationIdentifierMasked, `****${MX_PHONE.slice(-4)}`);

    const { transferId } = await acceptTransfer(s.c, s.beneficiaryId); // bank_account quote
    const res = await submit(
      s.c,
      transferId,
      submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", payoutMethodId: pickup.body.payoutMethod.payoutMethodId }),
    );
    assertIssue(res, "payoutMethod.methodType", "validation.payoutMethodTypeMismatch");
    // Nothing was submitted: a correct submit still works.
    const ok = await submit(s.c, transferId, submitBody(s.beneficiaryId));
    assert.equal(ok.status, 202, ok.text);
  });

  test("payoutMethodId of another method type, with a methodType the quote was not priced for: still validation.payoutMethodTypeMismatch", async () => {
    // The mismatch answers whatever the quote was priced for (not fieldInvalid).
    const s = await registeredScenario({ freshBeneficiary: true }); // bank_account quote
    const bank = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: CLABES[1] }));
    assert.equal(bank.status, 202, bank.text);

    const { transferId } = await acceptTransfer(s.c, s.beneficiaryId); // bank_account quote again
    const res = await submit(
      s.c,
      transferId,
      submitBody(s.beneficiaryId, { methodType: "CASH_PICKUP", payoutMethodId: bank.body.payoutMethod.payoutMethodId }),
    );
    assertIssue(res, "payoutMethod.methodType", "validation.payoutMethodTypeMismatch");
    assert.match(res.body.error.message, /BANK_TRANSFER/);
  });

  test("an unknown payoutMethodId, or another customer's: 400 validation.fieldInvalid on payoutMethod.payoutMethodId", async () => {
    const s = await registeredScenario();
    const unknown = await submit(
      s.c,
      s.transferId,
      submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", payoutMethodId: "pm_doesnotexist000000000000" }),
    );
    assertIssue(unknown, "payoutMethod.payoutMethodId", "validation.fieldInvalid");

    const other = await registeredScenario({ fresh: true });
    const theirs = await submit(other.c, other.transferId, submitBody(other.beneficiaryId));
    assert.equal(theirs.status, 202, theirs.text);
    const foreign = await submit(
      s.c,
      s.transferId,
      submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", payoutMethodId: theirs.body.payoutMethod.payoutMethodId }),
    );
    assertIssue(foreign, "payoutMethod.payoutMethodId", "validation.fieldInvalid");
  });

  test("a beneficiaryId other than the quote's: validation.fieldInvalid on beneficiaryId", async () => {
    const s = await registeredScenario();
    const otherBeneficiary = await validBeneficiaryId(s.c);
    const res = await submit(s.c, s.transferId, submitBody(otherBeneficiary));
    assertIssue(res, "beneficiaryId", "validation.fieldInvalid");
  });

  test("a 17-digit CLABE: validation.fieldFormatInvalid on payoutMethod.destinationIdentifier; nothing is submitted", async () => {
    const s = await registeredScenario();
    const bad = CLABE.slice(0, 17);
    const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: bad }));
    assertIssue(res, "payoutMethod.destinationIdentifier", "validation.fieldFormatInvalid");
    assertNotLeaked(res, bad, "the format error");
    const read = await readTransfer(s.c, s.transferId);
    assert.equal(read.body.transferStatus, "registered");
    assert.equal(read.body.submittedAt, null);
    assert.equal(read.body.payoutMethod, null);
    const ok = await submit(s.c, s.transferId, submitBody(s.beneficiaryId));
    assert.equal(ok.status, 202, ok.text);
  });
});

describe("submit: state, expiry, scope and gating", () => {
  test("a second submit (new key) is 409 transfer.stateInvalid", async () => {
    const s = await registeredScenario();
    assert.equal((await submit(s.c, s.transferId, submitBody(s.beneficiaryId))).status, 202);
    const again = await submit(s.c, s.transferId, submitBody(s.beneficiaryId));
    assertError(again, 409, "transfer.stateInvalid");
  });

  test("quote expired before submit (61 s after accept): 410 transfer.quoteExpired, and the transfer is expired", async () => {
    const s = await registeredScenario();
    const now = await advanceClock(61);
    const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId));
    const error = assertError(res, 410, "transfer.quoteExpired");
    assert.equal(error.details.quoteId, s.quoteId);
    // 60 s after the quote was created, which was a few seconds before the 61 s jump.
    const expiredAt = Date.parse(error.details.quoteExpiredAt);
    assert.ok(expiredAt < now.getTime() && expiredAt > now.getTime() - 30_000, res.text);

    const read = await readTransfer(s.c, s.transferId);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.transferStatus, "expired");
    assert.deepEqual(reasons(read.body), ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_QUOTE_EXPIRED"]);
    assert.equal(read.body.nextStep, null);
    assert.equal(read.body.customerActionExpected, "NONE");
    assert.equal("transferExpiresAt" in read.body, false);
    assert.equal(read.body.submittedAt, null);
    // Terminal now: a new submit is refused.
    assertError(await submit(s.c, s.transferId, submitBody(s.beneficiaryId)), 409, "transfer.stateInvalid");
  });

  test("a MONITORED customer may accept but not submit: 403 customer.statusInsufficient", async () => {
    const c = await monitoredCustomer();
    const beneficiaryId = await validBeneficiaryId(c);
    const { transferId } = await acceptTransfer(c, beneficiaryId);
    const res = await submit(c, transferId, submitBody(beneficiaryId));
    const error = assertError(res, 403, "customer.statusInsufficient");
    assert.equal(error.details.currentStatus, "MONITORED");
    const read = await readTransfer(c, transferId);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.transferStatus, "registered");
    assert.equal(read.body.submittedAt, null);
  });

  test("another customer's transfer: 404 transfer.notFound", async () => {
    const s = await registeredScenario();
    const intruder = await validCustomer();
    assertError(await submit(intruder, s.transferId, submitBody(s.beneficiaryId)), 404, "transfer.notFound");
    assertError(await submit(s.c, "trf_doesnotexist00000000000", submitBody(s.beneficiaryId)), 404, "transfer.notFound");
  });
});

test("the full destination identifier never appears in a response (submit, detail, list, beneficiary detail and list)", async () => {
  const s = await registeredScenario({ freshBeneficiary: true });
  const full = CLABES[1];
  const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: full }));
  assert.equal(res.status, 202, res.text);
  assertNotLeaked(res, full, "submit");
  assert.equal(res.body.payoutMethod.destinationIdentifierMasked, `****${full.slice(-4)}`);
  const detail = await awaitFastCheck(s.c, s.transferId);
  assert.equal(detail.transferStatus, "validated");
  const read = await readTransfer(s.c, s.transferId);
  assertNotLeaked(read, full, "transfer detail");
  assert.equal(read.body.payoutMethod.destinationIdentifierMasked, `****${full.slice(-4)}`);
  assertNotLeaked(await listTransfers(s.c), full, "transfer list");
  const ben = await readBeneficiary(s.c, s.beneficiaryId);
  assertNotLeaked(ben, full, "beneficiary detail");
  assert.deepEqual(
    ben.body.payoutMethods.map((m: any) => [m.methodType, m.destinationIdentifierMasked]),
    [["BANK_TRANSFER", `****${full.slice(-4)}`]],
  );
  assertNotLeaked(await call("GET", "/v1/core/beneficiaries", { token: s.c.token }), full, "beneficiary list");
  // Nor a 13-character prefix of it (a partial unmasking).
  assert.ok(!read.text.includes(full.slice(0, 13)), read.text);
});
