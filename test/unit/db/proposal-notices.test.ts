/**
 * On the database: a proposal e-mails every operator who may approve it
 * (enabled, not its author, with the action's role) and nobody once decided; the header's badge
 * counts what an operator may approve; a proposal carries what it would make of its subject (the
 * JWKS's key ids, the webhook URL) before approval; a key the approved action issues is kept
 * encrypted for its proposer and revealed to them once, never to the approver.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { jobs, operators, otpOutbox, partnerApiKeys, proposals, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
const maker: Operator = { id: "op_n_maker", email: "n.maker@example.com", name: "Maker", role: "reviewer" };
const checker: Operator = { id: "op_n_checker", email: "n.checker@example.com", name: "Checker", role: "reviewer" };
const onboarder: Operator = { id: "op_n_onboarder", email: "n.onboarder@example.com", name: "Onboarder", role: "admin" };
const approver: Operator = { id: "op_n_approver", email: "n.approver@example.com", name: "Approver", role: "admin" };
const gone: Operator = { id: "op_n_gone", email: "n.gone@example.com", name: "Gone", role: "admin" };

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
  const now = clock.now();
  for (const o of [maker, checker, onboarder, approver, gone]) {
    await db.insert(operators).values({ ...o, passwordHash: "x", createdAt: now, disabledAt: o === gone ? now : null });
  }
});
after(() => close());

async function lib() {
  const dc = await import("@/lib/operations/dual-control/proposals");
  const { act } = await import("@/lib/operations/commands/run");
  const { approvableProposalCount } = await import("@/lib/operations/dual-control/queries");
  const { notifyApprover } = await import("@/lib/operations/dual-control/notify");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return { ...dc, act, approvableProposalCount, notifyApprover, inUnit };
}

/** A 5,000 USD transfer in review: its release waits for a second operator. */
async function inReview(): Promise<string> {
  const t = await registeredTransfer(db, owner);
  const { transitionTransfer } = await import("@/lib/payments/transfers/records");
  await db.transaction(async (tx) => {
    await tx.update(transfers).set({ originAmount: "5000.000000" }).where(eq(transfers.id, t.id));
    const [row] = await tx.select().from(transfers).where(eq(transfers.id, t.id));
    await transitionTransfer(tx, row, "fastCheck.review", clock.now());
  });
  return t.id;
}

/** The notice jobs a proposal enqueued, by operator. */
async function noticeJobs(proposalId: string) {
  const rows = await db.select().from(jobs).where(eq(jobs.kind, "proposals.notifyApprover"));
  return rows.filter((j) => j.payload.proposalId === proposalId).map((j) => j.payload as { proposalId: string; operatorId: string });
}

test("a proposal e-mails each operator who may approve it, with its summary and link; none once decided", async () => {
  const { act, decline, notifyApprover, inUnit } = await lib();
  const transferId = await inReview();
  const now = clock.now();
  const acted = await inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: maker, reason: "Payslips seen", now }), { db });
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  const queued = await noticeJobs(proposalId);
  const to = queued.map((j) => j.operatorId);
  for (const o of [approver, checker, onboarder]) assert.ok(to.includes(o.id), `${o.email} is told`);
  assert.ok(!to.includes(maker.id), "not its author");
  assert.ok(!to.includes(gone.id), "not a disabled operator");
  assert.equal(new Set(to).size, to.length, "one notice each");

  const perform = notifyApprover.perform;
  assert.ok(perform, "an e-mail is sent outside any transaction");
  const run = (payload: { proposalId: string; operatorId: string }) =>
    perform(db, { payload, jobId: "job_test", attempt: 1, now: clock.now(), signal: new AbortController().signal });
  await run(queued.find((j) => j.operatorId === checker.id)!);
  const [mail] = await db
    .select()
    .from(otpOutbox)
    .where(and(eq(otpOutbox.identifier, checker.email), eq(otpOutbox.purpose, "PROPOSAL")));
  assert.ok(mail, "the checker was e-mailed");
  assert.match(mail.message, new RegExp(`Approval needed: Approve transfer ${transferId}`));
  assert.match(mail.message, new RegExp(`/console/approvals/${proposalId}`));
  assert.match(mail.message, /n\.maker@example\.com proposed/);
  assert.match(mail.message, /Reason: Payslips seen/);

  // Withdrawn: the notices still queued send nothing.
  await inUnit(({ tx }) => decline(tx, proposalId, { operator: maker, reason: "Withdrawn", now }), { db });
  await run(queued.find((j) => j.operatorId === onboarder.id)!);
  assert.equal((await db.select().from(otpOutbox).where(eq(otpOutbox.identifier, onboarder.email))).length, 0);
});

