/**
 * The ledger's posting API (lib/finance/ledger) on a real database (PGlite, or PostgreSQL with
 * TEST_DB_URL): a balanced entry posts once per source key, an unbalanced one is refused per
 * currency, the tables are append-only, and the reads add up.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { journalEntries } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { parseExportRange } from "@/lib/operations/console/export-range";
import { DomainError } from "@/lib/platform/errors";
import { accountBalances, journalLinesBetween, postEntry, transferEntries, trialBalance } from "@/lib/finance/ledger";
import { freshDb } from "../../support/db";
import { registeredTransfer } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(async () => close());

const now = () => clock.now();

test("a balanced entry posts its lines; the same source key again posts nothing", async () => {
  // A real transfer: journal entries and transfer accounts name it by foreign key.
  const transferId = (await registeredTransfer(db)).id;
  const sourceKey = newId("src");
  const entry = {
    sourceKey,
    kind: "funding.received",
    memo: "card payment",
    transferId,
    lines: [
      { account: "cash:card-clearing" as const, currency: "EUR", debit: 10299n },
      { account: "transfer:customer-funds" as const, currency: "EUR", credit: 10299n },
    ],
    now: now(),
  };
  const first = await db.transaction((tx) => postEntry(tx, entry));
  assert.equal(first.posted, true);
  const again = await db.transaction((tx) => postEntry(tx, { ...entry, memo: "replayed" }));
  assert.deepEqual(again, { posted: false });
  const entries = await transferEntries(db, transferId);
  assert.equal(entries.length, 1);
  assert.equal(entries[0].memo, "card payment");
  assert.deepEqual(
    entries[0].lines.map((l) => [l.account, l.accountTransferId, l.debit, l.credit]),
    [
      ["cash:card-clearing", null, 10299n, 0n],
      ["transfer:customer-funds", transferId, 0n, 10299n],
    ],
  );
  const [funds] = await accountBalances(db, { transferId });
  assert.equal(funds.balance, -10299n);
});

test("each currency balances on its own: a conversion passes through fx:conversion per currency", async () => {
  // A real transfer: journal entries and transfer accounts name it by foreign key.
  const transferId = (await registeredTransfer(db)).id;
  const ok = await db.transaction((tx) =>
    postEntry(tx, {
      sourceKey: newId("src"),
      kind: "payout.sent",
      memo: "to the payout bank",
      transferId,
      lines: [
        { account: "transfer:customer-funds", currency: "EUR", debit: 10299n },
        { account: "revenue:fees", currency: "EUR", credit: 299n },
        { account: "fx:conversion", currency: "EUR", credit: 10000n },
        { account: "fx:conversion", currency: "MXN", debit: 187550n },
        { account: "transfer:payout-in-flight", currency: "MXN", credit: 187550n },
        { account: "revenue:fees", currency: "EUR", credit: 0n }, // zero lines are dropped
      ],
      now: now(),
    }),
  );
  assert.equal(ok.posted, true);
  const entries = await transferEntries(db, transferId);
  assert.equal(entries[0].lines.length, 5);
  // Totals equal across currencies but not within one: refused, and nothing is written.
  const sourceKey = newId("src");
  await assert.rejects(
    db.transaction((tx) =>
      postEntry(tx, {
        sourceKey,
        kind: "bad",
        memo: "",
        lines: [
          { account: "cash:collection", currency: "EUR", debit: 100n },
          { account: "cash:payout-bank", currency: "USD", credit: 100n },
        ],
        now: now(),
      }),
    ),
    /unbalanced in (EUR|USD)/,
  );
  assert.equal(
    (
      await db
        .select()
        .from(journalEntries)
        .where(sql`${journalEntries.sourceKey} = ${sourceKey}`)
    ).length,
    0,
  );
});

test("malformed entries are refused: one line, a two-sided or negative line, a transfer account without a transfer", async () => {
  const post = (lines: Parameters<typeof postEntry>[1]["lines"]) =>
    db.transaction((tx) => postEntry(tx, { sourceKey: newId("src"), kind: "bad", memo: "", lines, now: now() }));
  await assert.rejects(post([{ account: "cash:collection", currency: "EUR", debit: 5n }]), /two non-zero lines/);
  await assert.rejects(
    post([
      { account: "cash:collection", currency: "EUR", debit: 5n, credit: 5n },
      { account: "suspense:unallocated", currency: "EUR", credit: 0n },
    ]),
    /two-sided/,
  );
  await assert.rejects(
    post([
      { account: "cash:collection", currency: "EUR", debit: -5n },
      { account: "suspense:unallocated", currency: "EUR", credit: -5n },
    ]),
    /negative/,
  );
  await assert.rejects(
    post([
      { account: "cash:collection", currency: "EUR", debit: 5n },
      { account: "transfer:refund-due", currency: "EUR", credit: 5n },
    ]),
    /needs a transfer id/,
  );
});

/** The database's own message, under drizzle's "Failed query" wrapper. */
async function refusal(query: Promise<unknown>): Promise<string> {
  try {
    await query;
  } catch (err) {
    return String((err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message);
  }
  return "accepted";
}

test("the ledger tables are append-only in the database", async () => {
  for (const table of ["journal_entries", "journal_lines", "ledger_accounts"]) {
    assert.match(await refusal(db.execute(sql.raw(`update ${table} set id = id`))), new RegExp(`${table} is append-only`));
    assert.match(await refusal(db.execute(sql.raw(`delete from ${table}`))), new RegExp(`${table} is append-only`));
  }
});

test("the trial balance sums to zero per currency and house accounts are shared", async () => {
  await db.transaction((tx) =>
    postEntry(tx, {
      sourceKey: newId("src"),
      kind: "bank.credit",
      memo: "unmatched credit",
      lines: [
        { account: "cash:collection", currency: "EUR", debit: 5000n },
        { account: "suspense:unallocated", currency: "EUR", credit: 5000n },
      ],
      now: now(),
    }),
  );
  // The PostgreSQL database is shared by the run's files: other tests' entries are in it too.
  const totals = await trialBalance(db);
  for (const c of ["EUR", "MXN"])
    assert.ok(
      totals.some((t) => t.currency === c),
      c,
    );
  for (const t of totals) assert.equal(t.debit, t.credit, t.currency);
  const suspense = await accountBalances(db, { code: "suspense:unallocated", currency: "EUR" });
  assert.equal(suspense.length, 1);
  assert.ok(suspense[0].credit >= 5000n);
});

test("the accountants' export reads a time range on either database; bad ?from=/?to= are refused, not ignored (issue 20 item 5)", async () => {
  // A real transfer: journal entries and transfer accounts name it by foreign key.
  const transferId = (await registeredTransfer(db)).id;
  const at = [new Date("2031-03-01T10:00:00Z"), new Date("2031-03-02T10:00:00Z"), new Date("2031-03-03T10:00:00Z")];
  for (const [i, when] of at.entries()) {
    await db.transaction((tx) =>
      postEntry(tx, {
        sourceKey: newId("src"),
        kind: `range.${i}`,
        memo: "",
        transferId,
        lines: [
          { account: "cash:card-clearing", currency: "EUR", debit: 100n },
          { account: "transfer:customer-funds", currency: "EUR", credit: 100n },
        ],
        now: when,
      }),
    );
  }
  // A Date bound in a raw SQL template was a 500 on PostgreSQL (postgres.js cannot serialise it).
  const range = parseExportRange(new URLSearchParams("from=2031-03-02&to=2031-03-03T10:00:00Z"));
  const lines = (await journalLinesBetween(db, range)).filter((l) => l.entryTransferId === transferId);
  assert.deepEqual(
    lines.map((l) => l.kind),
    ["range.1", "range.1"],
  );
  assert.equal(
    (await journalLinesBetween(db, parseExportRange(new URLSearchParams("from=2031-03-03T09:00:00%2B00:00")))).filter((l) => l.entryTransferId === transferId)
      .length,
    2,
  );
  for (const [query, field] of [
    ["from=yesterday", "from"],
    ["to=2031-13-01", "to"],
    ["from=2031-03-01T10:00:00", "from"], // a time without its offset is ambiguous
    ["from=2031-03-02&to=2031-03-01", "to"],
  ]) {
    assert.throws(
      () => parseExportRange(new URLSearchParams(query)),
      (e) => e instanceof DomainError && e.status === 400 && JSON.stringify(e.details).includes(`"field":"${field}"`) && e.message.includes(field),
      query,
    );
  }
  assert.deepEqual(parseExportRange(new URLSearchParams("")), {});
});
