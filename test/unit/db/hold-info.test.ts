/**
 * The console says who put a transfer on compliance hold, when and why. An
 * operator's hold: their audit entry (email, reason); a screening case's hold: the case; a hold
 * from neither (the sandbox endpoint): only when. A later hold is what counts.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { auditLog, screeningCases } from "@/db/schema";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

const operator = { id: "op_hold", email: "holder@example.com", name: "Holder", role: "admin" as const };

/** A registered transfer put on hold at `at`, with what each source of holds writes beside it. */
async function heldTransfer(at: Date, source: "operator" | "case" | "none"): Promise<string> {
  const { holdTransfer } = await import("@/lib/compliance/cases/hold");
  const { auditRow } = await import("@/lib/operations/operators/audit");
  return db.transaction(async (tx) => {
    const row = await insertTestTransfer(tx, owner, at);
    const held = await holdTransfer(tx, row, at);
    if (source === "operator") {
      const entry = { action: "transfer.hold", targetType: "transfer", targetId: row.id, before: { state: row.state }, after: { state: held.state } };
      // Written at `at` directly: the unit of work would stamp its own clock.
      await tx.insert(auditLog).values(auditRow(operator, { ...entry, reason: "Adverse media on the sender" }, at));
    }
    if (source === "case") {
      await tx.insert(screeningCases).values({
        id: `case_${row.id}`,
        subjectType: "beneficiary",
        subjectId: row.beneficiaryId,
        customerId: owner.customerId,
        state: "OPEN",
        entries: [],
        evidence: [],
        heldTransferIds: [newId("trf"), row.id],
        createdAt: at,
        updatedAt: at,
      });
    }
    return row.id;
  });
}

test("who, when and why of each transfer's hold: an operator's entry, a screening case, or neither", async () => {
  const { holdInfo } = await import("@/lib/operations/console/holds");
  const at = new Date(Date.now() - 60_000);
  const byOperator = await heldTransfer(at, "operator");
  const byCase = await heldTransfer(at, "case");
  const byNeither = await heldTransfer(at, "none");
  const info = await holdInfo(db, [byOperator, byCase, byNeither, "trf_never_held"]);
  assert.deepEqual(info.get(byOperator), { at, by: "holder@example.com", reason: "Adverse media on the sender" });
  assert.deepEqual(info.get(byCase), { at, by: "sanctions screening", reason: `screening case case_${byCase} (close match of the beneficiary, OPEN)` });
  assert.deepEqual(info.get(byNeither), { at, by: null, reason: null });
  assert.equal(info.has("trf_never_held"), false);
  assert.equal((await holdInfo(db, [])).size, 0);
});

test("an operator's entry from an earlier hold does not explain a later one", async () => {
  const { holdInfo } = await import("@/lib/operations/console/holds");
  const { releaseTransfer } = await import("@/lib/payments/transfers/compliance");
  const { holdTransfer } = await import("@/lib/compliance/cases/hold");
  const { lockTransfer } = await import("@/lib/payments/transfers/records");
  const first = new Date(Date.now() - 50_000);
  const id = await heldTransfer(first, "operator");
  const later = new Date(first.getTime() + 10_000);
  await db.transaction(async (tx) => {
    const restored = await releaseTransfer(tx, (await lockTransfer(tx, id))!, "RESTORE", later);
    await holdTransfer(tx, restored, new Date(later.getTime() + 1_000));
  });
  assert.deepEqual((await holdInfo(db, [id])).get(id), { at: new Date(later.getTime() + 1_000), by: null, reason: null });
});
