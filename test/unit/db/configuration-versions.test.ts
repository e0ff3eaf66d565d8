/**
 * Corridors and prices as versioned data, on the database: a fresh database holds the shipped
 * corridors as version 1; a new price is proposed by one admin and approved by another, takes
 * effect at its effective time (a quote before it is priced under version 1, one after under the
 * new one, each recording its version, and each accepted against its own); a later version with an
 * earlier effective time supersedes one not yet in force; a stored version cannot be edited or
 * deleted; an exported version imports as an identical one.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog, configurationVersions, customers, partners, proposals } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
const maker: Operator = { id: "op_config_maker", email: "config.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_config_checker", email: "config.checker@example.com", name: "Checker", role: "admin" };

// A database of its own on PostgreSQL: the versions published here would price other files' quotes.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

const HOUR = 3_600_000;

/** The latest version's document with `changes` applied to one corridor. */
async function documentWith(code: string, changes: Record<string, unknown>) {
  const { latestTable, storedVersion } = await import("@/lib/payments/corridors/versions");
  const doc = structuredClone(storedVersion(latestTable().version)!.document) as { corridors: Record<string, unknown>[] };
  doc.corridors = doc.corridors.map((c) => (c.code === code ? { ...c, ...changes } : c));
  return doc;
}

/** Proposed by the maker, approved by the checker; the version row written. */
async function publish(document: Record<string, unknown>, effectiveAt: Date, note = "New prices for the autumn") {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const input = { document, effectiveAt: effectiveAt.toISOString(), note };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed", "a configuration version waits for a second admin");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  const approved = await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });
  // What every reader does before it selects (quote creation: when the version number it reads is new to it).
  const { refreshVersions } = await import("@/lib/payments/corridors/versions");
  await refreshVersions(db);
  return { proposal, approved };
}

test("a fresh database holds the shipped corridors as version 1, in force from the start", async () => {
  const { seedDocument, tableInForce } = await import("@/lib/payments/corridors/versions");
  const rows = await db.select().from(configurationVersions);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].version, 1);
  assert.deepEqual(rows[0].document, seedDocument());
  assert.equal(rows[0].effectiveAt.getTime(), 0);
  const table = tableInForce(clock.now());
  assert.equal(table.version, 1);
  assert.deepEqual(
    table.corridors.map((c) => [c.code, c.principalFee.toFixed(2)]),
    [
      ["US-MX", "2.99"],
      ["US-PH", "2.99"],
      ["GB-NG", "1.99"],
      ["FR-SN", "2.50"],
      ["ES-CO", "2.50"],
    ],
  );
});

test("an invalid document or a past effective time is refused when proposed, at its field", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const propose = async (document: Record<string, unknown>, effectiveAt: Date) =>
    inUnit(
      ({ tx }) =>
        act(tx, "configuration.version.publish", { document, effectiveAt: effectiveAt.toISOString(), note: "try" }, { operator: maker, now: clock.now() }),
      {
        db,
      },
    );
  await assert.rejects(propose(await documentWith("US-MX", { principalFee: "2.999" }), new Date(clock.nowMs() + HOUR)), (e: unknown) => {
    const issues = (e as { details: { issues: { field: string; message: string }[] } }).details.issues;
    assert.deepEqual(
      issues.map((i) => i.field),
      ["US-MX.principalFee"],
    );
    assert.match(issues[0].message, /more decimals than USD has/);
    return true;
  });
  await assert.rejects(propose(await documentWith("US-MX", { principalFee: "3.49" }), new Date(clock.nowMs() - 2 * HOUR)), /effective time is in the past/);
  await assert.rejects(propose(await documentWith("US-MX", {}), new Date(clock.nowMs() + HOUR)), /Nothing differs from version 1/);
  assert.equal((await db.select().from(proposals).where(eq(proposals.action, "configuration.version.publish"))).length, 0);
});

