/**
 * Screening on the official list over HTTP: a beneficiary or a profile carrying a
 * listed name, in any variation of the labelled set (case, accents, order, a missing middle name,
 * a typo, an alias), never reaches VALID; common test names stay clear. The evidence never leaves
 * the service. One name policy at the API (invisible characters and lookalikes refused
 * at the field's path, names stored NFC), and the UN list screened too.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import type { SanctionedEntry } from "@/lib/compliance/screening/entity";
import { awaitScreeningOf } from "../customers/helpers";
import { listedCases, shippedEntries, VARIATIONS } from "../../unit/screening/labelled-set";
import {
  assertError,
  assertIssue,
  assertNoKeyDeep,
  awaitScreened,
  createBeneficiary,
  decideKyc,
  mexBeneficiary,
  newCustomer,
  pendingCustomer,
  readBeneficiary,
  screenedBeneficiary,
  submitProfile,
  usaProfile,
  validCustomer,
  readProfile,
  type Customer,
} from "../support";

const entries = shippedEntries();
const byId = new Map(entries.map((e) => [e.entryId, e]));
// Two individuals per variation, spread over the set.
const cases = VARIATIONS.flatMap((v) => {
  const all = listedCases(entries).filter((c) => c.variation === v);
  return [all[0], all[Math.floor(all.length / 2)]];
});
const EVIDENCE_KEYS = ["screeningResult", "evidence", "entryId", "matchedName", "programs", "score"];

/** A date of birth the entry agrees with (as the listed person would give it). */
function birthDateOf(e: SanctionedEntry, given: string | null | undefined): string {
  if (given) return given;
  const published = e.datesOfBirth[0];
  if (!published) return "1975-06-15";
  return /^\d{4}-\d{2}$/.test(published) ? `${published}-15` : `${published.slice(0, 4)}-06-15`;
}

describe("beneficiaries", () => {
  let c: Customer;
  test("setup: a VALID customer", async () => {
    c = await validCustomer();
  });
  for (const listed of cases) {
    test(`${listed.variation}: "${listed.subject.firstName} ${listed.subject.lastName}" is not VALID`, async () => {
      const b = await screenedBeneficiary(c, {
        firstName: listed.subject.firstName,
        lastName: listed.subject.lastName,
        countryOfResidence: "MEX",
        relationshipToCustomer: "FAMILY",
      });
      assert.ok(b.state === "BLOCKED" || b.state === "MONITORED", `${b.state} for entry ${listed.entryId}`);
      for (const key of EVIDENCE_KEYS) assertNoKeyDeep(b, key);
    });
  }
});

describe("profiles", () => {
  for (const listed of cases) {
    test(`${listed.variation}: "${listed.subject.firstName} ${listed.subject.lastName}" is not VALID after KYC approval`, async () => {
      const e = byId.get(listed.entryId)!;
      const c = await pendingCustomer({
        firstName: listed.subject.firstName,
        lastName: listed.subject.lastName,
        dateOfBirth: birthDateOf(e, listed.subject.dateOfBirth),
        // The listed person's nationality where a profile accepts it (sanctioned ones are refused).
        nationality: e.nationalities.find((n) => !["CUB", "IRN", "PRK", "SYR"].includes(n)) ?? "USA",
      });
      // Screening first (a job; jobs run in due order, so the barrier's hit means ours ran), then KYC
      // approval where it is still allowed: approval never makes a match VALID.
      await awaitScreeningOf(c);
      if ((await readProfile(c)).body.status === "PENDING") await decideKyc(c, "APPROVED");
      const read = (await readProfile(c)).body;
      assert.ok(read.status === "BLOCKED" || read.status === "MONITORED", `${read.status} for entry ${listed.entryId}`);
      for (const key of EVIDENCE_KEYS) assertNoKeyDeep(read, key);
    });
  }
});

// The reproductions that changed the name policy: OFAC SDN 1572 "NORIEGA, Manuel Antonio" with a zero-width space, a soft
// hyphen, and a Cyrillic "о" in the surname.
const EVASIONS = { zeroWidthSpace: "Nori\u200bega", softHyphen: "Nor\u00adiega", cyrillicO: "N\u043eriega" };