test("the Approvals badge counts what this operator may approve: not their own, not an admin action for a reviewer", async () => {
  const { act, approvableProposalCount, inUnit } = await lib();
  const now = clock.now();
  const count = (o: Operator) => approvableProposalCount(db, o, now);
  const base = { maker: await count(maker), checker: await count(checker), onboarder: await count(onboarder), approver: await count(approver) };
  const transferId = await inReview();
  await inUnit(({ tx }) => act(tx, "transfer.review.approve", { transferId }, { operator: maker, reason: "Release", now }), { db });
  await inUnit(({ tx }) => act(tx, "partner.apiKey.issue", { partnerId: owner.partnerId }, { operator: onboarder, reason: "New key", now }), { db });
  assert.equal(await count(maker), base.maker, "one's own proposal is not counted");
  assert.equal(await count(checker), base.checker + 1, "a reviewer: the release, not the admin's key");
  assert.equal(await count(onboarder), base.onboarder + 1, "an admin: the release, not their own key");
  assert.equal(await count(approver), base.approver + 2, "another admin: both");
});

test("a partner change shows its after before approval: the JWKS's key ids and the webhook URL as proposed", async () => {
  const { act, inUnit } = await lib();
  const now = clock.now();
  const partner = (await newSubscription(db)).partnerId;
  const jwks = { keys: [{ kty: "EC", crv: "P-256", kid: "partner-key-2026", x: "x", y: "y" }] };
  const acted = await inUnit(
    ({ tx }) =>
      act(
        tx,
        "partner.update",
        {
          partnerId: partner,
          pricingMode: "PARTNER_SIGNED",
          webhookUrl: "https://hooks.partner.example/remit",
          returnOrigins: ["https://app.partner.example"],
          jwks,
        },
        { operator: onboarder, reason: "Onboarding", now },
      ),
    { db },
  );
  assert.equal(acted.kind, "proposed");
  const [row] = await db
    .select()
    .from(proposals)
    .where(eq(proposals.id, acted.kind === "proposed" ? acted.proposal.id : ""));
  assert.deepEqual(row.before, { pricingMode: "SERVICE_PRICED", webhookUrl: null, returnOrigins: [], jwksKids: [] });
  assert.deepEqual(row.proposed, {
    pricingMode: "PARTNER_SIGNED",
    webhookUrl: "https://hooks.partner.example/remit",
    returnOrigins: ["https://app.partner.example"],
    jwksKids: ["partner-key-2026"],
  });
  assert.equal(row.after, null, "nothing has happened yet");
});

test("an approved key is not the approver's: kept encrypted, revealed once to the proposer, then gone", async () => {
  const { act, approve, revealSecret, inUnit } = await lib();
  const now = clock.now();
  const partner = (await newSubscription(db)).partnerId;
  const acted = await inUnit(({ tx }) => act(tx, "partner.apiKey.issue", { partnerId: partner }, { operator: onboarder, reason: "First key", now }), { db });
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  assert.ok(proposalId, "proposed");

  const approved = await inUnit(({ tx }) => approve(tx, proposalId, { operator: approver, reason: "Agreed", now }), { db });
  assert.equal(approved.secretKept, true);
  assert.equal("once" in approved.performed, false, "the approver's answer carries no key");
  const [kept] = await db.select().from(proposals).where(eq(proposals.id, proposalId));
  assert.ok(kept.secretForProposer?.startsWith("v1."), "encrypted at rest");
  assert.ok(!kept.secretForProposer?.includes("pk_"));

  const refused = (p: Promise<unknown>, code: string) => assert.rejects(p, (e: unknown) => e instanceof DomainError && e.code === code);
  await refused(
    inUnit(({ tx }) => revealSecret(tx, proposalId, { operator: approver, reason: "peek", now }), { db }),
    "proposal.roleInsufficient",
  );
  const once = await inUnit(({ tx }) => revealSecret(tx, proposalId, { operator: onboarder, reason: "reveal", now }), { db });
  assert.match(once.apiKey, /^pk_/);
  const [key] = await db
    .select()
    .from(partnerApiKeys)
    .where(and(eq(partnerApiKeys.partnerId, partner), inArray(partnerApiKeys.keyHash, [sha256Hex(once.apiKey)])));
  assert.ok(key, "the revealed key is the partner's new key");
  const [after] = await db.select().from(proposals).where(eq(proposals.id, proposalId));
  assert.equal(after.secretForProposer, null, "cleared when revealed");
  await refused(
    inUnit(({ tx }) => revealSecret(tx, proposalId, { operator: onboarder, reason: "again", now }), { db }),
    "proposal.notFound",
  );
});