test("a new price takes effect at its effective time: quotes before and after record and are accepted under their own version", async () => {
  const { createQuote } = await import("@/lib/payments/quotes/create");
  const { tableInForce } = await import("@/lib/payments/corridors/versions");
  const { corridorOfQuote } = await import("@/lib/payments/corridors/corridors");
  const { checkEnvelope } = await import("@/lib/payments/pricing/envelope");
  const { envelopeTermsOfColumns } = await import("@/lib/payments/pricing/priced-columns");
  const { referenceRates } = await import("@/lib/payments/pricing/rate-store");

  const effectiveAt = new Date(clock.nowMs() + HOUR);
  const { proposal, approved } = await publish(await documentWith("US-MX", { principalFee: "3.49" }), effectiveAt);
  assert.match(proposal.summary, /^Configuration version 2 from .*: US-MX\.principalFee$/);
  // The approver's preview: a 100 USD quote under each price.
  assert.match(String(proposal.before?.["preview US-MX"]), /^100\.00 USD to MXN: fee 2\.99 USD, rate [\d.]+, receives [\d.]+ MXN, pays 102\.99 USD$/);
  assert.match(String(proposal.proposed?.["preview US-MX"]), /^100\.00 USD to MXN: fee 3\.49 USD, rate [\d.]+, receives [\d.]+ MXN, pays 103\.49 USD$/);
  assert.equal(approved.performed.notice, `Configuration version 2 approved: in force from ${effectiveAt.toISOString()}.`);

  const [row] = await db.select().from(configurationVersions).where(eq(configurationVersions.version, 2));
  assert.deepEqual(
    [row.proposedByEmail, row.approvedByEmail, row.proposalId, row.effectiveAt.getTime()],
    [maker.email, checker.email, proposal.id, effectiveAt.getTime()],
  );
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "configuration.version.publish"));
  assert.equal(audit.operatorId, checker.id);
  assert.equal((audit.after as { proposedBy: string }).proposedBy, maker.email);

  assert.equal(tableInForce(new Date(effectiveAt.getTime() - 1)).version, 1);
  assert.equal(tableInForce(effectiveAt).version, 2);

  const owner = await newSubscription(db);
  await db
    .update(customers)
    .set({ profile: { residenceCountry: "USA" } })
    .where(eq(customers.id, owner.customerId));
  const [partner] = await db.select().from(partners).where(eq(partners.id, owner.partnerId));
  const beneficiaryId = (await registeredTransfer(db, owner)).beneficiaryId;
  const quoteAt = (now: Date) =>
    db.transaction((tx) =>
      createQuote(tx, {
        partner,
        subscriptionId: owner.subscriptionId,
        customerId: owner.customerId,
        req: { originAmount: "100.00", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId },
        now,
      }),
    );
  const beforeIt = await quoteAt(new Date(effectiveAt.getTime() - 60_000));
  const afterIt = await quoteAt(new Date(effectiveAt.getTime() + 60_000));
  assert.equal(beforeIt.principalFee, "2.990000");
  assert.equal(afterIt.principalFee, "3.490000");
  const stored = async (id: string) => (await db.execute(sql`select corridor, corridor_data_version from quotes where id = ${id}`)) as unknown;
  const { rowsOf } = await import("@/db");
  const [q1] = rowsOf<{ corridor: string; corridor_data_version: string }>(await stored(beforeIt.quoteId));
  const [q2] = rowsOf<{ corridor: string; corridor_data_version: string }>(await stored(afterIt.quoteId));
  assert.deepEqual([q1.corridor_data_version, q2.corridor_data_version], ["1", "2"]);

  // Accepted after the new price took effect, the older quote is still inside its own version's envelope.
  const rates = await referenceRates(db);
  const later = new Date(effectiveAt.getTime() + 120_000);
  const terms = (q: typeof beforeIt) => envelopeTermsOfColumns({ ...q, originCurrency: "USD", destinationCurrency: "MXN" });
  checkEnvelope(terms(beforeIt), corridorOfQuote({ corridor: q1.corridor, corridorDataVersion: q1.corridor_data_version })!, later, rates);
  checkEnvelope(terms(afterIt), corridorOfQuote({ corridor: q2.corridor, corridorDataVersion: q2.corridor_data_version })!, later, rates);
  assert.throws(() => checkEnvelope(terms(beforeIt), corridorOfQuote({ corridor: "US-MX", corridorDataVersion: "2" })!, later, rates), {
    code: "quote.envelopeBreach",
  });
});

test("a later version with an earlier effective time supersedes one not yet in force", async () => {
  const { tableInForce, latestTable } = await import("@/lib/payments/corridors/versions");
  const v2At = (await db.select().from(configurationVersions).where(eq(configurationVersions.version, 2)))[0].effectiveAt;
  const soon = new Date(clock.nowMs() + 10 * 60_000);
  assert.ok(soon < v2At);
  await publish(await documentWith("US-MX", { principalFee: "3.29" }), soon, "Cheaper, sooner");
  assert.equal(latestTable().version, 3);
  assert.equal(tableInForce(new Date(soon.getTime() - 1)).version, 1);
  assert.equal(tableInForce(soon).version, 3);
  assert.equal(tableInForce(v2At).version, 3, "version 3 is the highest in force: version 2 never applies");
  assert.equal(tableInForce(v2At).byCode.get("US-MX")!.principalFee.toFixed(2), "3.29");
});

test("a stored version is never edited nor deleted", async () => {
  const refused = (e: unknown) => /never changed/.test(String((e as Error).cause ?? e));
  await assert.rejects(db.execute(sql`update configuration_versions set note = 'rewritten' where version = 1`), refused);
  await assert.rejects(db.execute(sql`delete from configuration_versions where version = 1`), refused);
  const [row] = await db.select().from(configurationVersions).where(eq(configurationVersions.version, 1));
  assert.notEqual(row.note, "rewritten");
});

test("export then import: the same schema reads the exported version, and it becomes an identical new version", async () => {
  const { exportVersion } = await import("@/lib/payments/corridors/versions");
  const { checkDocument, diffDocuments } = await import("@/lib/payments/corridors/changes");
  const exported = await exportVersion(db, 1);
  assert.ok(exported);
  const text = JSON.stringify(exported);
  const imported = JSON.parse(text) as Record<string, unknown>;
  assert.equal(imported.version, 1);
  checkDocument(imported);
  await publish(imported, new Date(clock.nowMs() + 30 * 60_000), "Back to the shipped prices");
  const [v1] = await db.select().from(configurationVersions).where(eq(configurationVersions.version, 1));
  const [v4] = await db.select().from(configurationVersions).where(eq(configurationVersions.version, 4));
  assert.deepEqual(diffDocuments(v1.document, v4.document), []);
  // A corrupted export is refused at its field.
  const broken = structuredClone(imported) as { corridors: Record<string, unknown>[] };
  broken.corridors[1].fxTolerance = "0.5";
  assert.throws(
    () => checkDocument(broken),
    (e: unknown) => {
      assert.equal((e as { details: { issues: { field: string }[] } }).details.issues[0].field, "US-PH.fxTolerance");
      return true;
    },
  );
});
