/**
 * The customer risk rating on the database: the factors read for a customer give its rating with
 * reasons, stored with its history; each change the rating reads (a case opened, a profile
 * submitted, a report filed) enqueues the rating job through the unit of work, and the job's run
 * stores the new rating; an analyst's override waits for a second analyst and then stands, until a
 * floor factor newer than it (a report filed after it) makes the customer HIGH again; a HIGH
 * customer's transfer goes to review at half the corridor's threshold where a LOW one's passes; the
 * daily sweep asks a rating of the day's senders.
 * On PGlite, and on PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, asc, eq, like } from "drizzle-orm";
import type { Db } from "@/db";
import { customerRiskRatingHistory, customerRiskRatings, customers, jobs, operators, proposals, suspiciousActivityReports } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { checker, maker } from "../../support/commands";
import { freshDb } from "../../support/db";
import { newSubscription, type Owner } from "../../support/fixtures";
import { ago, monitoringHelpers } from "../../support/monitoring";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
  // The analysts (a case's assignee is one); the PostgreSQL database is shared by the files of a run.
  for (const o of [maker, checker])
    await db
      .insert(operators)
      .values({ id: o.id, email: o.email, name: o.name, role: o.role, passwordHash: "-", createdAt: clock.now() })
      .onConflictDoNothing();
});
after(() => close());

const { sender, transfer, fastCheck } = monitoringHelpers(() => db);
const job = { kind: "job" as const, id: "job_test", jobKind: "transfers.fastCheck" };

async function lib() {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { execute } = await import("@/lib/operations/commands/run");
  const { overrideCustomerRating } = await import("@/lib/operations/commands/customers");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { rateCustomer } = await import("@/lib/compliance/risk-rating/rate-job");
  const { recomputeRating } = await import("@/lib/compliance/risk-rating/ratings");
  const cases = await import("@/lib/compliance/cases/cases");
  const reports = await import("@/lib/compliance/cases/reports");
  return { inUnit, execute, overrideCustomerRating, approve, rateCustomer, recomputeRating, cases, reports };
}

const ratingOf = async (customerId: string) => (await db.select().from(customerRiskRatings).where(eq(customerRiskRatings.customerId, customerId)))[0];
const historyOf = (customerId: string) =>
  db.select().from(customerRiskRatingHistory).where(eq(customerRiskRatingHistory.customerId, customerId)).orderBy(asc(customerRiskRatingHistory.createdAt));
const ratingJobs = (customerId: string) =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, "customers.rate"), like(jobs.dedupeKey, `customers.rate:${customerId}:%`), eq(jobs.state, "pending")));

/** Runs the customer's pending rating jobs as the worker would (their run, then marked done); how many ran. */
async function runRatingJobs(customerId: string): Promise<string[]> {
  const { rateCustomer } = await lib();
  const pending = await ratingJobs(customerId);
  for (const j of pending) {
    await db.transaction((tx) => rateCustomer.run!(tx, { payload: j.payload as never, now: clock.now() } as never));
    await db.update(jobs).set({ state: "done" }).where(eq(jobs.id, j.id));
  }
  return pending.map((j) => (j.payload as { cause: string }).cause);
}

async function rateNow(customerId: string, cause = "test") {
  const { recomputeRating } = await lib();
  return db.transaction((tx) => recomputeRating(tx, customerId, clock.now(), cause));
}

/** A case opened on the customer, investigated and closed as risk confirmed: its drafted report. */
async function riskConfirmedReport(owner: Owner) {
  const { inUnit, cases } = await lib();
  const raised = await inUnit(({ tx, now }) => cases.raiseAlert(tx, { customerId: owner.customerId, kind: "REVIEW_RULE", summary: "test", now }), {
    db,
    actor: job,
  });
  const caseId = raised.case!.id;
  await inUnit(({ tx, now }) => cases.investigateCase(tx, { caseId, operator: maker, now }), { db });
  const closed = await inUnit(
    ({ tx, now }) => cases.closeCase(tx, { caseId, outcome: "RISK_CONFIRMED", narrative: "Structured deposits.", operator: maker, now }),
    { db },
  );
  return closed.report!;
}