describe("one name policy (issue 19)", () => {
  let c: Customer;
  test("setup: a VALID customer", async () => {
    c = await validCustomer();
  });
  for (const [evasion, lastName] of Object.entries(EVASIONS)) {
    test(`beneficiary: ${evasion} in the last name → 400 validation.fieldFormatInvalid on lastName`, async () => {
      const body = {
        firstName: "Manuel Antonio",
        lastName,
        dateOfBirth: "1934-02-11",
        nationality: "MEX",
        countryOfResidence: "MEX",
        relationshipToCustomer: "FAMILY",
      };
      assertIssue(await createBeneficiary(c, body), "lastName", "validation.fieldFormatInvalid");
    });
    test(`profile: ${evasion} in the last name → 400 validation.fieldFormatInvalid on lastName`, async () => {
      const fresh = await newCustomer();
      assertIssue(await submitProfile(fresh, usaProfile({ firstName: "Manuel Antonio", lastName })), "lastName", "validation.fieldFormatInvalid");
    });
  }
  test("a name typed with a combining accent is stored NFC (the precomposed letter)", async () => {
    const res = await createBeneficiary(c, mexBeneficiary({ firstName: "Jose\u0301" }));
    assert.equal(res.status, 202, res.text);
    assert.equal((await readBeneficiary(c, res.body.beneficiaryId)).body.firstName, "Jos\u00e9");
  });
  test("a beneficiary named as a UN-listed individual (Eric Badege, born 1971) is not VALID", async () => {
    const b = await screenedBeneficiary(c, {
      firstName: "Eric",
      lastName: "Badege",
      dateOfBirth: "1971-03-10",
      countryOfResidence: "MEX",
      relationshipToCustomer: "FAMILY",
    });
    assert.ok(b.state === "BLOCKED" || b.state === "MONITORED", b.state);
    for (const key of EVIDENCE_KEYS) assertNoKeyDeep(b, key);
  });
});

// "No variant in the labelled set that the API accepts ever becomes VALID", shown through
// the API: the first variant of each (list, kind) pair of test/fixtures/screening/labelled-set.json
// (every list and every kind of variation, ~22 beneficiaries; the matcher-level test covers all 345).
interface LabelledVariant {
  kind: string;
  firstName: string;
  lastName: string;
}
const labelled = JSON.parse(readFileSync(path.join(process.cwd(), "test", "fixtures", "screening", "labelled-set.json"), "utf8")) as {
  listed: { list: string; entryId: string; dateOfBirth: string | null; variants: LabelledVariant[] }[];
};
const labelledSample = [
  ...new Map(
    labelled.listed
      .flatMap((e) => e.variants.map((v) => [`${e.list}/${v.kind}`, { list: e.list, entryId: e.entryId, dateOfBirth: e.dateOfBirth, ...v }] as const))
      .reverse(),
  ).values(),
].reverse();

describe("labelled set through the API (issue 19)", () => {
  test("each sampled variant the API accepts ends not VALID; the refused ones are 400 validation.*", async () => {
    assert.equal(new Set(labelledSample.map((s) => s.list)).size, 3);
    const c = await validCustomer();
    // Created first, then awaited: screening jobs run while the others are being created.
    const created: { label: string; id: string }[] = [];
    const refused: string[] = [];
    for (const s of labelledSample) {
      const label = `${s.list} ${s.entryId} ${s.kind} "${s.firstName} ${s.lastName}"`;
      const res = await createBeneficiary(c, {
        firstName: s.firstName,
        lastName: s.lastName,
        ...(s.dateOfBirth ? { dateOfBirth: s.dateOfBirth } : {}),
        countryOfResidence: "MEX",
        relationshipToCustomer: "FAMILY",
      });
      if (res.status === 400) {
        assert.match(assertError(res, 400, res.body.error?.code).code, /^validation\./, label);
        refused.push(label);
      } else {
        assert.equal(res.status, 202, `${label}: ${res.text}`);
        created.push({ label, id: res.body.beneficiaryId });
      }
    }
    for (const { label, id } of created) {
      const b = await awaitScreened(c, id);
      assert.ok(b.state === "BLOCKED" || b.state === "MONITORED", `${b.state} for ${label}`);
      for (const key of EVIDENCE_KEYS) assertNoKeyDeep(b, key);
    }
    // Measured when written: 22 sampled, 0 refused (every variant of the set is a name the API accepts).
    console.log(`labelled set via the API: ${labelledSample.length} sampled, ${created.length} accepted, ${refused.length} refused ${JSON.stringify(refused)}`);
    assert.ok(created.length >= labelledSample.length / 2, `most variants are names the API accepts: ${JSON.stringify(refused)}`);
  });
});
