/**
 * Customer-status gating of the onboarding routes (spec 3.5, lib/identity/customers/gating.ts GATES.onboarding:
 * profile GET/POST, kyc-sessions POST/GET permit PENDING, VALID, MONITORED, RESTRICTED, BLOCKED;
 * only CLOSED is refused). Route-level rules on top of the gate (profile locked after PENDING,
 * KYC not required once COMPLETED, KYC refused while BLOCKED) are asserted too.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertError,
  awaitStatus,
  completeKyc,
  createKyc,
  customerWithProfile,
  newCustomer,
  openKyc,
  readKyc,
  readProfile,
  submitProfile,
  usaProfile,
  type Customer,
} from "../support";

async function inStatus(status: "PENDING" | "VALID" | "MONITORED" | "RESTRICTED" | "BLOCKED"): Promise<{ c: Customer; sessionId: string | null }> {
  if (status === "MONITORED") {
    const c = await customerWithProfile(usaProfile({ firstName: "Olga", lastName: "Watchlistov" }));
    const s = await openKyc(c);
    assert.equal((await completeKyc(c, s.kycSessionId, "APPROVED")).status, 200);
    await awaitStatus(c, "MONITORED");
    return { c, sessionId: s.kycSessionId };
  }
  const c = await customerWithProfile();
  if (status === "PENDING") return { c, sessionId: null };
  const s = await openKyc(c);
  const outcome = status === "VALID" ? "APPROVED" : status === "RESTRICTED" ? "REMEDIATION_REQUIRED" : "REJECTED";
  assert.equal((await completeKyc(c, s.kycSessionId, outcome)).status, 200);
  assert.equal((await readProfile(c)).body.status, status);
  return { c, sessionId: s.kycSessionId };
}

describe("PENDING", () => {
  test("without a profile: GET profile 200, POST profile 200; KYC → 403 statusInsufficient (submit_profile_attributes)", async () => {
    const c = await newCustomer();
    assert.equal((await readProfile(c)).status, 200);
    const error = assertError(await createKyc(c), 403, "customer.statusInsufficient");
    assert.equal(error.details.remediationHint, "submit_profile_attributes");
    assert.equal((await submitProfile(c, usaProfile())).status, 200);
  });

  test("with a profile: GET profile, POST profile, POST and GET kyc-sessions all answer 200", async () => {
    const { c } = await inStatus("PENDING");
    assert.equal((await readProfile(c)).status, 200);
    assert.equal((await submitProfile(c, usaProfile())).status, 200);
    const s = await createKyc(c);
    assert.equal(s.status, 200, s.text);
    assert.equal((await readKyc(c, s.body.kycSessionId)).status, 200);
  });
});

describe("VALID", () => {
  test("reads profile and session (200); POST profile → 409 customer.profileLocked; KYC is the step-up (ENHANCED, issue 23)", async () => {
    const { c, sessionId } = await inStatus("VALID");
    assert.equal((await readProfile(c)).status, 200);
    assert.equal((await readKyc(c, sessionId!)).status, 200);
    assertError(await submitProfile(c, usaProfile()), 409, "customer.profileLocked");
    const stepUp = await createKyc(c);
    assert.equal(stepUp.status, 200, stepUp.text);
    assert.equal(stepUp.body.purpose, "ENHANCED");
  });
});

describe("MONITORED", () => {
  test("reads profile and session (200); POST profile → 409 customer.profileLocked; KYC is the step-up (ENHANCED, issue 23)", async () => {
    const { c, sessionId } = await inStatus("MONITORED");
    assert.equal((await readProfile(c)).status, 200);
    assert.equal((await readKyc(c, sessionId!)).status, 200);
    assertError(await submitProfile(c, usaProfile()), 409, "customer.profileLocked");
    const stepUp = await createKyc(c);
    assert.equal(stepUp.status, 200, stepUp.text);
    assert.equal(stepUp.body.purpose, "ENHANCED");
  });
});

describe("RESTRICTED", () => {
  test("reads profile and session (200); may open a KYC session (RESUBMISSION); POST profile → 409 customer.profileLocked", async () => {
    const { c, sessionId } = await inStatus("RESTRICTED");
    assert.equal((await readProfile(c)).status, 200);
    assert.equal((await readKyc(c, sessionId!)).status, 200);
    const s = await createKyc(c);
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.purpose, "RESUBMISSION");
    assertError(await submitProfile(c, usaProfile()), 409, "customer.profileLocked");
  });
});

describe("BLOCKED", () => {
  test("reads profile and session (200); KYC → 403 customer.statusBlocking (contact_support); POST profile → 409 customer.profileLocked", async () => {
    const { c, sessionId } = await inStatus("BLOCKED");
    const read = await readProfile(c);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, "BLOCKED");
    assert.equal((await readKyc(c, sessionId!)).status, 200);
    const error = assertError(await createKyc(c), 403, "customer.statusBlocking");
    assert.equal(error.details.remediationHint, "contact_support");
    assert.equal(error.details.currentStatus, "BLOCKED");
    assertError(await submitProfile(c, usaProfile()), 409, "customer.profileLocked");
  });
});

// A CLOSED customer and a suspended or closed relationship have no API or sandbox hook yet: their
// gates are checked for every route in test/unit/customers/gates.test.ts.
