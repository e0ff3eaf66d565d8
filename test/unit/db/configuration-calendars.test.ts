/**
 * Business-day calendars as versioned configuration, on the database: a version closing a day the
 * holiday table leaves open (and opening one it closes) changes every reader of business days from
 * its effective time, and not before; its problems are refused at their fields; the console's form
 * writes and reads the changes.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@/db";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
const maker: Operator = { id: "op_calendar_maker", email: "calendar.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_calendar_checker", email: "calendar.checker@example.com", name: "Checker", role: "admin" };

// A database of its own on PostgreSQL: the version published here changes other files' business days.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => {
  clock.reset();
  return close();
});

test("a version's calendar changes move business days from its effective time, not before", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, refreshVersions, storedVersion } = await import("@/lib/payments/corridors/versions");
  const { businessDayFrom, isBusinessDay } = await import("@/lib/payments/delivery/business-calendar");
  await refreshVersions(db);
  // Tuesday 5 January 2027 is a Mexican business day; Friday 1 January (New Year) is not.
  assert.deepEqual([isBusinessDay("MX", "2027-01-05"), isBusinessDay("MX", "2027-01-01")], [true, false]);

  const effectiveAt = new Date(clock.now().getTime() + 3_600_000);
  const document = { ...structuredClone(storedVersion(latestTable().version)!.document), calendars: { MX: { closed: ["2027-01-05"], open: ["2027-01-01"] } } };
  const input = { document, effectiveAt: effectiveAt.toISOString(), note: "Banks closed on the 5th, open on New Year" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  assert.deepEqual([proposal.before?.["calendars.MX.closed"], proposal.proposed?.["calendars.MX.closed"]], [null, '["2027-01-05"]']);
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });
  await refreshVersions(db);

  assert.equal(businessDayFrom("MX", "2027-01-05"), "2027-01-05", "before its effective time: the holiday table alone");
  clock.advance(effectiveAt.getTime() - clock.now().getTime() + 1000);
  assert.deepEqual([isBusinessDay("MX", "2027-01-05"), isBusinessDay("MX", "2027-01-01")], [false, true]);
  assert.equal(businessDayFrom("MX", "2027-01-05"), "2027-01-06");
  assert.equal(isBusinessDay("GT", "2027-01-05"), true, "another country's days are the table's");
});

test("calendar changes: problems at their fields; the console's form writes and reads them", async () => {
  const { calendarText, documentProblems, withCalendars } = await import("@/lib/payments/corridors/changes");
  const { seedDocument } = await import("@/lib/payments/corridors/versions");
  const problems = (calendars: unknown) => documentProblems({ ...seedDocument(), calendars }).map((p) => p.field);
  assert.deepEqual(problems({ XX: { closed: ["2027-01-05"] } }), ["calendars.XX"]);
  assert.deepEqual(problems({ MX: { closed: ["2027-02-30"] } }), ["calendars.MX.closed.0"]);
  assert.deepEqual(problems({ MX: { closed: ["2027-01-05"], open: ["2027-01-05"] } }), ["calendars.MX.open.0"]);

  const doc = withCalendars(seedDocument(), "mx closed 2027-01-05, 2027-01-06\nDE open 2026-12-24");
  assert.deepEqual(doc.calendars, { MX: { closed: ["2027-01-05", "2027-01-06"] }, DE: { open: ["2026-12-24"] } });
  assert.deepEqual(documentProblems(doc), []);
  assert.equal(calendarText(doc), "MX closed 2027-01-05, 2027-01-06\nDE open 2026-12-24");
  assert.equal("calendars" in withCalendars(doc, ""), false, "no line: the holiday table alone");
});
