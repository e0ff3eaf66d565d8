/**
 * The asynchronous fast-check (spec 3.1, 4.1 rule 9; decisions 7): pass → validated
 * (TRF_CHECK_PASSED), a format-valid identifier failing its substantive check → rejected
 * (TRF_CHECK_FAILED), at or above the review threshold → onreview, and the sandbox review decision.
 * A beneficiary with an open screening case (a close match) → onreview, saying no more.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { registeredScenario } from "./support";
import {
  BAD_CHECK_DIGIT_CLABE,
  acceptTransfer,
  assertError,
  assertNoKeyDeep,
  awaitFastCheck,
  mexBeneficiary,
  readTransfer,
  reasons,
  review,
  screenedBeneficiary,
  states,
  submit,
  submitBody,
} from "../support";

test("a valid CLABE passes: validated, stateHistory TRF_CHECK_PASSED, CONFIRM_TRANSFER", async () => {
  const s = await registeredScenario();
  const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId));
  assert.equal(res.status, 202, res.text);
  const t = await awaitFastCheck(s.c, s.transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  assert.deepEqual(states(t), ["registered", "validated"]);
  assert.deepEqual(reasons(t), ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_PASSED"]);
  assert.equal(t.nextStep, "CONFIRM_TRANSFER");
  assert.equal(t.customerActionExpected, "CONFIRM");
  assert.equal(t.transferStateChangedAt, t.stateHistory[1].transitionedAt);
});

test("a format-valid CLABE with a wrong check digit is accepted at submit, then rejected by the fast-check (TRF_CHECK_FAILED)", async () => {
  const s = await registeredScenario();
  const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier: BAD_CHECK_DIGIT_CLABE }));
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.transferStatus, "registered");
  const t = await awaitFastCheck(s.c, s.transferId);
  assert.equal(t.transferStatus, "rejected", JSON.stringify(t));
  assert.deepEqual(states(t), ["registered", "rejected"]);
  assert.deepEqual(reasons(t), ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_FAILED"]);
  assert.equal(t.nextStep, null);
  assert.equal(t.customerActionExpected, "NONE");
  assert.equal("transferExpiresAt" in t, false);
  assert.equal("confirmationChallenge" in t, false);
});

test("an amount at the review threshold (1000.000000) goes to onreview; APPROVE → validated", async () => {
  const s = await registeredScenario({ originAmount: "1000.000000" });
  assert.equal((await submit(s.c, s.transferId, submitBody(s.beneficiaryId))).status, 202);
  const t = await awaitFastCheck(s.c, s.transferId);
  assert.equal(t.transferStatus, "onreview", JSON.stringify(t));
  assert.equal(t.nextStep, "WAIT_FOR_VALIDATION");
  assert.equal(t.customerActionExpected, "WAIT");
  assert.equal("confirmationChallenge" in t, false);
  assert.ok(t.transferExpiresAt, "onreview is pre-funding: transferExpiresAt shown");

  const approved = await review(s.c, s.transferId, "APPROVE");
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.body.transferStatus, "validated");
  const read = await readTransfer(s.c, s.transferId);
  assert.equal(read.body.transferStatus, "validated");
  assert.deepEqual(states(read.body), ["registered", "onreview", "validated"]);
  assert.equal(typeof read.body.confirmationChallenge, "string");
  // Decided: a second decision is refused.
  assertError(await review(s.c, s.transferId, "APPROVE"), 409, "transfer.stateInvalid");
});

test("onreview, REJECT → rejected (terminal)", async () => {
  const s = await registeredScenario({ originAmount: "1500.000000" });
  assert.equal((await submit(s.c, s.transferId, submitBody(s.beneficiaryId))).status, 202);
  const t = await awaitFastCheck(s.c, s.transferId);
  assert.equal(t.transferStatus, "onreview", JSON.stringify(t));
  const rejected = await review(s.c, s.transferId, "REJECT");
  assert.equal(rejected.status, 200, rejected.text);
  const read = await readTransfer(s.c, s.transferId);
  assert.equal(read.body.transferStatus, "rejected");
  assert.deepEqual(states(read.body), ["registered", "onreview", "rejected"]);
  assert.equal(read.body.nextStep, null);
  assert.equal(read.body.customerActionExpected, "NONE");
});

test("just below the threshold (999.990000) is not reviewed; review of a non-onreview transfer is 409", async () => {
  const s = await registeredScenario({ originAmount: "999.990000" });
  assert.equal((await submit(s.c, s.transferId, submitBody(s.beneficiaryId))).status, 202);
  const t = await awaitFastCheck(s.c, s.transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  assertError(await review(s.c, s.transferId, "APPROVE"), 409, "transfer.stateInvalid");
});

test("a close-match beneficiary (open screening case) is MONITORED and its transfer goes onreview, not validated, with nothing more said", async () => {
  const { c } = await registeredScenario();
  // A sandbox watch-list name one letter off ("Viktor Sanctionov"): a close match.
  const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionof" }));
  assert.equal(b.state, "MONITORED");
  const { transferId } = await acceptTransfer(c, b.beneficiaryId);
  assert.equal((await submit(c, transferId, submitBody(b.beneficiaryId))).status, 202);
  const t = await awaitFastCheck(c, transferId);
  assert.equal(t.transferStatus, "onreview", JSON.stringify(t));
  assert.deepEqual(reasons(t), ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_REVIEW"]);
  assert.equal(t.nextStep, "WAIT_FOR_VALIDATION");
  // The partner learns nothing of the case or the match.
  for (const key of ["case", "caseId", "screeningResult", "evidence", "entryId", "matchedName", "reviewReasons"]) assertNoKeyDeep(t, key);
  assert.doesNotMatch(JSON.stringify(t), /Sanctionov|sandbox-watchlist|screening|case_/i);
});