test("a verified tier-1 customer is LOW with its reasons; a high-risk residence and nationality make it HIGH; each change is kept in the history", async () => {
  const owner = await newSubscription(db);
  const first = await rateNow(owner.customerId);
  assert.equal(first?.after.rating, "LOW");
  assert.deepEqual(
    first?.after.reasons.map((r) => r.factor),
    ["tier_without_source_of_funds"],
  );
  assert.equal(first?.after.score, 5);

  await db
    .update(customers)
    .set({ profile: { firstName: "A", lastName: "B", nationality: "IRN", residenceCountry: "MMR" } })
    .where(eq(customers.id, owner.customerId));
  const second = await rateNow(owner.customerId, "profile");
  assert.equal(second?.after.rating, "HIGH");
  assert.equal(second?.after.computedRating, "HIGH");
  assert.equal(second?.after.score, 5 + 30 + 40);
  assert.deepEqual(
    second?.after.reasons.map((r) => [r.factor, r.detail]),
    [
      ["tier_without_source_of_funds", "tier 1"],
      ["nationality_high_risk", "nationality IR"],
      ["residence_high_risk", "residence MM"],
    ],
  );
  // Recomputed with nothing changed: no new history row.
  await rateNow(owner.customerId, "again");
  assert.deepEqual(
    (await historyOf(owner.customerId)).map((h) => [h.previousRating, h.rating, h.cause]),
    [
      [null, "LOW", "test"],
      ["LOW", "HIGH", "profile"],
    ],
  );
});

test("a customer sending to a high-risk country within 180 days, and one sending three times its own monthly average, gain those factors", async () => {
  const s = await sender();
  // Behaviour: 200 USD a month for the six months before, then 3,000 USD in the last 30 days.
  for (const days of [40, 70, 100, 130, 160, 190]) await transfer(s, { amount: "200.00", at: ago(days * 24) });
  await transfer(s, { amount: "1500.00", at: ago(48) });
  await transfer(s, { amount: "1500.00", at: ago(24) });
  const rated = await rateNow(s.customerId);
  const behaviour = rated?.after.reasons.find((r) => r.factor === "behaviour_above_own_profile");
  assert.ok(behaviour, JSON.stringify(rated?.after.reasons));
  assert.match(behaviour.detail, /^3000\.00 USD in 30 days against an average of 200\.00 USD$/);
  assert.equal(rated?.after.rating, "MEDIUM", "5 + 25 points");
  assert.equal(
    rated?.after.reasons.some((r) => r.factor === "corridor_high_risk"),
    false,
  );

  // No shipped corridor pays into a listed country: Mexico is listed for this check only.
  const { ratingModel } = await import("@/lib/compliance/risk-rating/model");
  const listed = ratingModel().highRiskCountries as Set<string>;
  listed.add("MX");
  try {
    const corridor = (await rateNow(s.customerId))?.after.reasons.find((r) => r.factor === "corridor_high_risk");
    assert.equal(corridor?.detail, "sent to MX");
  } finally {
    listed.delete("MX");
  }
});

test("a case opened on the customer enqueues the rating job in the same unit; its run stores MEDIUM with the open case as a reason", async () => {
  const { inUnit, cases } = await lib();
  const owner = await newSubscription(db);
  await rateNow(owner.customerId);
  const raised = await inUnit(({ tx, now }) => cases.raiseAlert(tx, { customerId: owner.customerId, kind: "REVIEW_RULE", summary: "amount ≥ 1000 USD", now }), {
    db,
    actor: job,
  });
  assert.deepEqual(await runRatingJobs(owner.customerId), ["case.opened"]);
  const r = await ratingOf(owner.customerId);
  assert.equal(r.rating, "MEDIUM");
  assert.deepEqual(
    r.reasons.find((x) => x.factor === "open_case"),
    {
      factor: "open_case",
      description: "A compliance case not yet closed",
      points: 25,
      detail: `case ${raised.case!.id}`,
      since: raised.case!.detectedAt.toISOString(),
    },
  );
  assert.equal((await historyOf(owner.customerId)).at(-1)?.cause, "case.opened");

  // A shadow alert changes nothing, so asks for no rating.
  const other = await newSubscription(db);
  await inUnit(({ tx, now }) => cases.raiseAlert(tx, { customerId: other.customerId, kind: "MONITORING_REVIEW", summary: "shadow", shadow: true, now }), {
    db,
    actor: job,
  });
  assert.equal((await ratingJobs(other.customerId)).length, 0);
});

