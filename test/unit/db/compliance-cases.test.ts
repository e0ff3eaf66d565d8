/**
 * Compliance cases on the database: raiseAlert opens a case per customer or
 * joins the one not yet closed, records what the alert links, writes its audit entry through the
 * unit of work, records the same alert once, keeps shadow alerts from opening anything, and two
 * alerts racing for a customer with no case make one case (PostgreSQL: two connections); a case
 * closed as risk confirmed drafts its report (typologies from monitoring and the other alerts); a
 * risk flag is cleared with a reason and its history kept.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import {
  auditLog,
  complianceAlerts,
  complianceCaseNotes,
  complianceCases,
  customerRiskFlags,
  customers,
  monitoringEvaluations,
  operators,
  suspiciousActivityReports,
  transfers,
} from "@/db/schema";
import { addNote, assignCase, clearRiskFlag, closeCase, investigateCase, linkToCase, raiseAlert, setRiskFlag } from "@/lib/compliance/cases/cases";
import { approveReport, editReport, fileReport, overdueReports, reportCsv, reportJson } from "@/lib/compliance/cases/reports";
import { clock } from "@/lib/platform/clock";
import { inUnit } from "@/lib/platform/unit-of-work";
import { freshDb, secondConnection } from "../../support/db";
import { insertTestTransfer, newSubscription, registeredTransfer } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
  // The console's operators (a case's assignee is one); the PostgreSQL database is shared by the files of a run.
  for (const [id, email] of [
    ["op_analyst", "cases-analyst@example.com"],
    ["op_other", "cases-other@example.com"],
  ])
    await db.insert(operators).values({ id, email, name: id, role: "reviewer", passwordHash: "-", createdAt: clock.now() }).onConflictDoNothing();
});
after(() => close());

const casesOf = (customerId: string) =>
  db.select().from(complianceCases).where(eq(complianceCases.customerId, customerId)).orderBy(asc(complianceCases.createdAt));
const alertsOf = (customerId: string) =>
  db.select().from(complianceAlerts).where(eq(complianceAlerts.customerId, customerId)).orderBy(asc(complianceAlerts.raisedAt));
const job = { kind: "job" as const, id: "job_test", jobKind: "transfers.fastCheck" };

test("a first alert opens the customer's case, due 30 days after detection; later alerts join it; the same alert is recorded once", async () => {
  const owner = await newSubscription(db);
  const detected = new Date("2026-11-20T09:30:00Z");
  const transfer = await db.transaction((tx) => insertTestTransfer(tx, owner, detected));

  const first = await inUnit(
    ({ tx, now }) => raiseAlert(tx, { customerId: owner.customerId, kind: "REVIEW_RULE", transferId: transfer.id, summary: "amount ≥ 1000 USD", now }),
    { db, actor: job, now: detected },
  );
  assert.equal(first.opened, true);
  assert.equal(first.case?.state, "OPEN");
  assert.equal(first.case?.dueOn, "2026-12-20");
  assert.equal(first.case?.detectedAt.toISOString(), detected.toISOString());
  assert.equal(first.alert.caseId, first.case?.id);
  assert.equal(first.alert.transferId, transfer.id);
  assert.equal(first.alert.raisedBy, "system");

  // Written at commit through the unit's effects, by the system (a job has no operator).
  const [audit] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "complianceCase"), eq(auditLog.targetId, first.case!.id)));
  assert.equal(audit.action, "complianceCase.opened");
  assert.equal(audit.operatorId, "system:compliance");
  assert.deepEqual(audit.after, {
    caseId: first.case!.id,
    state: "OPEN",
    dueOn: "2026-12-20",
    alertId: first.alert.id,
    kind: "REVIEW_RULE",
    shadow: false,
    transferId: transfer.id,
  });

  const later = new Date("2026-11-21T10:00:00Z");
  const second = await inUnit(
    ({ tx, now }) => raiseAlert(tx, { customerId: owner.customerId, kind: "COMPLIANCE_HOLD", transferId: transfer.id, summary: "held by an operator", now }),
    { db, actor: job, now: later },
  );
  assert.equal(second.opened, false);
  assert.equal(second.case?.id, first.case?.id, "joins the open case");
  assert.equal(second.case?.dueOn, "2026-12-20", "the due date stays the first detection's");
  const again = await inUnit(
    ({ tx, now }) => raiseAlert(tx, { customerId: owner.customerId, kind: "COMPLIANCE_HOLD", transferId: transfer.id, summary: "held again", now }),
    { db, actor: job, now: later },
  );
  assert.equal(again.alert.id, second.alert.id, "the same alert (kind and links) is recorded once");

  assert.equal((await casesOf(owner.customerId)).length, 1);
  assert.deepEqual(
    (await alertsOf(owner.customerId)).map((a) => [a.kind, a.caseId, a.transferId]),
    [
      ["REVIEW_RULE", first.case!.id, transfer.id],
      ["COMPLIANCE_HOLD", first.case!.id, transfer.id],
    ],
  );
  const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, first.case!.id)).orderBy(asc(auditLog.at));
  assert.deepEqual(
    audits.map((a) => a.action),
    ["complianceCase.opened", "complianceCase.alert"],
  );
});

test("a shadow alert never opens a case: alone on a customer without one, joined (state unchanged) to an open one", async () => {
  const owner = await newSubscription(db);
  const shadow = await inUnit(
    ({ tx, now }) =>
      raiseAlert(tx, { customerId: owner.customerId, kind: "MONITORING_REVIEW", evaluationId: "mev_1", summary: "structuring", shadow: true, now }),
    { db, actor: job },
  );
  assert.equal(shadow.case, undefined);
  assert.equal(shadow.alert.caseId, null);
  assert.equal(shadow.alert.shadow, true);
  assert.equal(shadow.alert.evaluationId, "mev_1");
  assert.deepEqual(await casesOf(owner.customerId), []);
  const [audit] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "customer"), eq(auditLog.targetId, owner.customerId)));
  assert.equal(audit.action, "complianceCase.shadowAlert");

  const open = await inUnit(({ tx, now }) => raiseAlert(tx, { customerId: owner.customerId, kind: "LIST_HIT", summary: "exact match", now }), {
    db,
    actor: job,
  });
  assert.equal(open.opened, true);
  const joined = await inUnit(
    ({ tx, now }) => raiseAlert(tx, { customerId: owner.customerId, kind: "SHADOW_ALERT", evaluationId: "mev_2", summary: "velocity", now }),
    { db, actor: job },
  );
  assert.equal(joined.case?.id, open.case?.id);
  assert.equal(joined.alert.shadow, true, "kind SHADOW_ALERT is a shadow alert");
  assert.equal((await casesOf(owner.customerId))[0].state, "OPEN");
});

test("an alert raised by an operator is audited as theirs", async () => {
  const owner = await newSubscription(db);
  const operator = { id: "op_cases", email: "analyst@example.com", name: "Analyst", role: "reviewer" as const };
  const raised = await inUnit(
    ({ tx, now }) => raiseAlert(tx, { customerId: owner.customerId, kind: "COMPLIANCE_HOLD", summary: "held from the customer page", now, by: operator }),
    { db, actor: { kind: "operator", operator } },
  );
  assert.equal(raised.alert.raisedBy, "analyst@example.com");
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.targetId, raised.case!.id));
  assert.equal(audit.operatorEmail, "analyst@example.com");
});

test("two alerts racing for a customer with no case make one case with both alerts", async () => {
  const owner = await newSubscription(db);
  const { db: db2, close: close2 } = await secondConnection(db);
  try {
    let raised!: () => void;
    const firstWritten = new Promise<void>((r) => (raised = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = db.transaction(async (tx) => {
      const r = await raiseAlert(tx, { customerId: owner.customerId, kind: "REVIEW_RULE", summary: "first", now: clock.now() });
      raised();
      await gate;
      return r;
    });
    await firstWritten;
    let done = false;
    let waited = false;
    const second = db2
      .transaction((tx) => raiseAlert(tx, { customerId: owner.customerId, kind: "LIST_HIT", summary: "second", now: clock.now() }))
      .finally(() => (done = true));
    if (process.env.TEST_DB_URL) {
      // PostgreSQL: until the second waits on the first's insert (PGlite runs them one after the other).
      for (let i = 0; i < 400 && !done; i++) {
        const rows = (await db.execute(sql`select count(*)::int as waiting from pg_locks where not granted`)) as unknown as { waiting: number }[];
        if ((waited = rows[0].waiting > 0)) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(waited, "the second alert waited on the first's uncommitted case");
    }
    release();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.opened, true);
    assert.equal(b.opened, false);
    assert.equal(b.case?.id, a.case?.id);
    assert.equal((await casesOf(owner.customerId)).length, 1);
    assert.equal((await alertsOf(owner.customerId)).length, 2);
  } finally {
    await close2();
  }
});

const analyst = { id: "op_analyst", email: "cases-analyst@example.com", name: "Analyst", role: "reviewer" as const };
/** The database's refusal of a statement (drizzle wraps it), or "accepted". */
async function refusal(query: Promise<unknown>): Promise<string> {
  try {
    await query;
  } catch (err) {
    return String((err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message);
  }
  return "accepted";
}
const rejects = (p: Promise<unknown>, code: string) => assert.rejects(p, (e: unknown) => (e as { code?: string }).code === code);

test("a compliance hold raises an alert in the customer's case", async () => {
  const owner = await newSubscription(db);
  const { transitionTransfer, lockTransfer } = await import("@/lib/payments/transfers/records");
  const { holdTransfer } = await import("@/lib/compliance/cases/hold");
  const created = await db.transaction((tx) => insertTestTransfer(tx, owner, clock.now()));
  await db.transaction(async (tx) => {
    const validated = await transitionTransfer(tx, (await lockTransfer(tx, created.id))!, "fastCheck.passed", clock.now());
    await holdTransfer(tx, validated, clock.now());
  });
  const [alert] = await alertsOf(owner.customerId);
  assert.deepEqual([alert.kind, alert.transferId, alert.summary], ["COMPLIANCE_HOLD", created.id, "Held from validated"]);
  assert.equal((await casesOf(owner.customerId))[0].id, alert.caseId);
});

test("an analyst takes, investigates, notes, links and closes a case as risk confirmed: the report is drafted, edited, filed and kept", async () => {
  const owner = await newSubscription(db);
  const profile = {
    firstName: "Rosa",
    lastName: "Mendez",
    dateOfBirth: "1985-04-02",
    nationality: "MEX",
    residenceCountry: "USA",
    residenceAddress: { addressLine1: "1 Main St", city: "Austin", postalCode: "78701", country: "USA" },
  };
  await db.update(customers).set({ profile }).where(eq(customers.id, owner.customerId));
  const detected = new Date("2026-10-01T08:00:00Z");
  const t1 = await db.transaction((tx) => insertTestTransfer(tx, owner, detected));
  const t2 = await db.transaction((tx) => insertTestTransfer(tx, owner, new Date("2026-10-02T08:00:00Z")));
  // t1's evaluations at its fast-check: the live set's (structuring reached review; velocity scored
  // below its threshold) and a candidate set's shadow run (not the live judgment).
  const evaluation = (id: string, run: "live" | "candidate", typologies: { typology: string; score: number; outcome: "pass" | "review" | "block" }[]) => ({
    id,
    transferId: t1.id,
    customerId: owner.customerId,
    partnerId: owner.partnerId,
    ruleSetId: "rset_x",
    ruleSetVersion: 1,
    mode: "enforce" as const,
    run,
    outcome: "review" as const,
    fired: [],
    typologies,
    aggregates: {},
    suppressed: [],
    createdAt: detected,
  });
  await db.insert(monitoringEvaluations).values([
    evaluation(`mev_live_${t1.id}`, "live", [
      { typology: "structuring", score: 100, outcome: "review" },
      { typology: "sender_velocity", score: 40, outcome: "pass" },
    ]),
    evaluation(`mev_cand_${t1.id}`, "candidate", [{ typology: "fund_then_cancel", score: 100, outcome: "block" }]),
  ]);
  const { case: opened } = await db.transaction((tx) =>
    raiseAlert(tx, {
      customerId: owner.customerId,
      kind: "MONITORING_REVIEW",
      transferId: t1.id,
      evaluationId: `mev_live_${t1.id}`,
      summary: "structuring",
      now: detected,
    }),
  );
  const caseId = opened!.id;
  const now = new Date("2026-10-03T08:00:00Z");

  await rejects(
    db.transaction((tx) => closeCase(tx, { caseId, outcome: "FALSE_POSITIVE", narrative: "n", operator: analyst, now })),
    "complianceCase.stateInvalid",
  );
  await db.transaction((tx) => assignCase(tx, { caseId, assignee: analyst, now }));
  const investigating = await db.transaction((tx) => investigateCase(tx, { caseId, operator: { id: "op_other", email: "cases-other@example.com" }, now }));
  assert.equal(investigating.state, "INVESTIGATING");
  assert.equal(investigating.assigneeEmail, analyst.email, "a taken case keeps its assignee");
  await db.transaction((tx) => addNote(tx, { caseId, body: "Two transfers just under the threshold", operator: analyst, now }));
  await db.transaction((tx) => linkToCase(tx, { caseId, transferId: t2.id, summary: "second of the pair", operator: analyst, now }));
  await db.transaction((tx) => raiseAlert(tx, { customerId: owner.customerId, kind: "COMPLIANCE_HOLD", transferId: t2.id, summary: "held", now }));
  const stranger = await registeredTransfer(db);
  await rejects(
    db.transaction((tx) => linkToCase(tx, { caseId, transferId: stranger.id, summary: "not theirs", operator: analyst, now })),
    "transfer.notFound",
  );

  const closed = await db.transaction((tx) =>
    closeCase(tx, { caseId, outcome: "RISK_CONFIRMED", narrative: "Structuring below the reporting threshold.", operator: analyst, now }),
  );
  assert.equal(closed.case.state, "CLOSED");
  assert.equal(closed.case.outcome, "RISK_CONFIRMED");
  assert.equal(closed.case.closedByEmail, analyst.email);
  const report = closed.report!;
  assert.equal(report.status, "DRAFTED");
  assert.equal(report.dueOn, "2026-10-31", "30 days after detection");
  assert.deepEqual(report.transferIds, [t1.id, t2.id]);
  assert.deepEqual(report.amounts, [{ currency: "USD", total: "200", transfers: 2 }]);
  assert.equal(report.activityFrom.toISOString(), "2026-10-01T08:00:00.000Z");
  assert.equal(report.activityTo.toISOString(), "2026-10-02T08:00:00.000Z");
  // The typologies monitoring found on the linked transfers, then the other alerts' kinds (an
  // analyst's link is none; the candidate set's block is not the live judgment).
  assert.deepEqual(report.typologies, ["structuring", "COMPLIANCE_HOLD"]);
  assert.equal(report.narrative, "Structuring below the reporting threshold.");
  assert.deepEqual(
    [report.subject.firstName, report.subject.lastName, report.subject.partnerId, report.subject.address],
    ["Rosa", "Mendez", owner.partnerId, "1 Main St, 78701, Austin, USA"],
  );
  assert.deepEqual(
    (await db.select().from(customerRiskFlags).where(eq(customerRiskFlags.customerId, owner.customerId))).map((f) => [f.flag, f.caseId]),
    [["RISK_CONFIRMED", caseId]],
  );
  assert.deepEqual((await overdueReports(db, "2026-11-01")).filter((r) => r.id === report.id).length, 1, "overdue after its due date");
  assert.deepEqual((await overdueReports(db, "2026-10-31")).filter((r) => r.id === report.id).length, 0, "not on its due date");

  // A closed case is final; the next alert opens a new case.
  await rejects(
    db.transaction((tx) => investigateCase(tx, { caseId, operator: analyst, now })),
    "complianceCase.stateInvalid",
  );
  const next = await db.transaction((tx) => raiseAlert(tx, { customerId: owner.customerId, kind: "REVIEW_RULE", summary: "again", now }));
  assert.equal(next.opened, true);
  assert.notEqual(next.case?.id, caseId);

  // A second analyst rewrites the narrative: both are its authors now.
  const editor = { id: "op_editor", email: "cases-editor@example.com" };
  const edited = await db.transaction((tx) =>
    editReport(tx, { reportId: report.id, narrative: "Structuring: two transfers of 95% of the threshold in a day.", operator: editor, now }),
  );
  assert.equal(edited.narrative, "Structuring: two transfers of 95% of the threshold in a day.");
  assert.deepEqual(edited.editedByEmails, [editor.email]);

  // Four eyes: not filed before a second analyst approved it; no author approves it (the drafter, the editor).
  await rejects(
    db.transaction((tx) => fileReport(tx, { reportId: report.id, authorityReference: "BSA-too-early", operator: analyst, now })),
    "suspiciousActivityReport.stateInvalid",
  );
  await rejects(
    db.transaction((tx) => approveReport(tx, { reportId: report.id, operator: { id: "op_any", email: analyst.email.toUpperCase() }, now })),
    "suspiciousActivityReport.selfApproval",
  );
  await rejects(
    db.transaction((tx) => approveReport(tx, { reportId: report.id, operator: editor, now })),
    "suspiciousActivityReport.selfApproval",
  );
  const checker = { id: "op_checker", email: "cases-checker@example.com" };
  const approved = await db.transaction((tx) => approveReport(tx, { reportId: report.id, operator: checker, now }));
  assert.equal(approved.status, "APPROVED");
  assert.equal(approved.approvedByEmail, checker.email);
  await rejects(
    db.transaction((tx) => editReport(tx, { reportId: report.id, narrative: "changed after the approval", operator: analyst, now })),
    "suspiciousActivityReport.stateInvalid",
  );
  const filed = await db.transaction((tx) => fileReport(tx, { reportId: report.id, authorityReference: "BSA-31000123456789", operator: analyst, now }));
  assert.equal(filed.status, "FILED");
  assert.equal(filed.authorityReference, "BSA-31000123456789");
  await rejects(
    db.transaction((tx) => fileReport(tx, { reportId: report.id, authorityReference: "again", operator: analyst, now })),
    "suspiciousActivityReport.stateInvalid",
  );
  assert.equal(reportJson(filed).authorityReference, "BSA-31000123456789");
  const csv = reportCsv(filed).split("\r\n");
  assert.match(csv[0], /^report_id,case_id,status,customer_id,/);
  assert.match(csv[1], new RegExp(`^${report.id},${caseId},FILED,${owner.customerId},`));
  assert.match(csv[1], /200 USD \(2\)/);
  assert.equal(reportJson(filed).approvedBy, checker.email);

  // Kept: the database refuses a delete, a change to a filed report, and a change to a note.
  assert.match(await refusal(db.delete(suspiciousActivityReports).where(eq(suspiciousActivityReports.id, report.id))), /kept: no delete/);
  assert.match(await refusal(db.update(suspiciousActivityReports).set({ narrative: "x" }).where(eq(suspiciousActivityReports.id, report.id))), /filed report/);
  assert.match(await refusal(db.update(complianceCaseNotes).set({ body: "x" }).where(eq(complianceCaseNotes.caseId, caseId))), /append-only/);
  assert.equal((await db.select().from(transfers).where(eq(transfers.id, t1.id)))[0].state, "registered", "closing moves no transfer");
});

test("a screening case opening raises SCREENING_CASE, and a rescreen's exact match LIST_HIT, in the customer's case", async () => {
  const owner = await newSubscription(db);
  const { raiseCase } = await import("@/lib/compliance/screening-cases/cases");
  const subject = { subjectType: "customer" as const, subjectId: owner.customerId, customerId: owner.customerId };
  const outcome = (entryId: string, result: "CLOSE_MATCH" | "HIT") =>
    ({
      result,
      evidence: [{ list: "sandbox-watchlist", entryId, listVersionId: null, entryName: "RUIZ, Anna", programs: ["SDGT"], result, score: "0.9" }],
      listVersions: {},
    }) as never;
  const opened = await db.transaction((tx) => raiseCase(tx, subject, outcome("e1", "CLOSE_MATCH"), clock.now()));
  await db.transaction((tx) => raiseCase(tx, subject, outcome("e2", "HIT"), clock.now()));
  const [complianceCase] = await casesOf(owner.customerId);
  assert.deepEqual(
    (await alertsOf(owner.customerId)).map((a) => [a.kind, a.screeningCaseId, a.caseId, a.summary]),
    [
      ["SCREENING_CASE", opened!.id, complianceCase.id, "Close match of the customer: RUIZ, Anna"],
      ["LIST_HIT", opened!.id, complianceCase.id, "Exact match of the customer: RUIZ, Anna"],
    ],
  );
});

test("an analyst clears a customer's risk flag with a reason: the flag's history is kept, and it may be set again", async () => {
  const owner = await newSubscription(db);
  const flagsOf = () => db.select().from(customerRiskFlags).where(eq(customerRiskFlags.customerId, owner.customerId)).orderBy(asc(customerRiskFlags.createdAt));
  const setAt = new Date("2026-11-01T08:00:00Z");
  await db.transaction((tx) => setRiskFlag(tx, { customerId: owner.customerId, flag: "HIGH_RISK", by: "cases-other@example.com", now: setAt }));
  await db.transaction((tx) => setRiskFlag(tx, { customerId: owner.customerId, flag: "HIGH_RISK", by: "cases-other@example.com", now: setAt }));
  const [standing] = await flagsOf();
  assert.equal((await flagsOf()).length, 1, "set once while it stands");

  const other = await newSubscription(db);
  await rejects(
    db.transaction((tx) => clearRiskFlag(tx, { customerId: other.customerId, flagId: standing.id, reason: "not theirs", operator: analyst, now: setAt })),
    "riskFlag.notFound",
  );
  const clearedAt = new Date("2026-11-02T09:00:00Z");
  const cleared = await db.transaction((tx) =>
    clearRiskFlag(tx, { customerId: owner.customerId, flagId: standing.id, reason: "Adverse media was about a namesake", operator: analyst, now: clearedAt }),
  );
  assert.deepEqual(
    [cleared.clearedAt?.toISOString(), cleared.clearedById, cleared.clearedByEmail, cleared.clearReason],
    [clearedAt.toISOString(), analyst.id, analyst.email, "Adverse media was about a namesake"],
  );
  await rejects(
    db.transaction((tx) => clearRiskFlag(tx, { customerId: owner.customerId, flagId: standing.id, reason: "again", operator: analyst, now: clearedAt })),
    "riskFlag.stateInvalid",
  );

  // Set again later: a new standing flag beside the cleared one, which is kept.
  const again = new Date("2026-11-10T08:00:00Z");
  await db.transaction((tx) => setRiskFlag(tx, { customerId: owner.customerId, flag: "HIGH_RISK", by: "cases-other@example.com", now: again }));
  assert.deepEqual(
    (await flagsOf()).map((f) => [f.flag, f.createdAt.toISOString(), f.clearedByEmail]),
    [
      ["HIGH_RISK", setAt.toISOString(), analyst.email],
      ["HIGH_RISK", again.toISOString(), null],
    ],
  );
  const { complianceOfCustomer } = await import("@/lib/compliance/cases/queries");
  assert.equal((await complianceOfCustomer(db, owner.customerId)).flags.length, 2, "the customer's page reads the history");

  // The history is kept: the database refuses a delete and any change to a cleared flag.
  assert.match(await refusal(db.delete(customerRiskFlags).where(eq(customerRiskFlags.id, standing.id))), /kept: no delete/);
  assert.match(await refusal(db.update(customerRiskFlags).set({ clearReason: "rewritten" }).where(eq(customerRiskFlags.id, standing.id))), /cleared flag/);
  const [live] = (await flagsOf()).filter((f) => !f.clearedAt);
  assert.match(await refusal(db.update(customerRiskFlags).set({ flag: "PEP" }).where(eq(customerRiskFlags.id, live.id))), /only clearing/);
});

test("four eyes on a report through the commands: its drafter is refused the approval, a second analyst approves and it is filed", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const drafter = { id: "op_analyst", email: "cases-analyst@example.com", name: "Drafter", role: "reviewer" as const };
  const second = { id: "op_other", email: "cases-other@example.com", name: "Second", role: "reviewer" as const };
  const owner = await newSubscription(db);
  const now = clock.now();
  const { case: opened } = await db.transaction((tx) => raiseAlert(tx, { customerId: owner.customerId, kind: "REVIEW_RULE", summary: "amount", now }));
  await db.transaction((tx) => investigateCase(tx, { caseId: opened!.id, operator: drafter, now }));
  const { report } = await db.transaction((tx) =>
    closeCase(tx, { caseId: opened!.id, outcome: "RISK_CONFIRMED", narrative: "Funds far above the declared income.", operator: drafter, now }),
  );
  const run = (name: string, input: unknown, operator: typeof drafter) =>
    db.transaction((tx) => act(tx, name, input, { operator, reason: "four eyes", now: clock.now() }));
  await rejects(run("suspiciousActivityReport.approve", { reportId: report!.id }, drafter), "suspiciousActivityReport.selfApproval");
  await rejects(run("suspiciousActivityReport.file", { reportId: report!.id, authorityReference: "BSA-1" }, second), "suspiciousActivityReport.stateInvalid");
  assert.equal((await run("suspiciousActivityReport.approve", { reportId: report!.id }, second)).kind, "performed");
  assert.equal((await run("suspiciousActivityReport.file", { reportId: report!.id, authorityReference: "BSA-31000555" }, drafter)).kind, "performed");
  const [filed] = await db.select().from(suspiciousActivityReports).where(eq(suspiciousActivityReports.id, report!.id));
  assert.deepEqual(
    [filed.status, filed.draftedByEmail, filed.approvedByEmail, filed.authorityReference],
    ["FILED", drafter.email, second.email, "BSA-31000555"],
  );
  const [audit] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "suspiciousActivityReport.approve"), eq(auditLog.targetId, report!.id)));
  assert.equal(audit.operatorEmail, second.email);
});
