/**
 * The rejectHold command (lib/operations/commands/transfers.ts), as the console's Holds queue asks for it: one
 * reviewer rejects a held transfer at once, whatever its amount (a rejection releases no money to
 * the beneficiary), with one audit entry (before/after, the reason); a transfer a screening case
 * holds is refused (its money moves only through the case) and nothing is written; a reviewer
 * asking twice finds it already decided.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@/db";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import type { ScreeningOutcome } from "@/lib/compliance/screening/provider";
import { freshDbWithOwner } from "../../support/db";
import { auditOf, maker, transferIn, transferState } from "../../support/commands";
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
  const { rejectHold } = await import("@/lib/operations/commands/transfers");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return { execute, rejectHold, inUnit };
}

const refusedWith = (code: string) => (e: unknown) => e instanceof DomainError && e.code === code;

test("a 5,000 USD hold is rejected at once by one reviewer, audited with before, after and the reason; asked again it is already decided", async () => {
  const { execute, rejectHold, inUnit } = await lib();
  const transferId = await transferIn(db, owner, { amount: "5000.000000", hold: true });
  const acted = await inUnit(({ tx, now }) => execute(tx, rejectHold, { transferId }, { operator: maker, reason: "Mule pattern", now }), { db });
  assert.equal(acted.kind, "performed");
  assert.equal(acted.kind === "performed" ? acted.performed.notice : "", `Transfer ${transferId} is now rejected.`);
  assert.equal((await transferState(db, transferId)).s, "rejected");
  const entries = await auditOf(db, "transfer.hold.reject", transferId);
  assert.deepEqual(
    entries.map((e) => ({ by: e.operatorEmail, before: e.before, after: e.after, reason: e.reason })),
    [{ by: maker.email, before: { state: "spended", priorState: "validated" }, after: { state: "rejected" }, reason: "Mule pattern" }],
  );

  await assert.rejects(
    inUnit(({ tx, now }) => execute(tx, rejectHold, { transferId }, { operator: maker, reason: "Again", now }), { db }),
    refusedWith("transfer.stateInvalid"),
  );
  assert.equal((await auditOf(db, "transfer.hold.reject", transferId)).length, 1);
});

test("a transfer a screening case holds is refused (409 screeningCase.holdsTransfer) and stays held, unaudited", async () => {
  const { execute, rejectHold, inUnit } = await lib();
  const { raiseCase } = await import("@/lib/compliance/screening-cases/cases");
  const beneficiaryId = await insertBeneficiary(db, owner, clock.now());
  const transferId = await transferIn(db, owner, { beneficiaryId });
  const outcome = {
    result: "CLOSE_MATCH",
    evidence: [
      {
        list: "sandbox-watchlist",
        entryId: "cmd-reject",
        listVersionId: null,
        entryName: "CMD, Reject",
        programs: ["SDGT"],
        result: "CLOSE_MATCH",
        score: "0.9",
      },
    ],
    listVersions: {},
  } as unknown as ScreeningOutcome;
  const opened = await db.transaction((tx) =>
    raiseCase(tx, { subjectType: "beneficiary", subjectId: beneficiaryId, customerId: owner.customerId }, outcome, clock.now()),
  );
  assert.deepEqual(opened?.heldTransferIds, [transferId]);

  await assert.rejects(
    inUnit(({ tx, now }) => execute(tx, rejectHold, { transferId }, { operator: maker, reason: "Reject it", now }), { db }),
    refusedWith("screeningCase.holdsTransfer"),
  );
  assert.equal((await transferState(db, transferId)).s, "spended");
  assert.equal((await auditOf(db, "transfer.hold.reject", transferId)).length, 0);
});
