/**
 * The bank-credit database tests' shared steps (test/unit/db/bank-credits.test.ts and
 * bank-credit-tolerance.test.ts): the modules they drive, a transfer in funding with its
 * bank-transfer reference, and a camt.053 statement imported in one transaction.
 */
import type { Db } from "@/db";
import { camt053, type TestCredit } from "../../../support/camt053";
import { insertTestTransfer, type Owner } from "../../../support/fixtures";

/** Imported lazily: freshDb must set the configuration before these modules read it. */
export const bankCreditModules = async () => ({
  ...(await import("@/lib/payments/reconciliation/camt")),
  ...(await import("@/lib/payments/reconciliation/import")),
  ...(await import("@/lib/payments/reconciliation/resolve")),
  ...(await import("@/lib/payments/transfers/bank-transfer")),
  ...(await import("@/lib/payments/transfers/funding")),
  ...(await import("@/lib/payments/transfers/records")),
  ...(await import("@/lib/finance/ledger")),
  schema: await import("@/db/schema"),
});

/** A transfer in funding with its open session and bank-transfer reference (as the page or the sandbox endpoint binds it). */
export async function fundingTransferIn(db: Db, owner: Owner, now = new Date()) {
  const m = await bankCreditModules();
  return db.transaction(async (tx) => {
    const row = await insertTestTransfer(tx, owner, now);
    const funding = await m.transitionTransfer(tx, await m.transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    const { fundingSessionId } = await m.openFundingSession(tx, funding, now);
    const instructions = await m.chooseBankTransfer(tx, (await m.lockFundingSession(tx, fundingSessionId))!, now);
    return { transferId: funding.id, fundingSessionId, ...instructions };
  });
}

/** A statement of `credits` (message id `messageId`) read and imported in one transaction. */
export async function importCreditsIn(db: Db, credits: TestCredit[], messageId: string, now = new Date()) {
  const m = await bankCreditModules();
  const statement = await m.readCamt053(camt053(credits, { messageId }));
  return db.transaction((tx) => m.importStatement(tx, statement, now));
}
