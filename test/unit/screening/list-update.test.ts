/**
 * List versions in the database: the three shipped lists load once into a fresh database, an
 * import is idempotent, and an update of any list that adds a name rescreens existing subjects
 * through their state machines, with events and stored evidence.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";

import {
  beneficiaries,
  customers,
  events,
  jobs,
  partners,
  sanctionsAliases,
  sanctionsEntries,
  sanctionsListVersions,
  screeningCases,
  screeningResults,
  subscriptions,
} from "@/db/schema";
import { createBeneficiary } from "@/lib/payments/beneficiaries/manage";
import { clock } from "@/lib/platform/clock";
import { enqueue } from "@/lib/platform/jobs/queue";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { importPublication, shippedSources } from "@/lib/compliance/screening/list-store";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  // Screen at once: the test drives the job queue itself.
  process.env.SCREENING_DELAY_MS = "0";
  ({ db, close } = await freshDb());
});
after(() => close());

async function drain() {
  for (let i = 0; i < 100; i++) if ((await runDueJobs(db, jobRegistry)) === 0) return;
  throw new Error("jobs kept running");
}

const count = async (table: typeof sanctionsEntries | typeof sanctionsAliases, versionId: string) =>
  Number(
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(table)
        .where(eq(table.versionId, versionId))
    )[0].n,
  );

/** The shipped files with one more listed individual (as OFAC appends a designation). */
function listWithNewName(): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "sdn-update-"));
  return shippedSources("ofac-sdn").map((source) => {
    let bytes = readFileSync(source);
    if (source.endsWith("sdn.csv")) {
      const row = `99999001,"ZZTESTOVA, Miroslava","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 12 Mar 1971; nationality Russia."\r\n`;
      // Before the Ctrl-Z end-of-file byte, as OFAC publishes.
      bytes = Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from(row, "latin1"), bytes.subarray(bytes.length - 1)]);
    }
    const target = path.join(dir, path.basename(source));
    writeFileSync(target, bytes);
    return target;
  });
}

async function subscription(): Promise<{ subscriptionId: string; customerId: string }> {
  const now = clock.now();
  const partnerId = newId("partner_test");
  const customerId = newId("cus");
  const subscriptionId = newId("sub");
  await db.insert(partners).values({ id: partnerId, name: "Screening test", createdAt: now, updatedAt: now });
  const profile = { firstName: "Miroslava", lastName: "Zztestova", dateOfBirth: "1971-03-12", nationality: "RUS" };
  await db
    .insert(customers)
    .values({ id: customerId, status: "VALID", kycStatus: "COMPLETED", profile, screeningResult: "CLEAR", createdAt: now, updatedAt: now });
  await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
  return { subscriptionId, customerId };
}

test("a fresh database loads the three shipped lists once, each its own version (and, in sandbox, the PEP fixture)", async () => {
  await drain();
  const versions = await db.select().from(sanctionsListVersions);
  const byList = Object.fromEntries(versions.map((v) => [v.list, v]));
  assert.deepEqual(Object.keys(byList).sort(), ["ofac-consolidated", "ofac-sdn", "opensanctions-peps", "un-consolidated"]);
  assert.equal(versions.length, 4);
  const sdn = byList["ofac-sdn"];
  assert.equal(sdn.entryCount, 8976);
  assert.equal(sdn.aliasCount, 11910);
  assert.equal(await count(sanctionsEntries, sdn.id), 8976);
  assert.equal(await count(sanctionsAliases, sdn.id), 11910);
  assert.equal(byList["ofac-consolidated"].entryCount, 442);
  assert.equal(byList["un-consolidated"].entryCount, 730 + 273);
  const [badege] = await db
    .select()
    .from(sanctionsEntries)
    .where(and(eq(sanctionsEntries.versionId, byList["un-consolidated"].id), eq(sanctionsEntries.entryId, "6907993")));
  assert.equal(badege.reference, "CDi.001");
  const lowAliases = await db
    .select({ n: sql<number>`count(*)` })
    .from(sanctionsAliases)
    .where(and(eq(sanctionsAliases.versionId, byList["un-consolidated"].id), eq(sanctionsAliases.quality, "low")));
  assert.equal(Number(lowAliases[0].n), 615 + 378, "UN Low aliases and original-script names are stored as exact-only");
  for (const list of ["ofac-sdn", "ofac-consolidated", "un-consolidated"]) {
    const again = await importPublication(db, shippedSources(list), clock.now());
    assert.equal(again.created, false, `${list}: the same files are the same version`);
    assert.equal(again.versionId, byList[list].id);
  }
});

