/**
 * Amount columns keep their text form, and the database keeps their format (migration 0037,
 * db/schema/columns.ts decimalFormat): an unsigned decimal with no exponent, sign or leading zero,
 * as lib/platform/money writes them. On PGlite, or PostgreSQL with TEST_DB_URL: a malformed amount is
 * refused, a well-formed one (or NULL) is written, and every amount column has its check, the wire
 * decimal's pattern (WIRE_DECIMAL) on that column.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { newId } from "@/db/ids";
import { refundFiles, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { WIRE_DECIMAL } from "@/lib/platform/money/decimal";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

/** PostgreSQL's check_violation, wherever the driver or drizzle puts it. */
function isCheckViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === "23514" || e.cause?.code === "23514";
}

const MALFORMED = ["-1.00", "1e3", "01.50", "1.", ".5", " 1.00", "1,50", "+1", "", "NaN", "1.00 USD"];
const WELL_FORMED = ["0", "0.5", "10.500000", "1875", "0.0000010064"];

function refundFile(controlSum: string) {
  return { id: newId("rff"), currency: "EUR", transactionCount: 1, controlSum, xmlEncrypted: "x", fileName: "f.xml", createdAt: clock.now() };
}

test("a malformed amount is refused by the database; the lib/platform/money forms are written", async () => {
  for (const amount of MALFORMED) {
    assert.equal(WIRE_DECIMAL.test(amount), false, `${JSON.stringify(amount)} is not a wire decimal either`);
    await assert.rejects(db.insert(refundFiles).values(refundFile(amount)), isCheckViolation, JSON.stringify(amount));
  }
  for (const amount of WELL_FORMED) {
    assert.ok(WIRE_DECIMAL.test(amount));
    await db.insert(refundFiles).values(refundFile(amount));
  }
});

test("a transfer's amounts: an update to a malformed amount is refused, NULL passes where the column allows it", async () => {
  const owner = await newSubscription(db);
  const transfer = await db.transaction((tx) => insertTestTransfer(tx, owner, clock.now()));
  for (const set of [{ originAmount: "-100.000000" }, { fxRate: "1.2e1" }, { totalCustomerCost: "0100.00" }, { limitAmount: "abc" }]) {
    await assert.rejects(db.update(transfers).set(set).where(eq(transfers.id, transfer.id)), isCheckViolation, JSON.stringify(set));
  }
  await db.update(transfers).set({ limitAmount: null }).where(eq(transfers.id, transfer.id));
  await db.update(transfers).set({ limitAmount: "250.000000" }).where(eq(transfers.id, transfer.id));
});

test("every amount column has its format check", async () => {
  // The text columns that hold an amount, a fee, a rate or a control sum.
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await db.execute(sql`select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type = 'text'
        and (column_name ~ '(amount|_fee|fx_rate|_cost|control_sum)$') order by 1, 2`),
  ).map((r) => `${r.table_name}.${r.column_name}`);
  const checks = new Map(
    rowsOf<{ name: string; definition: string }>(
      await db.execute(
        sql`select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where contype = 'c' and conname like '%\\_format'`,
      ),
    ).map((r) => [r.name, r.definition]),
  );
  assert.ok(columns.length >= 23, columns.join(", "));
  assert.deepEqual(
    columns.filter((c) => !checks.has(`${c.replace(".", "_")}_format`)),
    [],
  );
  // Each check is the wire decimal's pattern on its own column (not a copy naming another column or a looser pattern).
  const pattern = `'${WIRE_DECIMAL.source.replace("\\d+", "[0-9]+").replace("\\d*", "[0-9]*").replace("\\.", "[.]")}'`;
  assert.equal(pattern, "'^(0|[1-9][0-9]*)([.][0-9]+)?$'");
  for (const c of columns) {
    const definition = checks.get(`${c.replace(".", "_")}_format`) ?? "";
    assert.match(definition, new RegExp(`^CHECK \\(\\(${c.split(".")[1]} ~ `), `${c}: ${definition}`);
    assert.ok(definition.includes(pattern), `${c}: ${definition}`);
  }
});
