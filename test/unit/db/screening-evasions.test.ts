/**
 * The evader's examples (docs/decisions.md, "Screening that holds against an evader"), one row per example, through the real paths on the database (PGlite, and
 * PostgreSQL with TEST_DB_URL): the shipped lists loaded as a fresh database loads them (the
 * refresh job), then a beneficiary created (createBeneficiary, its screening job) and a profile
 * submitted (submitProfile, its screening job, then KYC approved where the customer is still
 * PENDING, since approval is where a remembered close match takes effect). An evader's edit of a listed name with the person's listed date of birth must end not
 * VALID (BLOCKED, or MONITORED with an open screening case); the exact name with a self-declared
 * other date of birth must be a case for a human (MONITORED with an open case, or for a profile
 * before KYC a CLOSE_MATCH with an open case: not cleared, not blocked); an ordinary name without a date of birth must never be BLOCKED without a case.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customers, partners, sanctionsEntries, screeningCases, subscriptions } from "@/db/schema";
import { createBeneficiary } from "@/lib/payments/beneficiaries/manage";
import { clock } from "@/lib/platform/clock";
import { submitProfile } from "@/lib/identity/customers/profile";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { completeKycSession, lockKycSession } from "@/lib/identity/kyc/outcome";
import { createKycSession } from "@/lib/identity/kyc/sessions";
import { currentVersion } from "@/lib/compliance/screening/list-store";
import { freshDb } from "../../support/db";
import { newSubscription, type Owner } from "../../support/fixtures";

/** What the example must end as. */
type Expect =
  /** Not VALID: BLOCKED, or MONITORED with an open case. */
  | "stopped"
  /** A case for a human: MONITORED with an open case (not cleared, not blocked). */
  | "case"
  /** Anything but BLOCKED without a case (an ordinary name that resembles a listed one). */
  | "noSilentBlock";

interface Example {
  example: string;
  /** The listed person it is an edit of. */
  list: string;
  entryId: string;
  firstName: string;
  /** A profile's middle field (a beneficiary has none: the names go first, as on the list). */
  middleNames?: string[];
  lastName: string;
  /** The date of birth given: the listed one, unless `otherDateOfBirth`. */
  dateOfBirth: string | null;
  /** True when dateOfBirth is not the listed one (self-declared). */
  otherDateOfBirth?: boolean;
  /** The listed nationality, or one the person may declare; null: none given (a beneficiary). */
  nationality: string | null;
  expect: Expect;
}

// Entries of data/sanctions (OFAC SDN unless named): GUZMAN LOERA, Joaquin (6861, DOB 25 Dec 1954);
// MADURO MOROS, Nicolas (22790, 23 Nov 1962, Venezuela); CARO QUINTERO, Rafael (6707, 12 Dec 1952);
// MARTELLY, Michel Joseph (OFAC consolidated 50476, 12 Feb 1961, Haiti); HANIYEH, Ismail (23627,
// 1962); HANIYA, Ismail Abdul Salah (OFAC consolidated 9639, 1962); PRIGOZHIN, Yevgeniy Viktorovich
// (21171, 01 Jun 1961); ROTENBERG, Arkady (16669, 15 Dec 1951); ROTENBERG, Boris (16671, 03 Jan
// 1957); AL-RAYS, Hassan (21947, 03 Nov 1963, Syria); UTHMAN, Omar Mahmoud (6950, 30 Dec 1960,
// Jordan); USMAN, Bachrumsyah Mennor (21385, 23 Jul 1984, Indonesia); OMAIRI, Farouk (10048).
const GUZMAN = { list: "ofac-sdn", entryId: "6861", dateOfBirth: "1954-12-25", nationality: "MEX" };
const MADURO = { list: "ofac-sdn", entryId: "22790", dateOfBirth: "1962-11-23", nationality: "VEN" };
const CARO = { list: "ofac-sdn", entryId: "6707", dateOfBirth: "1952-12-12", nationality: "MEX" };
const MARTELLY = { list: "ofac-consolidated", entryId: "50476", dateOfBirth: "1961-02-12", nationality: "HTI" };
const HANIYEH = { list: "ofac-sdn", entryId: "23627", dateOfBirth: "1962-06-15", nationality: "PSE" };
const HANIYA = { list: "ofac-consolidated", entryId: "9639", dateOfBirth: "1962-06-15", nationality: "PSE" };
const PRIGOZHIN = { list: "ofac-sdn", entryId: "21171", dateOfBirth: "1961-06-01", nationality: "RUS" };
const ARKADY = { list: "ofac-sdn", entryId: "16669", dateOfBirth: "1951-12-15", nationality: "RUS" };
const BORIS = { list: "ofac-sdn", entryId: "16671", dateOfBirth: "1957-01-03", nationality: "RUS" };
const AL_RAYS = { list: "ofac-sdn", entryId: "21947", dateOfBirth: "1963-11-03", nationality: "SYR" };
const UTHMAN = { list: "ofac-sdn", entryId: "6950", dateOfBirth: "1960-12-30", nationality: "JOR" };
const USMAN = { list: "ofac-sdn", entryId: "21385", dateOfBirth: "1984-07-23", nationality: "IDN" };

