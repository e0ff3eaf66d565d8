/**
 * Claim refunds (docs/decisions.md "Claim refunds"): a claim resolved with REFUND
 * owes the customer the amount at once, posted Dr expense:claims / Cr transfer:refund-due in the
 * resolution's transaction; an operator records it paid on the Refunds page (dual control
 * transfer.refund.paid), moving the obligation to the card it came from; more than the customer
 * paid is refused; NO_ERROR posts nothing.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { claimRefunds } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { accountBalances, transferEntries } from "@/lib/finance/ledger";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
const admin: Operator = { id: "op_admin1", email: "admin1@example.com", name: "Admin one", role: "admin" };
const second: Operator = { id: "op_admin2", email: "admin2@example.com", name: "Admin two", role: "admin" };

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

/** A transfer funded by card (102.99 USD paid) with an open claim on it. */
async function claimOnFunded(): Promise<{ transferId: string; claimId: string }> {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession, lockFundingSession, completeFunding } = await import("@/lib/payments/transfers/funding");
  const { reportClaim } = await import("@/lib/payments/claims/claims");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const t = await registeredTransfer(db, owner);
  const now = clock.now();
  // Funding outside a unit, as the other database tests do: the funding session is written at once.
  await db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, t.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now);
    const { fundingSessionId } = await openFundingSession(tx, funding, now);
    await completeFunding(tx, { ...(await lockFundingSession(tx, fundingSessionId))!, outcome: "SUCCEEDED", method: "CARD", now });
  });
  const claim = await inUnit(
    ({ tx }) => reportClaim(tx, { subscriptionId: owner.subscriptionId, transferId: t.id, type: "WRONG_AMOUNT", description: "Less arrived", now }),
    { db },
  );
  return { transferId: t.id, claimId: claim.claimId };
}

async function resolve(claimId: string, outcome: "REFUND" | "NO_ERROR", amount?: string) {
  const { resolveClaim } = await import("@/lib/payments/claims/claims");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return inUnit(({ tx }) => resolveClaim(tx, { claimId, outcome, amount, notice: "Our answer", operatorEmail: admin.email, now: clock.now() }), { db });
}

/** The transfer's refund-due balance (credit negative): what is owed back to its customer. */
const refundDue = async (transferId: string) => (await accountBalances(db, { transferId })).find((b) => b.code === "transfer:refund-due")?.balance ?? 0n;

test("REFUND owes the amount, posted balanced in the resolution; the operator's 'paid' (dual control) moves it to the card", async () => {
  const { transferId, claimId } = await claimOnFunded();
  await resolve(claimId, "REFUND", "25.50");

  const [owed] = await db.select().from(claimRefunds).where(eq(claimRefunds.claimId, claimId));
  assert.deepEqual([owed.state, owed.amount, owed.currency, owed.transferId], ["OWED", "25.500000", "USD", transferId]);
  const entry = (await transferEntries(db, transferId)).find((e) => e.kind === "claim.refundOwed")!;
  assert.deepEqual(
    entry.lines.map((l) => [l.account, l.debit, l.credit]),
    [
      ["expense:claims", 2550n, 0n],
      ["transfer:refund-due", 0n, 2550n],
    ],
  );
  assert.equal(await refundDue(transferId), -2550n);

  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { act } = await import("@/lib/operations/commands/run");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const now = clock.now();
  const input = { transferId, bankReference: "CLAIM-REF-7", claimRefundId: owed.id };
  const acted = await inUnit(({ tx }) => act(tx, "transfer.refund.paid", input, { operator: admin, reason: "Paid from the bank", now }), { db });
  if (acted.kind === "proposed") await inUnit(({ tx }) => approve(tx, acted.proposal.id, { operator: second, reason: "Checked", now }), { db });

  const [paid] = await db.select().from(claimRefunds).where(eq(claimRefunds.id, owed.id));
  assert.deepEqual([paid.state, paid.bankReference], ["PAID", "CLAIM-REF-7"]);
  const paidEntry = (await transferEntries(db, transferId)).find((e) => e.kind === "claim.refundPaid")!;
  assert.deepEqual(
    paidEntry.lines.map((l) => [l.account, l.debit, l.credit]),
    [
      ["transfer:refund-due", 2550n, 0n],
      ["cash:card-clearing", 0n, 2550n],
    ],
  );
  // Nothing owed back any more; the cost stays in expense:claims.
  assert.equal(await refundDue(transferId), 0n);

  // Paid once only.
  const { payClaimRefund } = await import("@/lib/payments/claims/claim-refunds");
  const { lockTransfer } = await import("@/lib/payments/transfers/records");
  await assert.rejects(
    inUnit(async ({ tx }) => payClaimRefund(tx, { transfer: (await lockTransfer(tx, transferId))!, claimRefundId: owed.id, bankReference: "AGAIN", now }), {
      db,
    }),
    (e: unknown) => e instanceof DomainError && e.code === "refund.stateInvalid",
  );
});

test("a REFUND above what the customer paid is refused (4xx), and nothing is owed or posted", async () => {
  const { transferId, claimId } = await claimOnFunded();
  await assert.rejects(resolve(claimId, "REFUND", "103.00"), (e: unknown) => e instanceof DomainError && e.status >= 400 && e.status < 500);
  assert.equal((await db.select().from(claimRefunds).where(eq(claimRefunds.claimId, claimId))).length, 0);
  assert.deepEqual(
    (await transferEntries(db, transferId)).map((e) => e.kind),
    ["funding.received"],
  );
  // The whole of it is allowed.
  await resolve(claimId, "REFUND", "102.99");
  assert.equal(await refundDue(transferId), -10299n);
});

test("NO_ERROR posts nothing and owes nothing", async () => {
  const { transferId, claimId } = await claimOnFunded();
  const resolved = await resolve(claimId, "NO_ERROR");
  assert.equal(resolved.state, "RESOLVED");
  assert.equal((await db.select().from(claimRefunds).where(eq(claimRefunds.claimId, claimId))).length, 0);
  assert.deepEqual(
    (await transferEntries(db, transferId)).map((e) => e.kind),
    ["funding.received"],
  );
});
