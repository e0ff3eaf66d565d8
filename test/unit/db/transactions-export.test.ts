/**
 * The transactions export for an examiner (lib/payments/transfers/examiner-export.ts): a transfer created
 * in the range is a row with its parties, amounts, fees, rate, dates, state, screening results and
 * live monitoring outcome (a candidate set's evaluation is not its outcome); one outside the range
 * is not; the CSV has the same fields. PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { monitoringEvaluations, transfers } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { freshDbWithOwner } from "../../support/db";
import { registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close, owner } = await freshDbWithOwner());
});
after(() => close());

const evaluation = (transferId: string, run: "live" | "candidate", outcome: "pass" | "review", rule: string) => ({
  id: newId("meval"),
  transferId,
  customerId: owner.customerId,
  partnerId: owner.partnerId,
  ruleSetId: "mrs_test",
  ruleSetVersion: 1,
  mode: "enforce" as const,
  run,
  outcome,
  fired: [{ rule, score: 50 }],
  typologies: [],
  aggregates: {},
  suppressed: [],
  createdAt: clock.now(),
});

test("a transfer in the period is exported with its parties, money, dates, state, screening and monitoring outcome; one outside is not", async () => {
  const { transactionsBetween, transactionsCsv, TRANSACTION_EXPORT_FIELDS } = await import("@/lib/payments/transfers/examiner-export");
  const t = await registeredTransfer(db, owner);
  await db.insert(monitoringEvaluations).values([evaluation(t.id, "live", "review", "structuring"), evaluation(t.id, "candidate", "pass", "candidate-rule")]);
  const [row] = await db.select().from(transfers).where(eq(transfers.id, t.id));
  const now = clock.now();

  const rows = await transactionsBetween(db, { from: addSeconds(now, -3600), to: addSeconds(now, 3600) });
  const got = rows.find((r) => r.transferId === t.id);
  assert.ok(got, "the transfer is in its period");
  assert.equal(got.customerId, owner.customerId);
  assert.equal(got.partnerId, owner.partnerId);
  assert.equal(got.beneficiaryId, row.beneficiaryId);
  assert.ok(got.beneficiaryName && got.beneficiaryName.length > 1);
  assert.deepEqual(
    [got.originAmount, got.originCurrency, got.destinationAmount, got.destinationCurrency, got.fxRate, got.principalFee, got.partnerFee, got.totalCustomerCost],
    [row.originAmount, row.originCurrency, row.destinationAmount, row.destinationCurrency, row.fxRate, row.principalFee, row.partnerFee, row.totalCustomerCost],
  );
  assert.equal(got.state, row.state);
  assert.equal(got.createdAt, row.createdAt.toISOString());
  assert.equal(got.monitoringOutcome, "review", "the live evaluation, not the candidate's");
  assert.equal(got.monitoringRules, "structuring");
  assert.deepEqual(Object.keys(got), [...TRANSACTION_EXPORT_FIELDS]);

  const earlier = await transactionsBetween(db, { to: addSeconds(now, -3600) });
  assert.equal(
    earlier.find((r) => r.transferId === t.id),
    undefined,
    "not in an earlier period",
  );

  const lines = transactionsCsv(rows).trimEnd().split("\r\n");
  assert.equal(lines[0], TRANSACTION_EXPORT_FIELDS.join(","));
  const line = lines.find((l) => l.startsWith(`${t.id},`));
  assert.ok(line?.includes(`,${row.originAmount},${row.originCurrency},`), line);
  assert.ok(line?.endsWith(",review,enforce,structuring"), line);
});
