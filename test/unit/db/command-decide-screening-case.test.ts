/**
 * The decideScreeningCase command (lib/operations/commands/screening.ts), both decisions, as the console's
 * Screening cases page asks for them: a TRUE_MATCH is one reviewer's, at once (the beneficiary
 * BLOCKED, its held transfer rejected, audited screeningCase.trueMatch); a FALSE_POSITIVE of a
 * case that holds a transfer releases money, so it is proposed (the command's name and input) and
 * runs on a second reviewer's approval (audited screeningCase.falsePositive); one that holds none
 * is cleared at once; a proposal stored under the old name screeningCase.falsePositive is still
 * approved as that decision; a decided case is refused.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, proposals, screeningCases } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import type { ScreeningOutcome } from "@/lib/compliance/screening/provider";
import { freshDbWithOwner } from "../../support/db";
import { auditOf, checker, maker, transferIn, transferState } from "../../support/commands";
import { insertBeneficiary, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close, owner } = await freshDbWithOwner());
});
after(() => close());

async function lib() {
  const { execute } = await import("@/lib/operations/commands/run");
  const { decideScreeningCase } = await import("@/lib/operations/commands/screening");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return { execute, decideScreeningCase, approve, inUnit };
}

/** A close match raised on a new beneficiary; with `transfer`, its validated transfer is held by the case. */
async function openCase(entryId: string, transfer: boolean) {
  const { raiseCase } = await import("@/lib/compliance/screening-cases/cases");
  const beneficiaryId = await insertBeneficiary(db, owner, clock.now());
  const transferId = transfer ? await transferIn(db, owner, { beneficiaryId }) : undefined;
  const outcome = {
    result: "CLOSE_MATCH",
    evidence: [
      { list: "sandbox-watchlist", entryId, listVersionId: null, entryName: `CMD, ${entryId}`, programs: ["SDGT"], result: "CLOSE_MATCH", score: "0.9" },
    ],
    listVersions: {},
  } as unknown as ScreeningOutcome;
  const opened = await db.transaction((tx: Tx) =>
    raiseCase(tx, { subjectType: "beneficiary", subjectId: beneficiaryId, customerId: owner.customerId }, outcome, clock.now()),
  );
  assert.ok(opened);
  assert.deepEqual(opened.heldTransferIds, transferId ? [transferId] : []);
  return { caseId: opened.id, beneficiaryId, transferId };
}

const caseState = async (id: string) => (await db.select({ s: screeningCases.state }).from(screeningCases).where(eq(screeningCases.id, id)))[0].s;

test("TRUE_MATCH: one reviewer, at once: the beneficiary BLOCKED, its held transfer rejected, audited screeningCase.trueMatch; decided again it is refused", async () => {
  const { execute, decideScreeningCase, inUnit } = await lib();
  const { caseId, beneficiaryId, transferId } = await openCase("cmd-true", true);
  const ask = (reason: string) =>
    inUnit(({ tx, now }) => execute(tx, decideScreeningCase, { caseId, decision: "TRUE_MATCH" }, { operator: maker, reason, now }), { db });
  const acted = await ask("Same person: date of birth and address agree");
  assert.equal(acted.kind, "performed");
  assert.match(acted.kind === "performed" ? acted.performed.notice : "", /confirmed: the beneficiary is BLOCKED, 1 transfer\(s\) rejected/);
  assert.equal(await caseState(caseId), "TRUE_MATCH");
  assert.equal((await db.select({ s: beneficiaries.state }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)))[0].s, "BLOCKED");
  assert.equal((await transferState(db, transferId!)).s, "rejected");
  const [entry, ...more] = await auditOf(db, "screeningCase.trueMatch", beneficiaryId);
  assert.equal(more.length, 0);
  assert.equal(entry.operatorEmail, maker.email);
  assert.equal(entry.reason, "Same person: date of birth and address agree");
  assert.deepEqual(entry.before, { caseId, state: "OPEN" });
  assert.equal((entry.after as { state: string }).state, "TRUE_MATCH");

  await assert.rejects(ask("again"), (e: unknown) => e instanceof DomainError && e.code === "screeningCase.stateInvalid");
  assert.equal((await auditOf(db, "screeningCase.trueMatch", beneficiaryId)).length, 1);
});

test("FALSE_POSITIVE of a case holding a transfer: proposed as screeningCase.decide with its input; a second reviewer's approval clears it and restores the transfer", async () => {
  const { execute, decideScreeningCase, approve, inUnit } = await lib();
  const { caseId, beneficiaryId, transferId } = await openCase("cmd-false-held", true);
  const acted = await inUnit(
    ({ tx, now }) => execute(tx, decideScreeningCase, { caseId, decision: "FALSE_POSITIVE" }, { operator: maker, reason: "Different person", now }),
    { db },
  );
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  const [row] = await db.select().from(proposals).where(eq(proposals.id, proposalId));
  assert.deepEqual({ action: row.action, payload: row.payload }, { action: "screeningCase.decide", payload: { caseId, decision: "FALSE_POSITIVE" } });
  assert.equal(await caseState(caseId), "OPEN", "nothing changes until approval");

  await inUnit(({ tx, now }) => approve(tx, proposalId, { operator: checker, reason: "Agreed", now }), { db });
  assert.equal(await caseState(caseId), "FALSE_POSITIVE");
  assert.equal((await transferState(db, transferId!)).s, "validated");
  const [entry] = await auditOf(db, "screeningCase.falsePositive", beneficiaryId);
  assert.equal(entry.operatorEmail, checker.email);
  assert.equal(entry.reason, "Different person");
  assert.equal((entry.after as { proposedBy: string }).proposedBy, maker.email);
});

test("FALSE_POSITIVE of a case holding no transfer: one reviewer clears it at once", async () => {
  const { execute, decideScreeningCase, inUnit } = await lib();
  const { caseId, beneficiaryId } = await openCase("cmd-false-free", false);
  const acted = await inUnit(
    ({ tx, now }) => execute(tx, decideScreeningCase, { caseId, decision: "FALSE_POSITIVE" }, { operator: maker, reason: "Other person", now }),
    { db },
  );
  assert.equal(acted.kind, "performed");
  assert.equal(await caseState(caseId), "FALSE_POSITIVE");
  assert.equal((await auditOf(db, "screeningCase.falsePositive", beneficiaryId)).length, 1);
});

test("a proposal stored under the old name screeningCase.falsePositive is approved as the FALSE_POSITIVE decision", async () => {
  const { approve, inUnit } = await lib();
  const { caseId, beneficiaryId, transferId } = await openCase("cmd-false-legacy", true);
  const now = clock.now();
  const id = newId("prop");
  await db.insert(proposals).values({
    id,
    action: "screeningCase.falsePositive",
    subjectType: "screeningCase",
    subjectId: caseId,
    payload: { caseId },
    summary: "Clear screening case (proposed before the command)",
    reason: "Different person",
    state: "PROPOSED",
    proposedBy: maker.id,
    proposedByEmail: maker.email,
    lapsesAt: addSeconds(now, 86_400),
    createdAt: now,
  });
  await inUnit(({ tx, now }) => approve(tx, id, { operator: checker, reason: "Agreed", now }), { db });
  assert.equal(await caseState(caseId), "FALSE_POSITIVE");
  assert.equal((await transferState(db, transferId!)).s, "validated");
  assert.equal((await auditOf(db, "screeningCase.falsePositive", beneficiaryId)).length, 1);
});
