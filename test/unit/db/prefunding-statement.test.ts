/**
 * Prefunding reconciled from the provider's statement (PGlite; PostgreSQL with TEST_DB_URL, a
 * database of its own): the aggregator's statement file imported through its command, each
 * currency set against our prefunding account at the statement's time; the difference kept, the
 * latest per provider and currency read for the liquidity page, and the operations alert
 * prefunding.statementDifference firing while it is not zero; duplicates and bad files refused.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { DomainError } from "@/lib/platform/errors";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

const ADMIN = { id: "op_statement_test", email: "statements@example.test", name: "Statements", role: "admin" as const };
const HOUR = 3_600_000;
const base = Date.now();
const at = (hoursAgo: number) => new Date(base - hoursAgo * HOUR);

/** The aggregator's statement file: its id, its time, closing balances per currency. */
const statementFile = (id: string, asOf: Date, balances: Record<string, string>) =>
  JSON.stringify({
    statement_id: id,
    generated_at: asOf.toISOString(),
    balances: Object.entries(balances).map(([currency, closing_balance]) => ({ currency, closing_balance })),
  });

async function topUp(amount: string, now: Date) {
  const { topUpPrefunding } = await import("@/lib/payments/payouts/prefunding");
  await db.transaction((tx) => topUpPrefunding(tx, { provider: "aggregator", currency: "MXN", amount, bankReference: newId("ref") }, now));
}

/** The import command, as the console's upload and the CLI ask it. */
async function importStatement(text: string, provider = "aggregator") {
  const { runCommand } = await import("@/lib/operations/commands/run");
  const { importPrefundingStatementCommand } = await import("@/lib/operations/commands/payouts");
  const done = await runCommand(importPrefundingStatementCommand, { provider, name: "statement.json", text }, { operator: ADMIN });
  if (!done.ok) throw done.error;
  assert.equal(done.value.kind, "performed");
  return done.value.kind === "performed" ? done.value.performed : undefined;
}

const latest = async () => (await import("@/lib/payments/payouts/prefunding-statement")).latestPrefundingStatements(db);
async function differenceAlerts() {
  const { readOperations } = await import("@/lib/operations/observability/readings");
  const { firing } = await import("@/lib/operations/observability/alert-conditions");
  return firing(await readOperations(db, new Date()), { refreshHours: 24 }).filter((f) => f.condition === "prefunding.statementDifference");
}

describe("the provider's statement against our prefunding", () => {
  before(async () => {
    await topUp("10000.00", at(5));
  });

  test("a statement that agrees with the ledger at its time: no difference, no alert", async () => {
    const performed = await importStatement(statementFile("st-1", at(4), { MXN: "10000.00" }));
    assert.match(performed!.notice, /MXN statement 10000\.00, ours 10000\.00, difference 0\.00/);
    const rows = await latest();
    assert.deepEqual(
      rows.map((r) => [r.provider, r.currency, r.reference, r.statement, r.ledger, r.difference, r.differs]),
      [["aggregator", "MXN", "st-1", "10000.00", "10000.00", "0.00", false]],
    );
    assert.deepEqual(await differenceAlerts(), []);
  });

  test("the ledger is read at the statement's time: a top-up after it is not counted; a shortfall is a difference, shown and alerted", async () => {
    // A top-up after the next statement's time: the provider cannot show it yet, and we do not count it against it.
    await topUp("500.00", at(2));
    await importStatement(statementFile("st-2", at(3), { MXN: "9950.00" }));
    const [mxn] = await latest();
    assert.deepEqual([mxn.reference, mxn.statement, mxn.ledger, mxn.difference, mxn.differs], ["st-2", "9950.00", "10000.00", "-50.00", true]);
    const alerts = await differenceAlerts();
    assert.deepEqual(
      alerts.map((a) => a.subject),
      ["aggregator:MXN"],
    );
    assert.match(alerts[0].summary, /statement st-2 .* shows 9950\.00, our prefunding 10000\.00: difference -50\.00/);
  });

  test("a later statement that agrees (the top-up included) resolves it; a currency we never prefunded shows its whole balance as the difference", async () => {
    await importStatement(statementFile("st-3", at(1), { MXN: "10500.00", PHP: "-20.00" }));
    const rows = await latest();
    assert.deepEqual(
      rows.map((r) => [r.currency, r.reference, r.statement, r.ledger, r.difference, r.differs]),
      [
        ["MXN", "st-3", "10500.00", "10500.00", "0.00", false],
        ["PHP", "st-3", "-20.00", "0.00", "-20.00", true],
      ],
    );
    assert.deepEqual(
      (await differenceAlerts()).map((a) => a.subject),
      ["aggregator:PHP"],
    );
  });

  test("the same statement again changes nothing; an older one is kept but the latest still answers", async () => {
    const again = await importStatement(statementFile("st-3", at(1), { MXN: "10500.00", PHP: "-20.00" }));
    assert.ok(again && "after" in again);
    assert.equal((again.after as { duplicates: number }).duplicates, 2);
    await importStatement(statementFile("st-0", at(4.5), { MXN: "1.00" }));
    assert.deepEqual(
      (await latest()).map((r) => [r.currency, r.reference]),
      [
        ["MXN", "st-3"],
        ["PHP", "st-3"],
      ],
    );
  });

  test("refused with nothing kept: a provider without a statement, a file outside the format, a time to come, an amount finer than the currency, a currency twice", async () => {
    const refused = async (text: string, field: string, provider = "aggregator") =>
      assert.rejects(importStatement(text, provider), (e: unknown) => {
        assert.ok(e instanceof DomainError, String(e));
        assert.equal(e.status, 400);
        assert.equal(e.code, "validation.fieldInvalid");
        assert.deepEqual(
          (e.details as { issues: { field: string }[] }).issues.map((i) => i.field),
          [field],
        );
        return true;
      });
    await refused(statementFile("st-x", at(1), { MXN: "1.00" }), "provider", "bank-file");
    await refused("not json", "statement");
    await refused(JSON.stringify({ statement_id: "st-x", balances: [] }), "statement");
    await refused(statementFile("st-x", new Date(Date.now() + HOUR), { MXN: "1.00" }), "statement");
    await refused(statementFile("st-x", at(1), { MXN: "1.005" }), "statement");
    await refused(
      JSON.stringify({
        statement_id: "st-x",
        generated_at: at(1).toISOString(),
        balances: [
          { currency: "MXN", closing_balance: "1.00" },
          { currency: "MXN", closing_balance: "2.00" },
        ],
      }),
      "statement",
    );
    assert.ok(!(await latest()).some((r) => r.reference === "st-x"));
  });
});
