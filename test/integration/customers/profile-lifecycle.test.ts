/** Profile lifecycle: submit, read, update while PENDING, lock after, identity resolution (spec 2.2, 3.3, 4.1 rule 1; decisions 4). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  loginCustomer,
  assertError,
  createKyc,
  decideKyc,
  gbrProfile,
  newCustomer,
  openKyc,
  readProfile,
  submitProfile,
  usaProfile,
  type Customer,
  type ProfileBody,
} from "../support";

const SUBMITTED = { status: "PENDING", kycRequired: true, nextStep: "START_KYC" };
const READ_KEYS = ["customerActionExpected", "identifiers", "kycStatus", "profile", "status", "statusOperationalHint", "subscriptionId", "transactability"];

/** The echoed profile without the service-side preferredLanguage (null when never given). */
function echoOf(read: { profile: Record<string, unknown> }) {
  const { preferredLanguage, ...rest } = read.profile;
  assert.ok(preferredLanguage === null || preferredLanguage === undefined, `preferredLanguage ${preferredLanguage}`);
  return rest;
}

test("before any profile: GET answers PENDING/NOT_STARTED with profile null", async () => {
  const c = await newCustomer();
  const res = await readProfile(c);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), READ_KEYS);
  assert.equal(res.body.subscriptionId, c.subscriptionId);
  assert.equal(res.body.status, "PENDING");
  assert.equal(res.body.kycStatus, "NOT_STARTED");
  assert.equal(res.body.profile, null);
  assert.equal(res.body.transactability, false);
  assert.equal(res.body.customerActionExpected, true);
});

test("submit → 200 {PENDING, kycRequired, START_KYC}; GET echoes the profile with masked identifiers", async () => {
  const c = await newCustomer();
  const profile = usaProfile({ middleNames: ["Luisa"], gender: "FEMALE", placeOfBirth: { city: "Boston", country: "USA" } });
  const res = await submitProfile(c, profile);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, SUBMITTED);
  // No internal customer identifier, nothing but the three fields.
  assert.deepEqual(Object.keys(res.body).sort(), ["kycRequired", "nextStep", "status"]);

  const read = await readProfile(c);
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(Object.keys(read.body).sort(), READ_KEYS);
  assert.equal(read.body.subscriptionId, c.subscriptionId);
  assert.equal(read.body.status, "PENDING");
  assert.equal(read.body.kycStatus, "NOT_STARTED");
  assert.equal(read.body.statusOperationalHint, null);
  assert.equal(read.body.transactability, false);
  assert.equal(read.body.customerActionExpected, true);
  assert.deepEqual(echoOf(read.body), profile);

  assert.equal(read.body.identifiers.length, 1);
  const [id] = read.body.identifiers;
  assert.deepEqual(Object.keys(id).sort(), ["canRemove", "identifierId", "identifierMasked", "identifierType", "verifiedAt"]);
  assert.equal(id.identifierType, "EMAIL");
  assert.equal(id.canRemove, false, "the only identifier cannot be removed");
  assert.notEqual(id.identifierMasked, c.identifier);
  assert.ok(id.identifierMasked.includes("*"), id.identifierMasked);
  const [local, domain] = c.identifier.split("@");
  assert.ok(!id.identifierMasked.includes(local), `local part leaked: ${id.identifierMasked}`);
  assert.ok(id.identifierMasked.endsWith(`@${domain}`), id.identifierMasked);
  assert.ok(!Number.isNaN(Date.parse(id.verifiedAt)), id.verifiedAt);
  assert.equal(typeof id.identifierId, "string");
  assert.ok(id.identifierId.length > 0);
});

test("resubmission with a new Idempotency-Key while PENDING updates the profile", async () => {
  const c = await newCustomer();
  const first = usaProfile();
  assert.equal((await submitProfile(c, first)).status, 200);
  const second = gbrProfile({ firstName: "Anna", lastName: first.lastName, dateOfBirth: "1991-05-06", middleNames: ["Beth"] });
  const res = await submitProfile(c, second);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, SUBMITTED);
  const read = await readProfile(c);
  assert.deepEqual(echoOf(read.body), second);
  assert.equal(read.body.status, "PENDING");
});

test("resubmission while PENDING with KYC in progress still updates; the answer keeps kycRequired and START_KYC", async () => {
  const c = await newCustomer();
  assert.equal((await submitProfile(c, usaProfile())).status, 200);
  await openKyc(c);
  const updated = usaProfile({ firstName: "Beatriz" });
  const res = await submitProfile(c, updated);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, SUBMITTED);
  const read = await readProfile(c);
  assert.equal(read.body.kycStatus, "IN_PROGRESS");
  assert.equal(read.body.profile.firstName, "Beatriz");
});

test("after KYC approval: resubmission → 409 customer.profileLocked and the profile is unchanged", async () => {
  const c = await newCustomer();
  const profile = usaProfile();
  assert.equal((await submitProfile(c, profile)).status, 200);
  await decideKyc(c, "APPROVED");
  const res = await submitProfile(c, { ...profile, firstName: "Changed" });
  assertError(res, 409, "customer.profileLocked");
  const read = await readProfile(c);
  assert.equal(read.body.status, "VALID");
  assert.equal(read.body.kycStatus, "COMPLETED");
  assert.equal(read.body.transactability, true);
  assert.equal(read.body.customerActionExpected, false);
  assert.deepEqual(echoOf(read.body), profile);
});

