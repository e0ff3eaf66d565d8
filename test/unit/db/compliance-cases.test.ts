/**
 * Compliance cases (issue 22 item 6) on the database: raiseAlert opens a case per customer or
 * joins the one not yet closed, records what the alert links, writes its audit entry through the
 * unit of work, records the same alert once, keeps shadow alerts from opening anything, and two
 * alerts racing for a customer with no case make one case (PostgreSQL: two connections).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog, complianceAlerts, complianceCases } from "@/db/schema";
import { raiseAlert } from "@/lib/cases/cases";
import { clock } from "@/lib/clock";
import { inUnit } from "@/lib/platform/unit-of-work";
import { freshDb, secondConnection } from "../../support/db";
import { insertTestTransfer, newSubscription } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
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
