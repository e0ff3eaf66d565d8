/**
 * List versions in the database: the shipped list loads once into a fresh database, an import is
 * idempotent, and a list update that adds a name rescreens existing subjects through their state
 * machines, with events and stored evidence (issue 11).
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
  partners,
  sanctionsAliases,
  sanctionsEntries,
  sanctionsListVersions,
  screeningResults,
  subscriptions,
} from "@/db/schema";
import { createBeneficiary } from "@/lib/beneficiaries/manage";
import { clock } from "@/lib/clock";
import { jobRegistry } from "@/lib/jobs/registry";
import { runDueJobs } from "@/lib/jobs/worker";
import { importPublication, shippedSources } from "@/lib/screening/list-store";
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
  return shippedSources().map((source) => {
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

test("a fresh database loads the shipped list once: 8,976 entries, 11,910 aliases", async () => {
  await drain();
  const versions = await db.select().from(sanctionsListVersions);
  assert.equal(versions.length, 1);
  assert.equal(versions[0].list, "ofac-sdn");
  assert.equal(versions[0].entryCount, 8976);
  assert.equal(versions[0].aliasCount, 11910);
  assert.equal(await count(sanctionsEntries, versions[0].id), 8976);
  assert.equal(await count(sanctionsAliases, versions[0].id), 11910);
  const again = await importPublication(db, shippedSources(), clock.now());
  assert.equal(again.created, false, "the same files are the same version");
  assert.equal(again.versionId, versions[0].id);
});

test("a list update that adds a name moves an existing VALID beneficiary and customer of that name", async () => {
  await drain();
  const { subscriptionId, customerId } = await subscription();
  const listed = await db.transaction((tx) =>
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
  assert.deepEqual(evidence.agreed, ["firstName", "lastName"]);
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