test("a list update that adds a name moves an existing VALID beneficiary and customer of that name", async () => {
  await drain();
  const { subscriptionId, customerId } = await subscription();
  const listed = await db.transaction((tx) =>
    createBeneficiary(tx, {
      subscriptionId,
      beneficiary: { firstName: "Miroslava", lastName: "Zztestova", dateOfBirth: "1971-03-12", countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
      now: clock.now(),
    }),
  );
  // The same name without a date of birth: a case for a human, not a silent block.
  const nameOnly = await db.transaction((tx) =>
    createBeneficiary(tx, {
      subscriptionId,
      beneficiary: { firstName: "Miroslava", lastName: "Zztestova", countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
      now: clock.now(),
    }),
  );
  const other = await db.transaction((tx) =>
    createBeneficiary(tx, {
      subscriptionId,
      beneficiary: { firstName: "Emma", lastName: "Johnson", countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
      now: clock.now(),
    }),
  );
  await drain();
  const stateOf = async (id: string) => (await db.select().from(beneficiaries).where(eq(beneficiaries.id, id)))[0].state;
  assert.equal(await stateOf(listed.beneficiaryId), "VALID", "not listed yet");

  const report = await importPublication(db, listWithNewName(), clock.now());
  assert.equal(report.created, true);
  assert.equal(report.entryCount, 8977);
  await drain();

  assert.equal(await stateOf(listed.beneficiaryId), "BLOCKED");
  assert.equal(await stateOf(nameOnly.beneficiaryId), "MONITORED");
  const [nameOnlyCase] = await db.select().from(screeningCases).where(eq(screeningCases.subjectId, nameOnly.beneficiaryId));
  assert.equal(nameOnlyCase.state, "OPEN");
  assert.equal(await stateOf(other.beneficiaryId), "VALID");
  const changes = await db
    .select()
    .from(events)
    .where(and(eq(events.subscriptionId, subscriptionId), eq(events.eventType, "beneficiary.state.changed")));
  const data = changes.map((e) => (e.body as { data: { beneficiaryId: string; state: string; previousState: string } }).data);
  assert.deepEqual(
    data.filter((d) => d.beneficiaryId === listed.beneficiaryId).map((d) => [d.previousState, d.state]),
    [
      ["PENDING", "VALID"],
      ["VALID", "BLOCKED"],
    ],
  );
  const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
  assert.equal(customer.status, "BLOCKED");
  assert.equal(customer.screeningResult, "HIT");
  const customerEvents = await db
    .select()
    .from(events)
    .where(and(eq(events.subscriptionId, subscriptionId), eq(events.eventType, "customer.status.changed")));
  assert.equal(customerEvents.length, 1);

  // The evidence is stored with the subject: list, entry, matched name, program, score, fields.
  const [latest] = await db
    .select()
    .from(screeningResults)
    .where(and(eq(screeningResults.subjectType, "beneficiary"), eq(screeningResults.subjectId, listed.beneficiaryId)))
    .orderBy(sql`${screeningResults.createdAt} desc`)
    .limit(1);
  assert.equal(latest.result, "HIT");
  const [evidence] = latest.evidence;
  assert.equal(evidence.list, "ofac-sdn");
  assert.equal(evidence.listVersionId, report.versionId);
  assert.equal(evidence.entryId, "99999001");
  assert.equal(evidence.matchedName, "ZZTESTOVA, Miroslava");
  assert.deepEqual(evidence.programs, ["SDGT"]);
  assert.ok(Number(evidence.score) >= 0.93);
  assert.deepEqual(evidence.agreed, ["firstName", "lastName", "dateOfBirth"]);
  const [customerEvidence] = (
    await db
      .select()
      .from(screeningResults)
      .where(and(eq(screeningResults.subjectType, "customer"), eq(screeningResults.subjectId, customerId)))
  ).flatMap((r) => r.evidence);
  assert.deepEqual(customerEvidence.agreed, ["firstName", "lastName", "dateOfBirth", "nationality"]);

  // Importing the same update again changes nothing.
  assert.equal((await importPublication(db, listWithNewName(), clock.now())).created, false);
});

/** The shipped UN list with one more individual (as the Security Council adds a designation). */
function unListWithNewName(): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "un-update-"));
  const [source] = shippedSources("un-consolidated");
  const individual = `<INDIVIDUAL><DATAID>99999002</DATAID><VERSIONNUM>1</VERSIONNUM><FIRST_NAME>OKSANA</FIRST_NAME><SECOND_NAME>ZZTESTENKO</SECOND_NAME><UN_LIST_TYPE>DRC</UN_LIST_TYPE><REFERENCE_NUMBER>CDi.999</REFERENCE_NUMBER><LISTED_ON>2026-11-01</LISTED_ON><INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><YEAR>1980</YEAR></INDIVIDUAL_DATE_OF_BIRTH></INDIVIDUAL>`;
  const xml = readFileSync(source, "utf8").replace("<INDIVIDUALS>", `<INDIVIDUALS>${individual}`);
  const target = path.join(dir, "consolidated.xml");
  writeFileSync(target, xml);
  return [target];
}

