/**
 * PEP screening on the database (PGlite, or PostgreSQL with TEST_DB_URL), driving the jobs and
 * commands directly: the OpenSanctions "targets.simple.csv" layout imported (the shipped fixture of
 * made-up people, and a new publication); a profile submitted under a listed name flags the
 * customer PEP and opens a case, with no status change and no event; the customer's transfer waits
 * in review until their ENHANCED KYC and an admin's approval; a new list version rescreens the
 * customers; an entry an analyst cleared is not raised again.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { auditLog, complianceAlerts, complianceCases, customers, events, partners, screeningResults, subscriptions, transfers } from "@/db/schema";
import { freshDb } from "../../support/db";
import { newSubscription, submittedTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  process.env.SCREENING_DELAY_MS = "0"; // the test drives the job queue itself
  ({ db, close } = await freshDb());
  await drain(); // the shipped lists, the PEP fixture among them, load into the fresh database
});
after(() => close());

const reviewer = { id: "op_pep_reviewer", email: "pep-reviewer@example.com", name: "Ria Reviewer", role: "reviewer" as const };
const admin = { id: "op_pep_admin", email: "pep-admin@example.com", name: "Ada Admin", role: "admin" as const };

/** The due jobs, bar webhook deliveries (on PostgreSQL the database is shared with other files' subscriptions). */
async function drain() {
  const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
  const { runDueJobs } = await import("@/lib/platform/jobs/worker");
  for (let i = 0; i < 200; i++) if ((await runDueJobs(db, jobRegistry, 20, undefined, { notKinds: ["webhooks.deliver"] })) === 0) return;
  throw new Error("jobs kept running");
}

const fixture = () => path.join(process.cwd(), "data", "pep", "opensanctions-peps", "targets.simple.csv");

/** The fixture with these rows appended, as a new publication of the PEP list. */
function publicationWith(...rows: string[]): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "peps-"));
  const target = path.join(dir, "targets.simple.csv");
  writeFileSync(target, readFileSync(fixture(), "utf8") + rows.map((r) => `${r}\n`).join(""));
  return [target];
}

