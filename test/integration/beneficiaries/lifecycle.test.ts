/**
 * Beneficiary creation, screening, detail, validation and archive (spec 2.4, 3.2, 3.5, 7;
 * decisions 5 and 8).
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  archiveBeneficiary,
  assertError,
  assertIssue,
  assertIssues,
  assertNoKeyDeep,
  createBeneficiary,
  forceScreening,
  listBeneficiaries,
  mexBeneficiary,
  blockedCustomer,
  pendingCustomer,
  restrictedCustomer,
  readBeneficiary,
  screenedBeneficiary,
  validBeneficiary,
  validCustomer,
  type Customer,
  BENEFICIARY_KEYS,
} from "../support";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let c: Customer;
before(async () => {
  c = await validCustomer();
});

describe("create", () => {
  test("202 PENDING with the detail shape of decisions 5; the detail echoes it", async () => {
    const body = mexBeneficiary({ dateOfBirth: "1992-07-01", nationality: "MEX", relationshipToCustomer: "SELF" });
    const res = await createBeneficiary(c, body);
    assert.equal(res.status, 202, res.text);
    const b = res.body;
    assert.deepEqual(Object.keys(b).sort(), BENEFICIARY_KEYS, res.text);
    assert.match(b.beneficiaryId, /^\S+$/);
    assert.equal(b.firstName, body.firstName);
    assert.equal(b.lastName, body.lastName);
    assert.equal(b.dateOfBirth, "1992-07-01");
    assert.equal(b.nationality, "MEX");
    assert.equal(b.countryOfResidence, "MEX");
    assert.equal(b.relationshipToCustomer, "SELF");
    assert.equal(b.state, "PENDING");
    assert.deepEqual(b.payoutMethods, []);
    assert.equal(b.customerActionHint, "await_beneficiary_verification");
    assert.equal(b.lastUsedAt, null);
    assert.match(b.createdAt, ISO);
    assertNoKeyDeep(b, "screeningResult");

    const detail = await readBeneficiary(c, b.beneficiaryId);
    assert.equal(detail.status, 200, detail.text);
    assert.deepEqual(Object.keys(detail.body).sort(), BENEFICIARY_KEYS);
    assert.equal(detail.body.beneficiaryId, b.beneficiaryId);
    assert.equal(detail.body.createdAt, b.createdAt);
  });

  test("optional dateOfBirth and nationality come back as null", async () => {
    const res = await createBeneficiary(c, mexBeneficiary());
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.dateOfBirth, null);
    assert.equal(res.body.nationality, null);
    assert.equal(res.body.relationshipToCustomer, "FAMILY");
  });

  test("no de-duplication: two identical creates give two records (spec 2.4)", async () => {
    const body = mexBeneficiary({ dateOfBirth: "1980-01-01", nationality: "MEX" });
    const a = await createBeneficiary(c, body);
    const b = await createBeneficiary(c, body);
    assert.equal(a.status, 202, a.text);
    assert.equal(b.status, 202, b.text);
    assert.notEqual(a.body.beneficiaryId, b.body.beneficiaryId);
    const list = await listBeneficiaries(c, "limit=200");
    assert.equal(list.status, 200, list.text);
    const same = list.body.items.filter((i: any) => i.lastName === body.lastName);
    assert.equal(same.length, 2);
  });

  test("an optional residence address is taken (the payout file carries it) without changing the detail's members; its country must be countryOfResidence", async () => {
    const address = { addressLine1: "Calle Hidalgo 45", city: "Guadalajara", region: "JAL", postalCode: "44100", country: "MEX" };
    const res = await createBeneficiary(c, mexBeneficiary({ address }));
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), BENEFICIARY_KEYS, "decisions 5's members, no more");
    assertIssue(await createBeneficiary(c, mexBeneficiary({ address: { ...address, country: "PHL" } })), "address.country", "validation.fieldInvalid");
    assertIssue(await createBeneficiary(c, mexBeneficiary({ address: { ...address, city: undefined } })), "address.city", "validation.fieldMissing");
  });

  test("a PENDING customer (no KYC) cannot create beneficiaries: 403 customer.statusInsufficient", async () => {
    const p = await pendingCustomer();
    const error = assertError(await createBeneficiary(p, mexBeneficiary()), 403, "customer.statusInsufficient");
    assert.equal(error.details.currentStatus, "PENDING");
    assert.equal(error.details.remediationHint, "complete_kyc");
  });
});

describe("validation", () => {
  test("missing countryOfResidence → 400 validation.fieldMissing on countryOfResidence", async () => {
    const { countryOfResidence: _omit, ...body } = mexBeneficiary();
    assertIssue(await createBeneficiary(c, body), "countryOfResidence", "validation.fieldMissing");
  });

  test("missing firstName and lastName → one issue each", async () => {
    assertIssues(await createBeneficiary(c, { countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" }), "validation.fieldMissing", [
      { field: "firstName", code: "validation.fieldMissing" },
      { field: "lastName", code: "validation.fieldMissing" },
    ]);
  });

  test("relationshipToCustomer outside BeneficiaryRelationship → 400 validation.fieldInvalid", async () => {
    assertIssue(await createBeneficiary(c, mexBeneficiary({ relationshipToCustomer: "COUSIN" })), "relationshipToCustomer", "validation.fieldInvalid");
  });

  for (const bad of ["MX", "mex", "XYZ", "MEXX"]) {
    test(`countryOfResidence ${JSON.stringify(bad)} (not an ISO alpha-3 code) → 400 validation.fieldFormatInvalid`, async () => {
      assertIssue(await createBeneficiary(c, mexBeneficiary({ countryOfResidence: bad })), "countryOfResidence", "validation.fieldFormatInvalid");
    });
  }

  test("nationality not an alpha-3 code → 400 on nationality", async () => {
    assertIssue(await createBeneficiary(c, mexBeneficiary({ nationality: "ZZZ" })), "nationality", "validation.fieldFormatInvalid");
  });

  test("dateOfBirth not a calendar date → 400 on dateOfBirth", async () => {
    assertIssue(await createBeneficiary(c, mexBeneficiary({ dateOfBirth: "2001-02-30" })), "dateOfBirth", "validation.fieldFormatInvalid");
  });

  test("an unknown field is refused (strict body): 400 validation.fieldInvalid, issue validation.fieldUnknown", async () => {
    assertIssues(await createBeneficiary(c, mexBeneficiary({ screeningResult: "CLEAR" })), "validation.fieldInvalid", [
      { field: "screeningResult", code: "validation.fieldUnknown" },
    ]);
  });

  test("a refused create makes no record", async () => {
    const body = mexBeneficiary({ relationshipToCustomer: "COUSIN" });
    assert.equal((await createBeneficiary(c, body)).status, 400);
    const list = await listBeneficiaries(c, "limit=200&states=PENDING,VALID,MONITORED,BLOCKED,ARCHIVED");
    assert.equal(list.body.items.filter((i: any) => i.lastName === body.lastName).length, 0);
  });
});

describe("screening (sandbox watch list, decisions 5)", () => {
  test("a clean name becomes VALID, customerActionHint null", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary());
    assert.equal(b.state, "VALID");
    assert.equal(b.customerActionHint, null);
    assertNoKeyDeep(b, "screeningResult");
  });

  test('exact watch-list match "Viktor Sanctionov" becomes BLOCKED, hint select_different_beneficiary', async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    assert.equal(b.state, "BLOCKED");
    assert.equal(b.customerActionHint, "select_different_beneficiary");
    assertNoKeyDeep(b, "screeningResult");
  });

  test('close match "Olga Watchlistov" becomes MONITORED', async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Olga", lastName: "Watchlistov" }));
    assert.equal(b.state, "MONITORED");
    assertNoKeyDeep(b, "screeningResult");
  });

  test("screening evidence is in no response: detail, list (all states), archive", async () => {
    const blocked = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    const valid = await validBeneficiary(c);
    for (const res of [
      await readBeneficiary(c, blocked.beneficiaryId),
      await readBeneficiary(c, valid.beneficiaryId),
      await listBeneficiaries(c, "limit=200&states=PENDING,VALID,MONITORED,BLOCKED,ARCHIVED"),
      await archiveBeneficiary(c, valid.beneficiaryId),
    ]) {
      assert.equal(res.status, 200, res.text);
      assertNoKeyDeep(res.body, "screeningResult");
      assert.doesNotMatch(res.text, /screening|CLOSE_MATCH|"HIT"|rationale/i);
    }
  });
});

describe("sandbox screening endpoint", () => {
  for (const outcome of ["VALID", "MONITORED", "BLOCKED"] as const) {
    test(`forces ${outcome} on a PENDING beneficiary (200 with the detail)`, async () => {
      const created = await createBeneficiary(c, mexBeneficiary());
      assert.equal(created.status, 202, created.text);
      const res = await forceScreening(c, created.body.beneficiaryId, outcome);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.beneficiaryId, created.body.beneficiaryId);
      assert.equal(res.body.state, outcome);
      assertNoKeyDeep(res.body, "screeningResult");
      // The delayed screening job must not overwrite the forced decision.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await readBeneficiary(c, created.body.beneficiaryId)).body.state, outcome);
    });
  }

  test("BLOCKED → VALID through it (operator decision, the only exit from BLOCKED)", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    assert.equal(b.state, "BLOCKED");
    const res = await forceScreening(c, b.beneficiaryId, "VALID");
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.state, "VALID");
    assert.equal(res.body.customerActionHint, null);
    assert.equal((await readBeneficiary(c, b.beneficiaryId)).body.state, "VALID");
  });

  test("VALID → MONITORED → BLOCKED (operator re-decision)", async () => {
    const b = await validBeneficiary(c);
    assert.equal((await forceScreening(c, b.beneficiaryId, "MONITORED")).body.state, "MONITORED");
    assert.equal((await forceScreening(c, b.beneficiaryId, "BLOCKED")).body.state, "BLOCKED");
  });

  test("an ARCHIVED beneficiary cannot be re-decided: 409 beneficiary.archived", async () => {
    const b = await validBeneficiary(c);
    assert.equal((await archiveBeneficiary(c, b.beneficiaryId)).status, 200);
    assertError(await forceScreening(c, b.beneficiaryId, "VALID"), 409, "beneficiary.archived");
  });

  test("unknown outcome → 400 on outcome", async () => {
    const b = await validBeneficiary(c);
    const res = await forceScreening(c, b.beneficiaryId, "ARCHIVED" as never);
    assertIssue(res, "outcome", "validation.fieldInvalid");
  });
});

describe("scope", () => {
  test("another customer's beneficiary: detail, archive, sandbox screening → 404 beneficiary.notFound", async () => {
    const other = await validCustomer();
    const mine = await validBeneficiary(c);
    assertError(await readBeneficiary(other, mine.beneficiaryId), 404, "beneficiary.notFound");
    assertError(await archiveBeneficiary(other, mine.beneficiaryId), 404, "beneficiary.notFound");
    assertError(await forceScreening(other, mine.beneficiaryId, "BLOCKED"), 404, "beneficiary.notFound");
    // Untouched.
    const after = await readBeneficiary(c, mine.beneficiaryId);
    assert.equal(after.body.state, "VALID");
    // Answers exactly like a missing id.
    const missing = await readBeneficiary(other, "ben_doesnotexist000000000000");
    const foreign = await readBeneficiary(other, mine.beneficiaryId);
    assert.equal(missing.body.error.code, foreign.body.error.code);
    assert.equal(missing.body.error.message, foreign.body.error.message);
    assert.deepEqual(missing.body.error.details, foreign.body.error.details);
  });
});

describe("archive", () => {
  test("VALID → 200 {beneficiaryId, state ARCHIVED, archivedAt}; detail shows ARCHIVED", async () => {
    const b = await validBeneficiary(c);
    const res = await archiveBeneficiary(c, b.beneficiaryId);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["archivedAt", "beneficiaryId", "state"]);
    assert.equal(res.body.beneficiaryId, b.beneficiaryId);
    assert.equal(res.body.state, "ARCHIVED");
    assert.match(res.body.archivedAt, ISO);
    const detail = await readBeneficiary(c, b.beneficiaryId);
    assert.equal(detail.body.state, "ARCHIVED");
    assert.equal(detail.body.customerActionHint, "select_different_beneficiary");
  });

  test("MONITORED → 200 ARCHIVED", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Olga", lastName: "Watchlistov" }));
    assert.equal(b.state, "MONITORED");
    const res = await archiveBeneficiary(c, b.beneficiaryId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.state, "ARCHIVED");
  });

  test("again with a new key → 409 beneficiary.archived; same key → replay of the 200", async () => {
    const b = await validBeneficiary(c);
    const key = crypto.randomUUID();
    const first = await archiveBeneficiary(c, b.beneficiaryId, { idempotencyKey: key });
    assert.equal(first.status, 200, first.text);
    const replay = await archiveBeneficiary(c, b.beneficiaryId, { idempotencyKey: key });
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.text, first.text);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assertError(await archiveBeneficiary(c, b.beneficiaryId), 409, "beneficiary.archived");
  });

  test("BLOCKED → 409 beneficiary.archiveBlocked, stays BLOCKED", async () => {
    const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    assert.equal(b.state, "BLOCKED");
    assertError(await archiveBeneficiary(c, b.beneficiaryId), 409, "beneficiary.archiveBlocked");
    assert.equal((await readBeneficiary(c, b.beneficiaryId)).body.state, "BLOCKED");
  });

  test("PENDING may be archived (decisions 5); screening never revives it", async () => {
    // Archived right after create, well before SCREENING_DELAY_MS; events.test.ts proves from
    // the beneficiary.state.changed events that the archive came from PENDING.
    const created = await createBeneficiary(c, mexBeneficiary());
    assert.equal(created.status, 202, created.text);
    const res = await archiveBeneficiary(c, created.body.beneficiaryId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.state, "ARCHIVED");
    // Past the screening delay (1 s in CI), the record is still ARCHIVED.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await readBeneficiary(c, created.body.beneficiaryId)).body.state, "ARCHIVED");
  });

  test("RESTRICTED and BLOCKED customers may archive (spec 3.5); their beneficiaries stay theirs", async () => {
    for (const who of [await restrictedCustomer(), await blockedCustomer()]) {
      const created = await createBeneficiary(who, mexBeneficiary());
      assert.equal(created.status, 202, created.text);
      const res = await archiveBeneficiary(who, created.body.beneficiaryId);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.state, "ARCHIVED");
    }
  });

  test("a PENDING customer may not archive (spec 3.5): 403 customer.statusInsufficient", async () => {
    const p = await pendingCustomer();
    const error = assertError(await archiveBeneficiary(p, "ben_doesnotexist000000000000"), 403, "customer.statusInsufficient");
    assert.deepEqual(error.details, { currentStatus: "PENDING", remediationHint: "complete_kyc" });
  });

  test("unknown id → 404 beneficiary.notFound", async () => {
    assertError(await archiveBeneficiary(c, "ben_doesnotexist000000000000"), 404, "beneficiary.notFound");
  });
});
