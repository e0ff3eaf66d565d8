/** Sanctions screening after profile submit (spec 4.1 rule 1, 3.3; sandbox watch list in data/screening). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { awaitScreeningOf } from "./helpers";
import {
  loginCustomer,
  assertError,
  awaitStatus,
  completeKyc,
  createKyc,
  customerWithProfile,
  decideKyc,
  openKyc,
  readProfile,
  submitProfile,
  usaProfile,
} from "../support";

test("an exact watch-list name (Viktor Sanctionov) becomes BLOCKED; KYC is then 403 customer.statusBlocking (contact_support)", async () => {
  const c = await customerWithProfile(usaProfile({ firstName: "Viktor", lastName: "Sanctionov" }));
  const read = await awaitStatus(c, "BLOCKED");
  assert.equal(read.kycStatus, "NOT_STARTED");
  assert.equal(read.transactability, false);
  assert.equal(read.statusOperationalHint, null, "screening evidence never surfaces");
  // Nothing to prompt: KYC is refused while BLOCKED, so neither the profile nor login points to it.
  assert.equal(read.customerActionExpected, false);
  const login = await loginCustomer(c.identifier);
  assert.equal(login.status, 200, login.text);
  assert.equal(login.body.nextStep, "CONTINUE");
  // The screened profile is still readable, unchanged.
  assert.equal(read.profile.lastName, "Sanctionov");

  const error = assertError(await createKyc(c), 403, "customer.statusBlocking");
  assert.equal(error.remediation, "contact_support");
  assert.equal(error.details.remediationHint, "contact_support");
  assert.equal(error.details.currentStatus, "BLOCKED");
  // And the profile can no longer be changed to escape the hit.
  assertError(await submitProfile(c, usaProfile()), 409, "customer.profileLocked");
});

test('matching ignores case, accents and spacing ("VÍKTOR  sanctionov" is a hit)', async () => {
  const c = await customerWithProfile(usaProfile({ firstName: "VÍKTOR", lastName: "sanctionov" }));
  await awaitStatus(c, "BLOCKED");
});

test("a hit during KYC blocks: the session cannot make the customer VALID", async () => {
  // A clean profile with a session open, then (still PENDING) resubmitted as a listed name.
  const c = await customerWithProfile(usaProfile());
  const session = await openKyc(c);
  assert.equal((await submitProfile(c, usaProfile({ firstName: "Blocked", lastName: "Person" }))).status, 200);
  await awaitStatus(c, "BLOCKED", "IN_PROGRESS");
  const done = await completeKyc(c, session.kycSessionId, "APPROVED");
  assert.equal(done.status, 200, done.text);
  const read = await readProfile(c);
  assert.equal(read.body.status, "BLOCKED", "approval never unblocks");
  assert.equal(read.body.kycStatus, "COMPLETED");
  assert.equal(read.body.transactability, false);
});

test("a close match (Olga Watchlistov, one letter off) stays PENDING until KYC approval, then MONITORED (not VALID)", async () => {
  const c = await customerWithProfile(usaProfile({ firstName: "Olga", lastName: "Watchlistov" }));
  await awaitScreeningOf(c);
  let read = await readProfile(c);
  assert.equal(read.body.status, "PENDING", "a close match alone changes nothing before KYC");
  assert.equal(read.body.kycStatus, "NOT_STARTED");

  await decideKyc(c, "APPROVED");
  read = await readProfile(c);
  assert.equal(read.body.status, "MONITORED", read.text);
  assert.equal(read.body.kycStatus, "COMPLETED");
  assert.equal(read.body.transactability, true, "MONITORED with KYC COMPLETED may transact");
  assert.equal(read.body.statusOperationalHint, null);
});

test("a close match screened after approval still lands on MONITORED", async () => {
  // Approved before the (delayed) screening job runs: the job moves VALID → MONITORED.
  const c = await customerWithProfile(usaProfile({ firstName: "Olga", lastName: "Watchlistowa" }));
  await decideKyc(c, "APPROVED");
  const read = await awaitStatus(c, "MONITORED", "COMPLETED");
  assert.equal(read.transactability, true);
});

test("a clean name is VALID after approval", async () => {
  const c = await customerWithProfile(usaProfile({ firstName: "Olivia" }));
  await awaitScreeningOf(c);
  assert.equal((await readProfile(c)).body.status, "PENDING");
  await decideKyc(c, "APPROVED");
  const read = await readProfile(c);
  assert.equal(read.body.status, "VALID", read.text);
  assert.equal(read.body.kycStatus, "COMPLETED");
  assert.equal(read.body.transactability, true);
});

test("every submit is screened: a clean profile resubmitted (while PENDING) as a listed name becomes BLOCKED", async () => {
  const c = await customerWithProfile(usaProfile());
  await awaitScreeningOf(c); // the first screening ran (CLEAR)
  assert.equal((await readProfile(c)).body.status, "PENDING");
  const res = await submitProfile(c, usaProfile({ firstName: "Viktor", lastName: "Sanctionov" }));
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { status: "PENDING", kycRequired: true, nextStep: "START_KYC" });
  await awaitStatus(c, "BLOCKED");
});

test("a close match followed by a clean resubmission is screened again: VALID after approval", async () => {
  const c = await customerWithProfile(usaProfile({ firstName: "Olga", lastName: "Watchlistov" }));
  await awaitScreeningOf(c);
  assert.equal((await submitProfile(c, usaProfile({ firstName: "Olga" }))).status, 200);
  await awaitScreeningOf(c);
  await decideKyc(c, "APPROVED");
  const read = await readProfile(c);
  assert.equal(read.body.status, "VALID", read.text);
});
