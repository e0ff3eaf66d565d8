/**
 * A transfer keeps the terms it was accepted under: after a later configuration version drops its
 * corridor, the transfer's delivery estimate, its date available (receipt, claims window) and the
 * account scheme its payout is sent with still come from its own version
 * (transfers.configuration_version), not from the version in force.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { transfers, transferStateHistory } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { insertBeneficiary, insertClabeMethod, newSubscription, registeredTransfer } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
const maker: Operator = { id: "op_terms_maker", email: "terms.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_terms_checker", email: "terms.checker@example.com", name: "Checker", role: "admin" };

// A database of its own on PostgreSQL: the version published here drops a corridor other files use.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

/** A US-MX transfer accepted under version 1, funded, to a CLABE account (as funding leaves it). */
async function fundedUnderVersion1() {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const owner = await newSubscription(db);
  const created = await registeredTransfer(db, owner);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const beneficiaryId = await insertBeneficiary(tx, owner, now, { lastName: "Ruiz", countryOfResidence: "MEX" });
    const methodId = await insertClabeMethod(tx, beneficiaryId, now);
    await tx.update(transfers).set({ beneficiaryId, payoutMethodId: methodId, configurationVersion: 1 }).where(eq(transfers.id, created.id));
    const row = (await lockTransfer(tx, created.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    return transitionTransfer(tx, funding, "funding.succeeded", now, { fundedFrom: "cash:card-clearing" });
  });
}

/** Version 2, in force from its approval: the shipped corridors without US-MX. */
async function dropUsMx() {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, refreshVersions, storedVersion } = await import("@/lib/payments/corridors/versions");
  await refreshVersions(db);
  const document = structuredClone(storedVersion(latestTable().version)!.document) as { corridors: { code: string }[] };
  document.corridors = document.corridors.filter((c) => c.code !== "US-MX");
  const input = { document, effectiveAt: clock.now().toISOString(), note: "US-MX closed" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  await inUnit(({ tx }) => approve(tx, proposalId, { operator: checker, reason: "Agreed", now: clock.now() }), { db });
  await refreshVersions(db);
}

test("after a version drops its corridor, a transfer accepted before keeps its delivery estimate, date available and account scheme", async () => {
  const { corridorByCode } = await import("@/lib/payments/corridors/corridors");
  const { tableInForce } = await import("@/lib/payments/corridors/versions");
  const { transferDelivery, dateAvailable } = await import("@/lib/payments/delivery/transfer-delivery");
  const { lockReadyTransfers } = await import("@/lib/payments/payouts/ready-transfers");
  const funded = await fundedUnderVersion1();
  const history = await db.select().from(transferStateHistory).where(eq(transferStateHistory.transferId, funded.id));
  const fundedAt = history.find((h) => h.state === "funded")!.transitionedAt;
  const before = transferDelivery(funded, history, clock.now());
  assert.equal(before?.basis, "FUNDED");

  await dropUsMx();
  assert.equal(tableInForce(clock.now()).version, 2);
  assert.equal(corridorByCode("US-MX"), undefined, "US-MX is no longer offered");

  const [row] = await db.select().from(transfers).where(eq(transfers.id, funded.id));
  assert.deepEqual(transferDelivery(row, history, clock.now()), before, "the estimate counted as under version 1");
  assert.equal(dateAvailable(row, fundedAt).getTime(), before!.estimatedDeliveryBy.getTime());
  assert.ok(dateAvailable(row, fundedAt).getTime() > fundedAt.getTime());

  // The payout file names the account as version 1's US-MX format: a CLABE, not a generic BBAN.
  const ready = await db.transaction((tx) => lockReadyTransfers(tx, row.partnerId));
  assert.deepEqual(
    ready.map((r) => [r.transfer.id, r.credit.creditorAccount]),
    [[row.id, { other: "002010077777777771", scheme: "CLABE" }]],
  );
});
