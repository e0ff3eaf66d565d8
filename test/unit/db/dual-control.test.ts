/**
 * Dual control on the database, through the unit of work as the console runs it:
 * releasing a 5,000 USD transfer from review is proposed, not done; its author cannot approve it;
 * a second operator's approval runs it in their transaction, with one audit entry naming both;
 * a 100 USD one is released at once; a proposal lapses after 30 days; a declined one runs nothing.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog, proposals, transfers } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
const maker: Operator = { id: "op_maker", email: "maker@example.com", name: "Maker", role: "reviewer" };
const checker: Operator = { id: "op_checker", email: "checker@example.com", name: "Checker", role: "reviewer" };
const admin: Operator = { id: "op_admin", email: "admin2@example.com", name: "Admin", role: "admin" };

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

async function lib() {
  const dc = await import("@/lib/operations/dual-control/proposals");
  const { act } = await import("@/lib/operations/commands/run");
  const { inUnit, withinUnit } = await import("@/lib/platform/unit-of-work");
  return { ...dc, act, inUnit, withinUnit };
}

/** A transfer waiting in review for `amount` USD. */
async function inReview(amount: string): Promise<string> {
  const t = await registeredTransfer(db, owner);
  const { transitionTransfer } = await import("@/lib/payments/transfers/records");
  await db.transaction(async (tx) => {
    await tx.update(transfers).set({ originAmount: amount }).where(eq(transfers.id, t.id));
    const [row] = await tx.select().from(transfers).where(eq(transfers.id, t.id));
    await transitionTransfer(tx, row, "fastCheck.review", clock.now());
  });
  return t.id;
}

const stateOf = async (id: string) => (await db.select({ s: transfers.state }).from(transfers).where(eq(transfers.id, id)))[0].s;

async function refusedWith(p: Promise<unknown>, code: string) {
  await assert.rejects(p, (e: unknown) => e instanceof DomainError && e.code === code);
}

test("a 5,000 USD release is proposed; its author is refused; a second operator's approval releases it, audited with both", async () => {
  const { act, approve, inUnit } = await lib();
  const transferId = await inReview("5000.000000");
  const now = clock.now();
  const acted = await inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: maker, reason: "Source of funds checked", now }), {
    db,
  });
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  assert.equal(await stateOf(transferId), "onreview", "nothing moves on a proposal");
  const [created] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "proposal.create"), eq(auditLog.targetId, transferId)));
  assert.equal(created.operatorId, maker.id);

  // A second proposal for the same release is refused while the first waits.
  await refusedWith(
    inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: checker, reason: "again", now }), { db }),
    "proposal.duplicate",
  );
  // Self-approval: refused, nothing written.
  await refusedWith(
    inUnit(({ tx }) => approve(tx, proposalId, { operator: maker, reason: "me", now }), { db }),
    "proposal.selfApproval",
  );
  assert.equal(await stateOf(transferId), "onreview");

  const done = await inUnit(({ tx }) => approve(tx, proposalId, { operator: checker, reason: "Agreed", now }), { db });
  assert.equal(done.proposal.state, "APPROVED");
  assert.equal(done.proposal.decidedBy, checker.id);
  assert.equal(await stateOf(transferId), "validated");
  const [entry] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "transfer.review.approve"), eq(auditLog.targetId, transferId)));
  assert.equal(entry.operatorId, checker.id, "the approver ran it");
  assert.equal(entry.reason, "Source of funds checked");
  assert.deepEqual(entry.before, { state: "onreview" });
  assert.deepEqual(
    { state: entry.after?.state, proposalId: entry.after?.proposalId, proposedBy: entry.after?.proposedBy, approvedBy: entry.after?.approvedBy },
    { state: "validated", proposalId, proposedBy: maker.email, approvedBy: checker.email },
  );
  // Decided is final.
  await refusedWith(
    inUnit(({ tx }) => approve(tx, proposalId, { operator: admin, reason: "late", now }), { db }),
    "proposal.stateInvalid",
  );
});

test("a release below 3,000 USD runs at once, audited as before", async () => {
  const { act, inUnit } = await lib();
  const transferId = await inReview("100.000000");
  const acted = await inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: maker, reason: "Fine", now: clock.now() }), { db });
  assert.equal(acted.kind, "performed");
  assert.equal(await stateOf(transferId), "validated");
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "transfer.review.approve"), eq(auditLog.targetId, transferId)));
  assert.equal(rows.length, 1);
  assert.equal(rows[0].operatorId, maker.id);
});

test("a proposal lapses after 30 days: approval is refused and it is marked LAPSED; a new one may be made", async () => {
  const { act, approve, withinUnit, inUnit, lapseDue } = await lib();
  const transferId = await inReview("4000.000000");
  const then = clock.now();
  const acted = await inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: maker, reason: "Please", now: then }), { db });
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  const late = addSeconds(then, 30 * 86_400 + 1);
  const outcome = await withinUnit(({ tx }) => approve(tx, proposalId, { operator: checker, reason: "Too late", now: late }), { db });
  assert.equal(outcome.ok, false);
  assert.equal(!outcome.ok && outcome.error.code, "proposal.stateInvalid");
  assert.equal(!outcome.ok && outcome.committed, true, "the lapse is kept");
  const [row] = await db.select().from(proposals).where(eq(proposals.id, proposalId));
  assert.equal(row.state, "LAPSED");
  assert.equal(await stateOf(transferId), "onreview");
  // Within 30 days it would have been fine: a fresh proposal now is accepted (the lapsed one no longer blocks).
  const again = await inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: maker, reason: "Again", now: late }), { db });
  assert.equal(again.kind, "proposed");
  // The sweep lapses what is past its time, and nothing else.
  const swept = await inUnit(({ tx }) => lapseDue(tx, addSeconds(late, 31 * 86_400)), { db });
  assert.ok(swept >= 1);
  const [fresh] = await db
    .select()
    .from(proposals)
    .where(eq(proposals.id, again.kind === "proposed" ? again.proposal.id : ""));
  assert.equal(fresh.state, "LAPSED");
});

test("a declined proposal runs nothing; an admin-only action refuses a reviewer's approval", async () => {
  const { act, decline, inUnit } = await lib();
  const transferId = await inReview("9000.000000");
  const now = clock.now();
  const acted = await inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: maker, reason: "Please", now }), { db });
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  const declined = await inUnit(({ tx }) => decline(tx, proposalId, { operator: checker, reason: "No evidence", now }), { db });
  assert.equal(declined.state, "DECLINED");
  assert.equal(await stateOf(transferId), "onreview");
  const [entry] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "proposal.decline"), eq(auditLog.targetId, transferId)));
  assert.equal(entry.operatorId, checker.id);

  // Recording a refund paid needs an admin to propose and to approve.
  await refusedWith(
    inUnit(({ tx }) => act(tx, "transfer.refund.paid", { transferId, bankReference: "REF1" }, { operator: maker, reason: "Paid", now }), { db }),
    "proposal.roleInsufficient",
  );
});
