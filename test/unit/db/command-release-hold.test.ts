/**
 * The releaseHold command (lib/operations/commands/transfers.ts), as the console's Holds queue asks for it:
 * a small hold is released at once by one reviewer, back to the state it was held in, with one
 * audit entry (before/after, the reason); a large one becomes a proposal (the command's name and
 * input) that a second reviewer's approval runs; a transfer that is not there is a 404 and nothing
 * is written.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { proposals } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { freshDbWithOwner } from "../../support/db";
import { auditOf, checker, maker, transferIn, transferState } from "../../support/commands";
import type { Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close, owner } = await freshDbWithOwner());
});
after(() => close());

async function lib() {
  const { execute } = await import("@/lib/operations/commands/run");
  const { releaseHold } = await import("@/lib/operations/commands/transfers");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return { execute, releaseHold, approve, inUnit };
}

test("a 100 USD hold is released at once by one reviewer, back to validated, audited with before, after and the reason", async () => {
  const { execute, releaseHold, inUnit } = await lib();
  const transferId = await transferIn(db, owner, { hold: true });
  assert.deepEqual(await transferState(db, transferId), { s: "spended", prior: "validated" });
  const acted = await inUnit(({ tx, now }) => execute(tx, releaseHold, { transferId }, { operator: maker, reason: "Documents seen", now }), { db });
  assert.equal(acted.kind, "performed");
  assert.equal((await transferState(db, transferId)).s, "validated");
  const [entry, ...more] = await auditOf(db, "transfer.hold.restore", transferId);
  assert.equal(more.length, 0);
  assert.deepEqual(
    { by: entry.operatorEmail, before: entry.before, after: entry.after, reason: entry.reason },
    { by: maker.email, before: { state: "spended", priorState: "validated" }, after: { state: "validated" }, reason: "Documents seen" },
  );
});

test("a 5,000 USD hold is proposed under the command's name and input; a second reviewer's approval releases it", async () => {
  const { execute, releaseHold, approve, inUnit } = await lib();
  const transferId = await transferIn(db, owner, { amount: "5000.000000", hold: true });
  const acted = await inUnit(({ tx, now }) => execute(tx, releaseHold, { transferId }, { operator: maker, reason: "Source of funds seen", now }), { db });
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  const [row] = await db.select().from(proposals).where(eq(proposals.id, proposalId));
  assert.deepEqual({ action: row.action, payload: row.payload }, { action: "transfer.hold.restore", payload: { transferId } });
  assert.equal((await transferState(db, transferId)).s, "spended", "nothing changes until approval");
  assert.equal((await auditOf(db, "transfer.hold.restore", transferId)).length, 0);

  await inUnit(({ tx, now }) => approve(tx, proposalId, { operator: checker, reason: "Agreed", now }), { db });
  assert.equal((await transferState(db, transferId)).s, "validated");
  const [entry] = await auditOf(db, "transfer.hold.restore", transferId);
  assert.equal(entry.operatorEmail, checker.email);
  assert.equal(entry.reason, "Source of funds seen");
  assert.equal((entry.after as { proposedBy: string }).proposedBy, maker.email);
});

test("a transfer that is not there is a 404 transfer.notFound, and no audit entry is written", async () => {
  const { execute, releaseHold, inUnit } = await lib();
  await assert.rejects(
    inUnit(({ tx, now }) => execute(tx, releaseHold, { transferId: "trf_missing" }, { operator: maker, reason: "Typo", now }), { db }),
    (e: unknown) => e instanceof DomainError && e.code === "transfer.notFound",
  );
  assert.equal((await auditOf(db, "transfer.hold.restore", "trf_missing")).length, 0);
});
