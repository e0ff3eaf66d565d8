/**
 * Account requirements (the payout identifiers' formats per country, currency and method) in a
 * configuration version, on the database: a version's own list replaces the shipped file's from its
 * effective time for GET /v1/core/account-requirements and for submit, while a transfer accepted
 * under an earlier version keeps that version's formats; problems are refused at their fields.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@/db";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import rawRequirements from "@/data/account-requirements/v1.json";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
const maker: Operator = { id: "op_requirements_maker", email: "requirements.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_requirements_checker", email: "requirements.checker@example.com", name: "Checker", role: "admin" };

// A database of its own on PostgreSQL: the version published here changes other files' formats.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

const IBAN = "DE89370400440532013000";
const CLABE_ONLY = "^[0-9]{18}$";

/** The shipped requirements with US-MX bank accounts by CLABE only (no IBAN). */
function clabeOnly(): Record<string, unknown>[] {
  const requirements = structuredClone(rawRequirements.requirements) as {
    corridor: string;
    method: string;
    fields: { key: string; regex?: string; description?: string }[];
  }[];
  const usMx = requirements.find((r) => r.corridor === "US-MX" && r.method === "bank_account")!;
  const field = usMx.fields.find((f) => f.key === "destinationIdentifier")!;
  field.regex = CLABE_ONLY;
  field.description = "an 18-digit CLABE";
  return requirements;
}

test("a version's account requirements replace the file's for readers and submit from its effective time; a transfer keeps its version's", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, refreshVersions, storedVersion } = await import("@/lib/payments/corridors/versions");
  const { destinationIssue, requirementFor } = await import("@/lib/payments/payout-identifiers/account-requirements");
  await refreshVersions(db);
  assert.equal(destinationIssue("US-MX", "bank_account", IBAN), null, "the shipped file takes an IBAN");

  const document = { ...structuredClone(storedVersion(latestTable().version)!.document), accountRequirements: clabeOnly() };
  const input = { document, effectiveAt: clock.now().toISOString(), note: "Mexico: CLABE only" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  assert.match(String(proposal.proposed?.["accountRequirements.US-MX.bank_account"]), /\^\[0-9\]\{18\}\$/);
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });
  await refreshVersions(db);

  const field = requirementFor("MEX", "MXN", "bank_account")?.fields.find((f) => f.key === "destinationIdentifier");
  assert.equal(field?.regex, CLABE_ONLY, "GET /v1/core/account-requirements answers the version's");
  assert.match(destinationIssue("US-MX", "bank_account", IBAN)?.message ?? "", /must be an 18-digit CLABE/);
  assert.equal(destinationIssue("US-MX", "bank_account", IBAN, 1), null, "a transfer accepted under version 1 keeps its formats");
  assert.equal(destinationIssue("US-MX", "bank_account", "002010077777777771"), null);
});

test("account requirements: problems at their fields", async () => {
  const { documentProblems } = await import("@/lib/payments/corridors/changes");
  const { seedDocument } = await import("@/lib/payments/corridors/versions");
  const problems = (change: (r: Record<string, unknown>[]) => void) => {
    const requirements = clabeOnly();
    change(requirements);
    return documentProblems({ ...seedDocument(), accountRequirements: requirements }).map((p) => p.field);
  };
  assert.deepEqual(
    problems(() => {}),
    [],
  );
  assert.deepEqual(
    problems((r) => (r[0].corridor = "US-XX")),
    ["accountRequirements.0.corridor"],
  );
  assert.deepEqual(
    problems((r) => (r[0].method = "wallet_transfer")),
    ["accountRequirements.0.method"],
  );
  assert.deepEqual(
    problems((r) => ((r[0].fields as { key: string; regex?: string }[])[1].regex = "([")),
    ["accountRequirements.0.fields.1.regex"],
  );
});