const EXAMPLES: Example[] = [
  { example: "a period inside a surname word", ...GUZMAN, firstName: "Joaquin", lastName: "Guz.man Loera", expect: "stopped" },
  { example: "a space inside a surname word", ...MADURO, firstName: "Nicolas", lastName: "Mad uro Moros", expect: "stopped" },
  { example: "surname words joined", ...CARO, firstName: "Rafael", lastName: "CaroQuintero", expect: "stopped" },
  { example: "surname words joined", ...GUZMAN, firstName: "Joaquin", lastName: "GuzmanLoera", expect: "stopped" },
  { example: "General in front", ...MADURO, firstName: "General Nicolas", lastName: "Maduro Moros", expect: "stopped" },
  { example: "Comandante in front", ...CARO, firstName: "Comandante Rafael", lastName: "Caro Quintero", expect: "stopped" },
  { example: "Presidente in front", ...MARTELLY, firstName: "Presidente Michel Joseph", lastName: "Martelly", expect: "stopped" },
  { example: "Haji in front", ...HANIYEH, firstName: "Haji Ismail", lastName: "Haniyeh", expect: "stopped" },
  { example: "Professor in front", ...PRIGOZHIN, firstName: "Professor Yevgeniy Viktorovich", lastName: "Prigozhin", expect: "stopped" },
  { example: "Licenciado in front", ...GUZMAN, firstName: "Licenciado Joaquin", lastName: "Guzman Loera", expect: "stopped" },
  { example: "Chef in front", ...ARKADY, firstName: "Chef Arkady", lastName: "Rotenberg", expect: "stopped" },
  { example: "Mister in front", ...BORIS, firstName: "Mister Boris", lastName: "Rotenberg", expect: "stopped" },
  // Joaquín Archivaldo Guzmán Loera: his real middle name, which the list does not carry.
  {
    example: "an extra real middle name",
    ...GUZMAN,
    firstName: "Joaquin Archivaldo",
    middleNames: ["Archivaldo"],
    lastName: "Guzman Loera",
    expect: "stopped",
  },
  { example: "Hasan for Hassan", ...AL_RAYS, firstName: "Hasan", lastName: "Al-Rays", expect: "stopped" },
  { example: "Prigojine (French transliteration)", ...PRIGOZHIN, firstName: "Yevgeniy Viktorovich", lastName: "Prigojine", expect: "stopped" },
  { example: "Haniyeh for HANIYA", ...HANIYA, firstName: "Ismail Abdul Salah", lastName: "Haniyeh", expect: "stopped" },
  { example: "Othman for UTHMAN", ...UTHMAN, firstName: "Omar Mahmoud", lastName: "Othman", expect: "stopped" },
  { example: "Othman for USMAN", ...USMAN, firstName: "Bachrumsyah Mennor", lastName: "Othman", expect: "stopped" },
  { example: "a dropped letter", ...ARKADY, firstName: "Arkady", lastName: "Rotenbrg", expect: "stopped" },
  { example: "ŀ for l (Marteŀly)", ...MARTELLY, firstName: "Michel Joseph", lastName: "Marte\u0140ly", expect: "stopped" },
  { example: "ƅ for b (Rotenƅerg)", ...ARKADY, firstName: "Arkady", lastName: "Roten\u0185erg", expect: "stopped" },
  { example: "the first given name only", ...PRIGOZHIN, firstName: "Yevgeniy", lastName: "Prigozhin", expect: "stopped" },
  { example: "the first given name only", ...MARTELLY, firstName: "Michel", lastName: "Martelly", expect: "stopped" },
  {
    example: "the exact name, a self-declared other date of birth",
    ...GUZMAN,
    dateOfBirth: "1980-03-03",
    otherDateOfBirth: true,
    firstName: "Joaquin",
    lastName: "Guzman Loera",
    expect: "case",
  },
  {
    example: "the exact name, a self-declared other date of birth",
    ...MADURO,
    dateOfBirth: "1975-05-05",
    otherDateOfBirth: true,
    firstName: "Nicolas",
    lastName: "Maduro Moros",
    expect: "case",
  },
  // An ordinary name on OMAIRI, Farouk: no date of birth or nationality on a beneficiary (a profile
  // always has them: its own).
  {
    example: "Omar Farouk, an ordinary name",
    list: "ofac-sdn",
    entryId: "10048",
    dateOfBirth: null,
    otherDateOfBirth: true,
    nationality: null,
    firstName: "Omar",
    lastName: "Farouk",
    expect: "noSilentBlock",
  },
];

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  process.env.SCREENING_DELAY_MS = "0"; // the test drives the job queue itself
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
  await drain(); // a fresh database loads the three shipped lists (the refresh job)
});
after(() => close());

