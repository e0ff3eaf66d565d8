/**
 * Refunds paid by a pain.001 refund file (docs/decisions.md "Refunds paid by a
 * pain.001 refund file"), on PGlite and PostgreSQL: the payer's IBAN of the camt.053 credit that
 * funded a transfer is kept encrypted (never in clear in the row); the refund of that transfer
 * goes into an XSD-valid pain.001 from the collection account to the payer's name and IBAN, moves
 * to PROCESSING, and is recorded paid as before; a card-funded refund is left for the operator.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bankCredits, refundFiles, refunds } from "@/db/schema";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";
import { pain001SchemaErrors } from "../../support/iso20022";
import { fundingTransferIn, importCreditsIn } from "./support/bank-credits";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

const PAYER_IBAN = "FR7630006000011234567890189"; // the test statement's DbtrAcct (test/support/camt053.ts)

async function cancel(transferId: string) {
  const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  return inUnit(({ tx }) => cancelTransfer(tx, { subscriptionId: owner.subscriptionId, transferId, cancellationReason: "Changed my mind", now: new Date() }), {
    db,
  });
}

const generate = async (now = new Date()) => {
  const { generateRefundFiles } = await import("@/lib/payments/payouts/refund-file");
  return db.transaction((tx) => generateRefundFiles(tx, { now }));
};
const refundOf = async (transferId: string) => (await db.select().from(refunds).where(eq(refunds.transferId, transferId)))[0];

test("the payer's IBAN of the funding credit is kept encrypted; the refund is paid to it by a pain.001 refund file", async () => {
  const t = await fundingTransferIn(db, owner);
  const bank = `RF-${Date.now()}`;
  await importCreditsIn(db, [{ bankReference: bank, amount: "102.99", currency: "USD", reference: t.reference }], `STMT-${bank}`);
  const [credit] = await db.select().from(bankCredits).where(eq(bankCredits.bankReference, bank));
  assert.equal(credit.state, "MATCHED");
  assert.equal(credit.payerName, "Maria Payer");
  assert.equal(credit.payerAccount, "FR****0189", "shown masked, as before");
  assert.ok(credit.payerAccountEncrypted && !credit.payerAccountEncrypted.includes(PAYER_IBAN), "stored encrypted, never in clear");
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  assert.equal((await destinationCipher(db)).decrypt(credit.payerAccountEncrypted, credit.id), PAYER_IBAN);

  // A card-funded transfer's refund is not the file's: the operator pays it back to the card.
  const card = await registeredTransfer(db, owner);
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  await db.transaction(async (tx) => {
    const now = new Date();
    const row = (await lockTransfer(tx, card.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    await transitionTransfer(tx, funding, "funding.succeeded", now, { fundedFrom: "cash:card-clearing" });
  });

  await cancel(t.transferId);
  await cancel(card.id);
  const refund = await refundOf(t.transferId);
  assert.equal(refund.state, "PENDING");

  const files = await generate();
  assert.equal(files.length, 1);
  const [file] = files;
  assert.deepEqual([file.currency, file.transactionCount, file.controlSum, file.transferIds], ["USD", 1, "102.99", [t.transferId]]);
  assert.deepEqual(await pain001SchemaErrors(file.xml), [], "valid against the shipped pain.001.001.03 schema");
  // From the collection account, to the payer, the refund's id end to end.
  assert.match(file.xml, /<Dbtr>\s*<Nm>Remit Sandbox Collections<\/Nm>\s*<\/Dbtr>\s*<DbtrAcct>\s*<Id>\s*<IBAN>DE89370400440532013000<\/IBAN>/);
  assert.match(file.xml, new RegExp(`<EndToEndId>${refund.id}</EndToEndId>`));
  assert.match(file.xml, /<InstdAmt Ccy="USD">102.99<\/InstdAmt>/);
  assert.match(
    file.xml,
    new RegExp(`<Cdtr>\\s*<Nm>Maria Payer</Nm>\\s*<PstlAdr>\\s*<Ctry>FR</Ctry>\\s*</PstlAdr>\\s*</Cdtr>\\s*<CdtrAcct>\\s*<Id>\\s*<IBAN>${PAYER_IBAN}</IBAN>`),
  );
  assert.doesNotMatch(file.xml, new RegExp(card.id));

  const sent = await refundOf(t.transferId);
  assert.deepEqual([sent.state, sent.refundFileId], ["PROCESSING", file.id]);
  assert.equal((await refundOf(card.id)).state, "PENDING", "the card's refund waits for the operator");
  const [stored] = await db.select().from(refundFiles).where(eq(refundFiles.id, file.id));
  assert.ok(!stored.xmlEncrypted.includes(PAYER_IBAN), "the stored file is encrypted");
  const { readRefundFile } = await import("@/lib/payments/payouts/refund-file");
  assert.equal((await readRefundFile(db, file.id))?.xml, file.xml);

  // Once only: nothing more to put in a file.
  assert.deepEqual(await generate(), []);

  // The bank paid it: the operator records it, as for any refund.
  const { moveRefund } = await import("@/lib/payments/transfers/refunds");
  await db.transaction(async (tx) => moveRefund(tx, (await lockTransfer(tx, t.transferId))!, "operator.paid", new Date(), { bankReference: "RFND-1" }));
  assert.equal((await refundOf(t.transferId)).state, "COMPLETED");
});

test("a refund file made on a weekend asks for the collection account's next business day (ReqdExctnDt)", async () => {
  const t = await fundingTransferIn(db, owner);
  const bank = `RF-${Date.now()}-weekend`;
  await importCreditsIn(db, [{ bankReference: bank, amount: "102.99", currency: "USD", reference: t.reference }], `STMT-${bank}`);
  await cancel(t.transferId);
  // Saturday 2026-11-28 in the sandbox collection account's calendar (a German IBAN, UTC).
  const [file] = await generate(new Date("2026-11-28T10:00:00Z"));
  assert.deepEqual(file.transferIds, [t.transferId]);
  assert.match(file.xml, /<ReqdExctnDt>2026-11-30<\/ReqdExctnDt>/);
  assert.deepEqual(await pain001SchemaErrors(file.xml), []);
});