test("a new version of the UN list rescreens too: a VALID beneficiary named as the newly listed individual, born in the listed year, is MONITORED with a case (a year is not the day: no silent block), evidence names list, reference and regime", async () => {
  await drain();
  const { subscriptionId } = await subscription();
  const listed = await db.transaction((tx) =>
    createBeneficiary(tx, {
      subscriptionId,
      beneficiary: { firstName: "Oksana", lastName: "Zztestenko", dateOfBirth: "1980-04-02", countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
      now: clock.now(),
    }),
  );
  await drain();
  const stateOf = async (id: string) => (await db.select().from(beneficiaries).where(eq(beneficiaries.id, id)))[0].state;
  assert.equal(await stateOf(listed.beneficiaryId), "VALID", "not listed yet");
  const report = await importPublication(db, unListWithNewName(), clock.now());
  assert.equal(report.created, true);
  assert.deepEqual(report.kinds, { individual: 731, entity: 273 });
  await drain();
  assert.equal(await stateOf(listed.beneficiaryId), "MONITORED");
  const [raised] = await db.select().from(screeningCases).where(eq(screeningCases.subjectId, listed.beneficiaryId));
  assert.equal(raised.state, "OPEN");
  const [latest] = await db
    .select()
    .from(screeningResults)
    .where(and(eq(screeningResults.subjectType, "beneficiary"), eq(screeningResults.subjectId, listed.beneficiaryId)))
    .orderBy(sql`${screeningResults.createdAt} desc`)
    .limit(1);
  const [evidence] = latest.evidence;
  assert.equal(evidence.list, "un-consolidated");
  assert.equal(evidence.listName, "UN Security Council Consolidated List");
  assert.equal(evidence.entryId, "99999002");
  assert.equal(evidence.reference, "CDi.999");
  assert.deepEqual(evidence.programs, ["DRC"]);
  assert.deepEqual(evidence.agreed, ["firstName", "lastName", "dateOfBirth"]);
  // Every list's version screened against (and, in sandbox, the magic names).
  for (const list of ["ofac-consolidated", "ofac-sdn", "un-consolidated"]) assert.ok(latest.listVersions[list], list);
});

test("rows stored before the matching form of issue 19 are rescreened once with it (the migration's jobs)", async () => {
  await drain();
  // The migration enqueued the one rescreen of each subject type (done by now: a fresh database).
  const formJobs = await db
    .select({ kind: jobs.kind, state: jobs.state })
    .from(jobs)
    .where(sql`${jobs.dedupeKey} like 'sanctions.rescreen:matching-form-2:%'`);
  assert.deepEqual(
    formJobs.map((j) => j.kind),
    ["sanctions.rescreen", "sanctions.rescreen"],
  );
  // A beneficiary stored VALID under the old form with a zero-width space inside a listed surname
  // (the reproduction that changed the name policy), as the old API accepted it.
  const { subscriptionId } = await subscription();
  const stored = await db.transaction((tx) =>
    createBeneficiary(tx, {
      subscriptionId,
      beneficiary: { firstName: "Emma", lastName: "Thompson", countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
      now: clock.now(),
    }),
  );
  await drain();
  await db.update(beneficiaries).set({ firstName: "Manuel Antonio", lastName: "Nori\u200bega" }).where(eq(beneficiaries.id, stored.beneficiaryId));
  await enqueue(
    db,
    "sanctions.rescreen",
    { listVersionId: "matching-form-2", subjectType: "beneficiary", afterId: null },
    { runAt: clock.now(), dedupeKey: "sanctions.rescreen:matching-form-2:beneficiary:start" },
  );
  await drain();
  // NORIEGA's entry publishes no date of birth: the name is a case for a human.
  const [row] = await db.select().from(beneficiaries).where(eq(beneficiaries.id, stored.beneficiaryId));
  assert.equal(row.state, "MONITORED");
});