/**
 * Runs the due jobs, bar webhook deliveries: on PostgreSQL the database tests share one database,
 * and a list version's rescreen emits events to other files' endpoints (test/unit/db/screening-cases.test.ts).
 */
async function drain() {
  for (let i = 0; i < 200; i++) if ((await runDueJobs(db, jobRegistry, 20, undefined, { notKinds: ["webhooks.deliver"] })) === 0) return;
  throw new Error("jobs kept running");
}

const openCases = async (subjectType: "customer" | "beneficiary", subjectId: string) =>
  (
    await db
      .select({ id: screeningCases.id })
      .from(screeningCases)
      .where(and(eq(screeningCases.subjectType, subjectType), eq(screeningCases.subjectId, subjectId), eq(screeningCases.state, "OPEN")))
  ).length;

function verdict(expect: Expect, state: string, cases: number): string | null {
  if (expect === "stopped")
    return state === "BLOCKED" || (state === "MONITORED" && cases > 0)
      ? null
      : `${state} with ${cases} open case(s): should be BLOCKED, or MONITORED with a case`;
  if (expect === "case")
    return state === "MONITORED" && cases > 0 ? null : `${state} with ${cases} open case(s): should be MONITORED with a case (neither cleared nor blocked)`;
  return state === "BLOCKED" && cases === 0 ? "BLOCKED with no case: a name-only match is a case for a human, never a silent block" : null;
}

const label = (e: Example) =>
  `${e.example}: "${e.firstName}${e.middleNames ? ` (${e.middleNames.join(" ")})` : ""} / ${e.lastName}", ${e.dateOfBirth ?? "no date of birth"} (${e.list} ${e.entryId})`;

test("every example is an edit of a real list entry, given with its published date of birth (unless self-declared)", async () => {
  for (const e of EXAMPLES) {
    const version = await currentVersion(db, e.list);
    assert.ok(version, `${e.list} loaded`);
    const [entry] = await db
      .select({ name: sanctionsEntries.name, datesOfBirth: sanctionsEntries.datesOfBirth, kind: sanctionsEntries.kind })
      .from(sanctionsEntries)
      .where(and(eq(sanctionsEntries.versionId, version.id), eq(sanctionsEntries.entryId, e.entryId)));
    assert.equal(entry?.kind, "individual", label(e));
    if (!e.otherDateOfBirth)
      assert.ok(
        entry.datesOfBirth.some((d) => e.dateOfBirth!.startsWith(d)),
        `${label(e)}: listed ${entry.datesOfBirth.join(", ")}`,
      );
  }
});