test("after KYC rejection (BLOCKED): resubmission → 409 customer.profileLocked", async () => {
  const c = await newCustomer();
  const profile = usaProfile();
  assert.equal((await submitProfile(c, profile)).status, 200);
  await decideKyc(c, "REJECTED");
  assertError(await submitProfile(c, usaProfile()), 409, "customer.profileLocked");
});

test("login nextStep follows the customer: COMPLETE_PROFILE, START_KYC (also while in progress), CONTINUE", async () => {
  const nextStep = async (c: Customer) => {
    const res = await loginCustomer(c.identifier);
    assert.equal(res.status, 200, res.text);
    return res.body.nextStep;
  };
  const c = await newCustomer();
  assert.equal(await nextStep(c), "COMPLETE_PROFILE");
  assert.equal((await submitProfile(c, usaProfile())).status, 200);
  assert.equal(await nextStep(c), "START_KYC");
  await openKyc(c);
  assert.equal(await nextStep(c), "START_KYC");
  const rejected = await newCustomer();
  assert.equal((await submitProfile(rejected, usaProfile())).status, 200);
  await decideKyc(rejected, "REJECTED");
  assert.equal(await nextStep(rejected), "CONTINUE", "a BLOCKED customer is not sent to KYC");
  assert.equal((await readProfile(rejected)).body.customerActionExpected, false);
  await decideKyc(c, "APPROVED"); // the open session, approved
  assert.equal(await nextStep(c), "CONTINUE");
});

/** A person already known (VALID) to the service. */
async function knownPerson(): Promise<{ person: Customer; profile: ProfileBody }> {
  const person = await newCustomer();
  const profile = usaProfile({ firstName: "Mateo", dateOfBirth: "1984-09-17", nationality: "ESP" });
  assert.equal((await submitProfile(person, profile)).status, 200);
  await decideKyc(person, "APPROVED");
  assert.equal((await readProfile(person)).body.status, "VALID");
  return { person, profile };
}

test("identity resolution is invisible: a matching person's answer equals a brand-new person's, and nothing is inherited", async () => {
  const { profile } = await knownPerson();
  // Same first/last name (other case and accents), date of birth and nationality; other address.
  const twin = {
    ...gbrProfile(),
    firstName: "MATEO",
    lastName: profile.lastName.toUpperCase(),
    dateOfBirth: profile.dateOfBirth,
    nationality: profile.nationality,
  };
  const b = await newCustomer();
  const matched = await submitProfile(b, twin);
  const stranger = await newCustomer();
  const unmatched = await submitProfile(stranger, gbrProfile({ nationality: "ESP" }));

  assert.equal(matched.status, 200, matched.text);
  assert.equal(unmatched.status, 200, unmatched.text);
  assert.equal(matched.text, unmatched.text, "byte-identical answers");
  assert.deepEqual(matched.body, SUBMITTED);
  assert.equal(matched.headers.get("content-type"), unmatched.headers.get("content-type"));

  // B is its own PENDING customer: no status, KYC or transactability inherited from A.
  const read = await readProfile(b);
  assert.equal(read.body.status, "PENDING");
  assert.equal(read.body.kycStatus, "NOT_STARTED");
  assert.equal(read.body.transactability, false);
  assert.equal(read.body.customerActionExpected, true);
  assert.equal(read.body.subscriptionId, b.subscriptionId);
  assert.deepEqual(echoOf(read.body), twin);
  // ...and must go through KYC itself (not kyc.notRequired).
  const session = await createKyc(b);
  assert.equal(session.status, 200, session.text);
  assert.equal(session.body.purpose, "NEW");
  assert.equal((await readProfile(b)).body.status, "PENDING");
});

test("identity resolution timing: matched and unmatched submits take the same order of time", async () => {
  const { profile } = await knownPerson();
  const time = async (body: ProfileBody) => {
    const c = await newCustomer();
    const started = performance.now();
    const res = await submitProfile(c, body, { idempotencyKey: randomUUID() });
    const ms = performance.now() - started;
    assert.equal(res.status, 200, res.text);
    return ms;
  };
  const matched: number[] = [];
  const unmatched: number[] = [];
  // Interleaved, after a warm-up of each, so neither side pays for a cold path.
  await time({ ...gbrProfile(), firstName: profile.firstName, lastName: profile.lastName, dateOfBirth: profile.dateOfBirth, nationality: profile.nationality });
  await time(gbrProfile({ nationality: "ESP" }));
  for (let i = 0; i < 4; i++) {
    matched.push(
      await time({
        ...gbrProfile(),
        firstName: profile.firstName,
        lastName: profile.lastName,
        dateOfBirth: profile.dateOfBirth,
        nationality: profile.nationality,
      }),
    );
    unmatched.push(await time(gbrProfile({ nationality: "ESP" })));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const m = median(matched);
  const u = median(unmatched);
  const ratio = Math.max(m, u) / Math.max(1, Math.min(m, u));
  assert.ok(ratio < 5, `matched median ${m.toFixed(1)} ms vs unmatched ${u.toFixed(1)} ms (ratio ${ratio.toFixed(2)})`);
});