/** A customer (PENDING, no profile) of a new partner, whose profile is then submitted as the API does. */
async function submitted(firstName: string, lastName: string, dateOfBirth: string): Promise<Owner> {
  const { clock } = await import("@/lib/platform/clock");
  const { submitProfile } = await import("@/lib/identity/customers/profile");
  const now = clock.now();
  const owner = { partnerId: newId("partner_test"), customerId: newId("cus"), subscriptionId: newId("sub") };
  await db
    .insert(partners)
    .values({ id: owner.partnerId, name: `Test ${owner.partnerId}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
  await db.insert(customers).values({ id: owner.customerId, status: "PENDING", kycStatus: "NOT_STARTED", createdAt: now, updatedAt: now });
  await db.insert(subscriptions).values({ id: owner.subscriptionId, partnerId: owner.partnerId, customerId: owner.customerId, createdAt: now, updatedAt: now });
  await db.transaction((tx) =>
    submitProfile(tx, {
      customerId: owner.customerId,
      profile: {
        firstName,
        lastName,
        dateOfBirth,
        nationality: "GBR",
        residenceCountry: "USA",
        residenceAddress: { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
      },
      now,
    }),
  );
  await drain();
  return owner;
}

/** A VALID customer (KYC completed) with this profile: the fixtures' customer, the profile written in. */
async function validCustomer(firstName: string, lastName: string, dateOfBirth: string): Promise<Owner> {
  const owner = await newSubscription(db);
  await db
    .update(customers)
    .set({ profile: { firstName, lastName, dateOfBirth, nationality: "USA", residenceCountry: "USA" } })
    .where(eq(customers.id, owner.customerId));
  return owner;
}

async function screenPep(customerId: string, listVersionId?: string) {
  const { clock } = await import("@/lib/platform/clock");
  const { screenCustomerPep } = await import("@/lib/compliance/screening/customer-pep-screen-job");
  await db.transaction((tx) => screenCustomerPep.run!(tx, { payload: { customerId, listVersionId }, now: clock.now() } as never));
}

async function fastCheck(transferId: string): Promise<string> {
  const { clock } = await import("@/lib/platform/clock");
  const { fastCheck } = await import("@/lib/compliance/fast-check/fast-check-job");
  await db.transaction((tx) => fastCheck.run!(tx, { payload: { transferId }, now: clock.now() } as never));
  return (await db.select({ state: transfers.state }).from(transfers).where(eq(transfers.id, transferId)))[0].state;
}

/** Runs a command as `operator` in a transaction; the domain error's code when it is refused. */
async function command(name: string, input: unknown, operator: typeof admin | typeof reviewer, reason = "Checked by the test"): Promise<string> {
  const { clock } = await import("@/lib/platform/clock");
  const { act } = await import("@/lib/operations/commands/run");
  try {
    const acted = await db.transaction((tx) => act(tx, name, input, { operator, reason, now: clock.now() }));
    return acted.kind;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (!code) throw e;
    return code;
  }
}

const eventsOf = async (subscriptionId: string) => db.select().from(events).where(eq(events.subscriptionId, subscriptionId));

describe("PEP screening", () => {
  test("the OpenSanctions targets.simple.csv layout: the fixture parsed into the one entity model and stored once as a list version", async () => {
    const { LIST_FORMATS, LISTS, PEP_LISTS } = await import("@/lib/compliance/screening/sources");
    const { currentVersion, importPublication, shippedSources } = await import("@/lib/compliance/screening/list-store");
    const { clock } = await import("@/lib/platform/clock");
    assert.deepEqual(PEP_LISTS, ["opensanctions-peps"]);
    assert.ok(!LISTS.includes("opensanctions-peps"), "the PEP list is not a sanctions list");
    const { entries } = LIST_FORMATS["opensanctions-peps"].parse({ "targets.simple.csv": readFileSync(fixture()) });
    assert.equal(entries.length, 8);
    assert.equal(entries.filter((e) => e.kind === "individual").length, 7);
    const byId = new Map(entries.map((e) => [e.entryId, e]));
    const rosalind = byId.get("fict-pep-0001")!;
    assert.equal(rosalind.name, "Rosalind Quartermaine-Vell");
    assert.deepEqual(
      rosalind.aliases.map((a) => a.name),
      ["Rosalind Vell", "Rosie Quartermaine"],
    );
    assert.deepEqual(rosalind.datesOfBirth, ["1961-04-02"]);
    assert.deepEqual(rosalind.nationalities, ["GBR", "MLT"]);
    assert.deepEqual(rosalind.programs, ["Fictitious PEP fixture"]);
    assert.deepEqual(byId.get("fict-pep-0002")!.programs, ["Fictitious PEP fixture", "Fictitious municipal officials"]);
    assert.deepEqual(
      byId.get("fict-pep-0003")!.aliases.map((a) => a.name),
      ["Oksana Velychkivskaya", "Оксана Величківська"],
    );
    assert.deepEqual(byId.get("fict-pep-0008")!.datesOfBirth, ["1955", "1956"]);
    assert.equal(byId.get("fict-pep-0007")!.kind, "entity");

    const version = await currentVersion(db, "opensanctions-peps");
    assert.ok(version, "loaded at start from the fixture (sandbox)");
    assert.equal(version.entryCount, 8);
    assert.equal(version.aliasCount, 7);
    assert.equal((await importPublication(db, shippedSources("opensanctions-peps"), clock.now())).created, false, "the same file is the same version");
  });

  test("a profile submitted under a listed name: flagged PEP with the evidence, a case opened, its status unchanged, nothing emitted", async () => {
    const owner = await submitted("Rosalind", "Quartermaine-Vell", "1961-04-02");
    const { standingPepFlag } = await import("@/lib/compliance/cases/pep");
    const flag = await standingPepFlag(db, owner.customerId);
    assert.ok(flag, "a standing PEP flag");
    assert.equal(flag.source, "pep-screening");
    assert.equal(flag.approvedAt, null);
    assert.deepEqual(
      flag.evidence!.map((e) => [e.list, e.entryId, e.result]),
      [["opensanctions-peps", "fict-pep-0001", "HIT"]],
    );
    const [kase] = await db.select().from(complianceCases).where(eq(complianceCases.customerId, owner.customerId));
    assert.equal(kase.state, "OPEN");
    assert.equal(flag.caseId, kase.id);
    const alerts = await db.select().from(complianceAlerts).where(eq(complianceAlerts.caseId, kase.id));
    assert.deepEqual(
      alerts.map((a) => a.kind),
      ["PEP_MATCH"],
    );
    assert.match(alerts[0].summary, /Rosalind Quartermaine-Vell.*HIT/);
    const [customer] = await db.select().from(customers).where(eq(customers.id, owner.customerId));
    assert.equal(customer.status, "PENDING", "a PEP is not blocked");
    assert.equal(customer.screeningResult, "CLEAR", "the sanctions screening is its own");
    const [kept] = await db
      .select()
      .from(screeningResults)
      .where(and(eq(screeningResults.subjectType, "customer-pep"), eq(screeningResults.subjectId, owner.customerId)));
    assert.equal(kept.result, "HIT");
    assert.deepEqual(await eventsOf(owner.subscriptionId), [], "the partner is told nothing");

    // Screened again (a resubmission, a new version): the standing flag is not raised twice.
    await screenPep(owner.customerId);
    assert.equal((await db.select().from(complianceAlerts).where(eq(complianceAlerts.customerId, owner.customerId))).length, 1);
  });

  test("a PEP's transfer waits in review until their ENHANCED KYC and an admin's approval; then it is approved and the next passes", async () => {
    const owner = await validCustomer("Bart", "Fenwright", "1958-03-03");
    await screenPep(owner.customerId);
    const transferId = await submittedTransfer(db, owner);
    const before = (await eventsOf(owner.subscriptionId)).length;
    assert.equal(await fastCheck(transferId), "onreview", "held, not refused");
    const review = await db
      .select()
      .from(complianceAlerts)
      .where(and(eq(complianceAlerts.customerId, owner.customerId), eq(complianceAlerts.kind, "REVIEW_RULE")));
    assert.match(review[0].summary, /PEP: ENHANCED KYC and an admin's approval needed/);
    // The partner sees what any review looks like: the state and TRF_CHECK_REVIEW, nothing of the PEP.
    const emitted = (await eventsOf(owner.subscriptionId)).slice(before);
    assert.ok(emitted.length > 0);
    for (const e of emitted) assert.doesNotMatch(JSON.stringify(e.body), /pep|politic|case|flag|enhanced/i);
    assert.match(JSON.stringify(emitted.map((e) => e.body)), /TRF_CHECK_REVIEW/);

    assert.equal(await command("transfer.review.approve", { transferId }, reviewer), "pep.approvalPending");
    assert.equal(await command("customer.pep.approve", { subscriptionId: owner.subscriptionId }, reviewer), "proposal.roleInsufficient");
    assert.equal(await command("customer.pep.approve", { subscriptionId: owner.subscriptionId }, admin), "pep.enhancedKycRequired");

    // ENHANCED KYC approved (tier 2), as completeKycSession does for an ENHANCED session.
    const { clock } = await import("@/lib/platform/clock");
    const { changeCustomer, lockCustomer } = await import("@/lib/identity/customers/status-change");
    await db.transaction(async (tx) => changeCustomer(tx, await lockCustomer(tx, owner.customerId), { tier: 2 }, clock.now()));
    assert.equal(await command("transfer.review.approve", { transferId }, reviewer), "pep.approvalPending", "the admin's approval still waits");
    assert.equal(
      await command("customer.pep.approve", { subscriptionId: owner.subscriptionId }, admin, "Source of wealth documented; senior approval"),
      "performed",
    );
    assert.equal(await command("customer.pep.approve", { subscriptionId: owner.subscriptionId }, admin), "riskFlag.stateInvalid", "approved once");
    const { standingPepFlag } = await import("@/lib/compliance/cases/pep");
    const flag = (await standingPepFlag(db, owner.customerId))!;
    assert.equal(flag.approvedByEmail, admin.email);
    assert.equal(flag.approvalReason, "Source of wealth documented; senior approval");
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "customer.pep.approve"), eq(auditLog.targetId, owner.customerId)));
    assert.equal(audit.operatorEmail, admin.email);

    assert.equal(await command("transfer.review.approve", { transferId }, reviewer), "performed");
    assert.equal((await db.select({ state: transfers.state }).from(transfers).where(eq(transfers.id, transferId)))[0].state, "validated");
    assert.equal(await fastCheck(await submittedTransfer(db, owner)), "validated", "the next transfer is not held for the PEP");
  });

  test("a new PEP list version rescreens the customers; an entry an analyst cleared is not raised again, another entry is", async () => {
    const { clock } = await import("@/lib/platform/clock");
    const { importPublication } = await import("@/lib/compliance/screening/list-store");
    const { standingPepFlag } = await import("@/lib/compliance/cases/pep");
    const owner = await validCustomer("Perpetua", "Glassington-Moor", "1966-06-06");
    await screenPep(owner.customerId);
    assert.equal(await standingPepFlag(db, owner.customerId), undefined, "not listed yet");

    const perpetua =
      "fict-pep-0101,Person,Perpetua Glassington-Moor,,1966-06-06,us,,,,,,Fictitious PEP fixture,2026-11-01T00:00:00,2026-11-01T00:00:00,2026-11-01T00:00:00";
    const update = await importPublication(db, publicationWith(perpetua), clock.now());
    assert.equal(update.created, true);
    await drain(); // the version's rescreen walks the customers
    const flag = await standingPepFlag(db, owner.customerId);
    assert.deepEqual(
      flag?.evidence?.map((e) => [e.entryId, e.listVersionId]),
      [["fict-pep-0101", update.versionId]],
    );

    // An analyst finds it is another person and clears the flag: the same entry in a later version raises nothing.
    assert.equal(
      await command(
        "customer.riskFlag.clear",
        { subscriptionId: owner.subscriptionId, flagId: flag!.id },
        reviewer,
        "Another person: different parents, documented",
      ),
      "performed",
    );
    const other = "fict-pep-0102,Person,Hieronymus Pettifer,,1940,gb,,,,,,Fictitious PEP fixture,2026-11-02T00:00:00,2026-11-02T00:00:00,2026-11-02T00:00:00";
    assert.equal((await importPublication(db, publicationWith(perpetua, other), clock.now())).created, true);
    await drain();
    assert.equal(await standingPepFlag(db, owner.customerId), undefined, "the cleared entry is not raised again");
    const alerts = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(complianceAlerts)
      .where(and(eq(complianceAlerts.customerId, owner.customerId), eq(complianceAlerts.kind, "PEP_MATCH")));
    assert.equal(Number(alerts[0].n), 1);

    // Another entry of the same name (a new listing) is raised.
    const again =
      "fict-pep-0103,Person,Perpetua Glassington Moor,,1966-06-06,us,,,,,,Fictitious PEP fixture,2026-11-03T00:00:00,2026-11-03T00:00:00,2026-11-03T00:00:00";
    assert.equal((await importPublication(db, publicationWith(perpetua, other, again), clock.now())).created, true);
    await drain();
    assert.ok((await standingPepFlag(db, owner.customerId))?.evidence?.some((e) => e.entryId === "fict-pep-0103"));
  });
});
