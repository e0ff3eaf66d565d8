/**
 * An export file is named for the time it covers, not the day it was made (the
 * general ledger of October exported on 28 November was general-ledger-2026-11-28.csv).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { exportFileName, parseExportRange } from "@/lib/operations/console/export-range";

const exportedOn = new Date("2026-11-28T19:00:00Z");
const nameOf = (query: string) => exportFileName("gl", parseExportRange(new URLSearchParams(query)), exportedOn);

test("a month, days, one day, and everything up to the export each carry the period they cover", () => {
  assert.equal(nameOf("period=2026-10"), "gl-2026-10.csv");
  assert.equal(nameOf("period=2026-12"), "gl-2026-12.csv", "a month to come is still its own name");
  assert.equal(nameOf("from=2026-10-01&to=2026-11-01"), "gl-2026-10.csv", "from/to spanning a calendar month is that month");
  assert.equal(nameOf("from=2026-10-01&to=2026-10-15"), "gl-2026-10-01_2026-10-14.csv", "to is exclusive: the last day covered is the 14th");
  assert.equal(nameOf("from=2026-10-05&to=2026-10-06"), "gl-2026-10-05.csv");
  assert.equal(nameOf("from=2026-10-05T09:00:00Z&to=2026-10-05T17:00:00Z"), "gl-2026-10-05.csv");
  assert.equal(nameOf("from=2026-11-01"), "gl-2026-11-01_2026-11-28.csv", "from a day up to the export");
  assert.equal(nameOf("to=2026-11-01"), "gl-until-2026-10-31.csv");
  assert.equal(nameOf(""), "gl-until-2026-11-28.csv", "everything, up to the export");
  assert.equal(
    exportFileName("bank-reconciliation", { from: new Date("2026-11-03T00:00:00Z"), to: new Date("2026-11-21T00:00:00Z") }, exportedOn),
    "bank-reconciliation-2026-11-03_2026-11-20.csv",
  );
});
