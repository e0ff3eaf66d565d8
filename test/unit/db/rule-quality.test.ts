/**
 * Rule quality: per typology over the last 90 days, the alerts monitoring raised, those whose case
 * closed as risk confirmed or as a false positive, and the precision (confirmed over closed); an
 * alert older than 90 days is not counted, one still in an open case counts as an alert only. A
 * draft's backtest says, per typology, how many transfers it would hold and how analysts judged
 * them. Its own database (the figures read every alert). On PGlite, and on PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { complianceAlerts, operators } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { checker, maker } from "../../support/commands";
import { freshDb } from "../../support/db";
import { ago, monitoringHelpers } from "../../support/monitoring";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
  for (const o of [maker, checker])
    await db
      .insert(operators)
      .values({ id: o.id, email: o.email, name: o.name, role: o.role, passwordHash: "-", createdAt: clock.now() })
      .onConflictDoNothing();
});
after(() => close());

const { sender, transfer, expectHeld, expectPassed } = monitoringHelpers(() => db);

/** A sender structuring 899 + 899 USD on one day: the second is held, opening a case; the case's id. */
async function structured(): Promise<{ caseId: string; evaluationId: string }> {
  const s = await sender();
  await expectPassed((await transfer(s, { amount: "899.00", at: ago(5) })).transferId, "structuring");
  const held = await expectHeld((await transfer(s, { amount: "899.00" })).transferId, "structuring");
  return { caseId: held.alerts[0].caseId!, evaluationId: held.evaluation.id };
}

test("per typology: alerts, risk confirmed, false positives and precision over the last 90 days; the draft's backtest judges its holds", async () => {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { investigateCase, closeCase } = await import("@/lib/compliance/cases/cases");
  const { ruleQuality, precisionOf } = await import("@/lib/compliance/monitoring/quality");
  const close = (caseId: string, outcome: "RISK_CONFIRMED" | "FALSE_POSITIVE") =>
    inUnit(
      async ({ tx, now }) => {
        await investigateCase(tx, { caseId, operator: maker, now });
        await closeCase(tx, { caseId, outcome, narrative: "Judged.", operator: maker, now });
      },
      { db },
    );
  const confirmed = await structured();
  const falsePositive = await structured();
  await structured(); // its case stays open
  await close(confirmed.caseId, "RISK_CONFIRMED");
  await close(falsePositive.caseId, "FALSE_POSITIVE");

  // An alert of 100 days ago (its case closed as a false positive) is outside the window.
  const old = await structured();
  await db
    .update(complianceAlerts)
    .set({ raisedAt: ago(100 * 24) })
    .where(eq(complianceAlerts.evaluationId, old.evaluationId));
  await close(old.caseId, "FALSE_POSITIVE");

  assert.deepEqual(await ruleQuality(db, clock.now()), [{ typology: "structuring", alerts: 3, confirmed: 1, falsePositive: 1, precision: "0.5000" }]);
  assert.equal(precisionOf(2, 1), "0.6667");
  assert.equal(precisionOf(1, 0), "1.0000");
  assert.equal(precisionOf(0, 0), null);

  // A draft (the live pack again) backtested: it would hold the four second transfers; analysts judged three of them.
  const { activeRuleSet, draftRuleSet } = await import("@/lib/compliance/monitoring/rule-sets");
  const { backtestRuleSet } = await import("@/lib/compliance/monitoring/backtest");
  const live = await activeRuleSet(db);
  const summary = await inUnit(
    async ({ tx, now }) => {
      const draft = await draftRuleSet(tx, maker, { document: JSON.stringify(live!.document), note: "same" }, now);
      return backtestRuleSet(tx, draft.id, now);
    },
    { db },
  );
  assert.deepEqual(summary.byTypology?.structuring, { held: 4, confirmed: 1, falsePositive: 2 });
  assert.deepEqual(summary.byTypology?.sender_velocity, { held: 0, confirmed: 0, falsePositive: 0 });
});