test("a profile submitted enqueues the rating job (nationality and residence are factors)", async () => {
  const { inUnit } = await lib();
  const { submitProfile } = await import("@/lib/identity/customers/profile");
  const owner = await newSubscription(db);
  // A profile is submitted before KYC, while the customer is PENDING.
  await db.update(customers).set({ status: "PENDING", kycStatus: "NOT_STARTED" }).where(eq(customers.id, owner.customerId));
  await inUnit(
    ({ tx, now }) =>
      submitProfile(tx, {
        customerId: owner.customerId,
        profile: {
          firstName: "Kim",
          lastName: "Sol",
          dateOfBirth: "1980-01-01",
          nationality: "KEN",
          residenceCountry: "USA",
          residenceAddress: { addressLine1: "1 Main St", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
        },
        now,
      }),
    { db },
  );
  assert.deepEqual(await runRatingJobs(owner.customerId), ["customer.profile"]);
  assert.ok((await ratingOf(owner.customerId)).reasons.some((r) => r.factor === "nationality_high_risk" && r.detail === "nationality KE"));
});

test("a PEP match (the PEP screening's flag and PEP_MATCH alert) makes the customer HIGH, whatever the points", async () => {
  const { inUnit } = await lib();
  const { raisePepMatch } = await import("@/lib/compliance/cases/pep");
  const owner = await newSubscription(db);
  assert.equal((await rateNow(owner.customerId))?.after.rating, "LOW");
  const evidence = {
    list: "opensanctions-peps",
    listVersionId: null,
    entryId: "fict-pep-rating",
    entryName: "Fictional Minister",
    matchedName: "Fictional Minister",
    matchedAlias: false,
    programs: [],
    score: "0.97",
    result: "HIT" as const,
    agreed: ["name"],
    differed: [],
  };
  const raised = await inUnit(({ tx, now }) => raisePepMatch(tx, { customerId: owner.customerId, evidence: [evidence], now }), { db, actor: job });
  assert.equal(raised.raised, true);
  assert.deepEqual(await runRatingJobs(owner.customerId), ["case.opened"]);
  const r = await ratingOf(owner.customerId);
  assert.equal(r.rating, "HIGH");
  assert.equal(r.score, 30, "tier 1 and the open case: MEDIUM by points, HIGH by the PEP floor");
  const pep = r.reasons.find((x) => x.factor === "pep");
  assert.equal(pep?.floor, "HIGH");
  assert.equal(pep?.detail, "PEP flag standing; PEP_MATCH alert");
});

test("a filed report makes the customer HIGH until reviewed: an override proposed by one analyst, approved by another; a later filing makes it HIGH again", async () => {
  const { inUnit, execute, overrideCustomerRating, approve, reports } = await lib();
  const owner = await newSubscription(db);
  const report = await riskConfirmedReport(owner);
  await runRatingJobs(owner.customerId);
  assert.equal((await ratingOf(owner.customerId)).rating, "MEDIUM", "the RISK_CONFIRMED flag (40) and tier 1 (5): MEDIUM before the filing");
  // Four eyes: a second analyst approves the report its drafter (maker) wrote, then it is filed.
  await inUnit(({ tx, now }) => reports.approveReport(tx, { reportId: report.id, operator: checker, now }), { db });
  await inUnit(({ tx, now }) => reports.fileReport(tx, { reportId: report.id, authorityReference: "BSA-1", operator: maker, now }), { db });
  assert.deepEqual(await runRatingJobs(owner.customerId), ["report.filed"]);
  const filed = await ratingOf(owner.customerId);
  assert.equal(filed.rating, "HIGH");
  assert.ok(filed.reasons.some((r) => r.factor === "filed_report" && r.floor === "HIGH" && r.detail === `report ${report.id} filed`));

  // One analyst proposes; nothing changes; the proposer cannot approve; a second analyst does.
  const input = { customerId: owner.customerId, rating: "MEDIUM" as const };
  const acted = await inUnit(
    ({ tx, now }) => execute(tx, overrideCustomerRating, input, { operator: maker, reason: "Reviewed after filing: activity explained", now }),
    {
      db,
    },
  );
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  const [proposal] = await db.select().from(proposals).where(eq(proposals.id, proposalId));
  assert.deepEqual({ action: proposal.action, subject: proposal.subjectId }, { action: "customer.rating.override", subject: owner.customerId });
  assert.equal((await ratingOf(owner.customerId)).rating, "HIGH", "nothing changes until approval");
  await assert.rejects(
    inUnit(({ tx, now }) => approve(tx, proposalId, { operator: maker, reason: "me", now }), { db }),
    (e: unknown) => e instanceof DomainError && e.code === "proposal.selfApproval",
  );
  await inUnit(({ tx, now }) => approve(tx, proposalId, { operator: checker, reason: "Agreed", now }), { db });
  const overridden = await ratingOf(owner.customerId);
  assert.equal(overridden.rating, "MEDIUM");
  assert.equal(overridden.override?.reason, "Reviewed after filing: activity explained");
  assert.equal(overridden.override?.proposedBy, maker.email);
  assert.equal(overridden.override?.approvedBy, checker.email);
  assert.ok(overridden.reviewedAt);
  assert.ok(!overridden.reasons.some((r) => r.factor === "filed_report"), "the filing before the override counts as reviewed");
  assert.equal((await historyOf(owner.customerId)).at(-1)?.cause, "override");

  // Recomputing keeps the override; a report filed after it replaces it.
  await rateNow(owner.customerId, "again");
  assert.equal((await ratingOf(owner.customerId)).rating, "MEDIUM");
  const second = await riskConfirmedReport(owner);
  await inUnit(({ tx, now }) => reports.approveReport(tx, { reportId: second.id, operator: checker, now }), { db });
  await inUnit(({ tx, now }) => reports.fileReport(tx, { reportId: second.id, authorityReference: "BSA-2", operator: maker, now }), { db });
  await runRatingJobs(owner.customerId);
  const again = await ratingOf(owner.customerId);
  assert.equal(again.rating, "HIGH");
  assert.equal(again.override, null);
  const [kept] = await db.select().from(suspiciousActivityReports).where(eq(suspiciousActivityReports.id, second.id));
  assert.equal(kept.status, "FILED");
});

test("an override needs a reason, and its command always waits for a second analyst", async () => {
  const { inUnit, execute, overrideCustomerRating, approve } = await lib();
  const owner = await newSubscription(db);
  await rateNow(owner.customerId);
  const acted = await inUnit(({ tx, now }) => execute(tx, overrideCustomerRating, { customerId: owner.customerId, rating: "HIGH" }, { operator: maker, now }), {
    db,
  });
  assert.equal(acted.kind, "proposed", "even a raise waits");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  await assert.rejects(
    inUnit(({ tx, now }) => approve(tx, proposalId, { operator: checker, reason: "ok", now }), { db }),
    (e: unknown) => e instanceof DomainError && e.code === "validation.fieldInvalid",
  );
  assert.equal((await ratingOf(owner.customerId)).rating, "LOW");
});

test("a HIGH customer's 600 USD transfer goes to review at half the corridor's threshold; a LOW customer's passes", async () => {
  const [high, alsoHigh, low] = [await sender(), await sender(), await sender()];
  for (const h of [high, alsoHigh]) {
    await db
      .update(customers)
      .set({ profile: { nationality: "IRN", residenceCountry: "IRN" } })
      .where(eq(customers.id, h.customerId));
    assert.equal((await rateNow(h.customerId))?.after.rating, "HIGH");
  }
  assert.equal((await rateNow(low.customerId))?.after.rating, "LOW");

  const held = await fastCheck((await transfer(high, { amount: "600.00" })).transferId);
  assert.equal(held.state, "onreview");
  assert.deepEqual(
    held.alerts.map((a) => [a.kind, a.summary]),
    [["REVIEW_RULE", "customer rated HIGH: amount ≥ 500 USD"]],
  );
  const under = await fastCheck((await transfer(alsoHigh, { amount: "499.00" })).transferId);
  assert.equal(under.state, "validated", "one unit under the lowered threshold");
  const passed = await fastCheck((await transfer(low, { amount: "600.00" })).transferId);
  assert.equal(passed.state, "validated");
});

test("the daily sweep asks a rating of each customer who sent in the last day, and of no other", async () => {
  const { rateRecentSenders } = await import("@/lib/compliance/risk-rating/rate-job");
  const recent = await sender();
  const old = await sender();
  await transfer(recent, { amount: "50.00", at: ago(3) });
  await transfer(old, { amount: "50.00", at: ago(30) });
  await db.transaction((tx) => rateRecentSenders.run!(tx, { payload: {}, now: clock.now() } as never));
  assert.deepEqual(await runRatingJobs(recent.customerId), ["daily.senders"]);
  assert.deepEqual(await runRatingJobs(old.customerId), []);
  assert.equal((await ratingOf(recent.customerId)).rating, "LOW");
});