describe("beneficiaries: created, then screened by their job", () => {
  for (const e of EXAMPLES) {
    test(label(e), async () => {
      const { beneficiaryId } = await db.transaction((tx) =>
        createBeneficiary(tx, {
          subscriptionId: owner.subscriptionId,
          beneficiary: {
            // A beneficiary has one field for given names: a profile's middle names go there.
            firstName: e.firstName,
            lastName: e.lastName,
            ...(e.dateOfBirth ? { dateOfBirth: e.dateOfBirth } : {}),
            ...(e.nationality ? { nationality: e.nationality } : {}),
            countryOfResidence: "MEX",
            relationshipToCustomer: "FAMILY",
          },
          now: clock.now(),
        }),
      );
      await drain();
      const [row] = await db.select({ state: beneficiaries.state }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId));
      assert.equal(verdict(e.expect, row.state, await openCases("beneficiary", beneficiaryId)), null, label(e));
    });
  }
});

// Profiles refuse sanctioned nationalities (SANCTIONED_NATIONALITIES): the evader declares another.
const PROFILE_REFUSED_NATIONALITIES = new Set(["CUB", "IRN", "PRK", "SYR"]);

describe("profiles: submitted, screened by their job, then KYC approved where still PENDING", () => {
  for (const e of EXAMPLES) {
    // The middle field holds the middle name; the first name field only the first.
    const firstName = e.middleNames
      ? e.firstName
          .split(" ")
          .filter((w) => !e.middleNames!.includes(w))
          .join(" ")
      : e.firstName;
    const profileExample = { ...e, firstName, dateOfBirth: e.dateOfBirth ?? "1990-05-05" };
    test(label(profileExample), async () => {
      const now = clock.now();
      const partnerId = newId("partner_test");
      const customerId = newId("cus");
      const subscriptionId = newId("sub");
      await db.insert(partners).values({ id: partnerId, name: `Test ${partnerId}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
      await db.insert(customers).values({ id: customerId, status: "PENDING", kycStatus: "NOT_STARTED", createdAt: now, updatedAt: now });
      await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
      await db.transaction((tx) =>
        submitProfile(tx, {
          customerId,
          profile: {
            firstName,
            ...(e.middleNames ? { middleNames: e.middleNames } : {}),
            lastName: e.lastName,
            dateOfBirth: profileExample.dateOfBirth,
            nationality: e.nationality === null ? "USA" : PROFILE_REFUSED_NATIONALITIES.has(e.nationality) ? "TUR" : e.nationality,
            residenceCountry: "USA",
            residenceAddress: { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
          },
          now,
        }),
      );
      await drain();
      const read = async () => (await db.select().from(customers).where(eq(customers.id, customerId)))[0];
      if (e.expect === "case") {
        // Before a verified identity document the date of birth is the customer's word: a case at submission.
        const { status, screeningResult } = await read();
        const cases = await openCases("customer", customerId);
        assert.ok(
          screeningResult === "CLOSE_MATCH" && status !== "BLOCKED" && cases > 0,
          `${label(profileExample)}: ${status}, ${screeningResult}, ${cases} open case(s)`,
        );
        return;
      }
      if ((await read()).status === "PENDING") {
        // KYC approval: the identity document is verified; a remembered close match makes the customer MONITORED.
        const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId));
        await db.transaction(async (tx) => {
          const { kycSessionId } = await createKycSession(tx, { customerId, subscriptionId, partner, language: "en", now: clock.now() });
          await completeKycSession(tx, { session: (await lockKycSession(tx, kycSessionId))!, outcome: "APPROVED", now: clock.now() });
        });
        await drain();
      }
      assert.equal(verdict(e.expect, (await read()).status, await openCases("customer", customerId)), null, label(profileExample));
    });
  }
});
