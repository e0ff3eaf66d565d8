/**
 * Payouts by pain.001 files on a real database (PGlite; PostgreSQL with
 * TEST_DB_URL): funded transfers go into XSD-valid files per bank and currency and move to topay
 * in the same transaction; a pain.002 report moves one to paid and one to rejected with its
 * reason and refund; importing it twice changes nothing; the outbox file is written once.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { events, jobs, payoutFileItems, payoutFiles, payoutMethods, transfers, transferStateHistory } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { accountBalances, toMinor, transferEntries } from "@/lib/finance/ledger";
import { freshDb } from "../../support/db";
import { refundOf } from "../../support/refunds";
import { newSubscription, registeredTransfer, type Owner, insertBeneficiary } from "../../support/fixtures";
import type { BeneficiaryAddress } from "@/lib/payments/beneficiaries/address";
import { pain001SchemaErrors, pain002 } from "../../support/iso20022";

const outbox = mkdtempSync(path.join(tmpdir(), "payfiles-outbox-"));
let db: Db;
let close: () => Promise<void>;

before(async () => {
  process.env.PAYOUT_OUTBOX_DIR = outbox;
  ({ db, close } = await freshDb());
});
after(() => close());

/** A funded transfer of `owner` to a beneficiary with a payout method holding `identifier`, as funding leaves it. */
async function fundedTransfer(owner: Owner, identifier: string, currency = "MXN", amount = "1875.000000", address?: BeneficiaryAddress) {
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const created = await registeredTransfer(db, owner);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const beneficiaryId = await insertBeneficiary(tx, owner, now, { lastName: "Ruiz", countryOfResidence: "MEX", address });
    const methodId = newId("pm");
    const encrypted = (await destinationCipher(tx)).encrypt(identifier, methodId);
    await tx.insert(payoutMethods).values({
      id: methodId,
      beneficiaryId,
      methodType: "BANK_TRANSFER",
      corridor: "US-MX",
      destinationIdentifierEncrypted: encrypted,
      destinationIdentifierMasked: `****${identifier.slice(-4)}`,
      addedAt: now,
    });
    await tx
      .update(transfers)
      .set({ beneficiaryId, payoutMethodId: methodId, destinationCurrency: currency, destinationAmount: amount })
      .where(eq(transfers.id, created.id));
    const row = (await lockTransfer(tx, created.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    // Funded by card, as completeFunding records it, so every later move posts to the ledger.
    return transitionTransfer(tx, funding, "funding.succeeded", now, { fundedFrom: "cash:card-clearing" });
  });
}

async function stateOf(id: string) {
  const [row] = await db.select().from(transfers).where(eq(transfers.id, id));
  return { ...row, refund: await refundOf(db, id) };
}

async function generate(partnerId: string, now = clock.now()) {
  const { generatePayoutFiles } = await import("@/lib/payments/payouts/generate");
  return db.transaction((tx) => generatePayoutFiles(tx, { now, partnerId }));
}

async function importReport(xml: string, partnerId?: string) {
  const { importPaymentStatusReport } = await import("@/lib/payments/payouts/status-import");
  return db.transaction((tx) => importPaymentStatusReport(tx, { xml, now: clock.now(), partnerId }));
}

describe("payout files (pain.001) and status reports (pain.002)", () => {
  let owner: Owner;
  const ids: Record<string, string> = {};

  before(async () => {
    owner = await newSubscription(db);
    ids.clabe = (await fundedTransfer(owner, "002010077777777771")).id;
    ids.iban = (await fundedTransfer(owner, "DE89 3704 0044 0532 0130 00", "MXN", "10.520000")).id;
    ids.php = (await fundedTransfer(owner, "1234567890", "PHP", "5000.000000")).id;
  });

  test("funded transfers go into one XSD-valid file per bank and currency and move to topay in the same transaction", async () => {
    const files = await generate(owner.partnerId);
    assert.deepEqual(files.map((f) => [f.currency, f.transactionCount]).sort(), [
      ["MXN", 2],
      ["PHP", 1],
    ]);
    for (const f of files) assert.deepEqual(await pain001SchemaErrors(f.xml), [], f.fileName);
    const mxn = files.find((f) => f.currency === "MXN")!;
    assert.equal(mxn.controlSum, "1885.52");
    assert.match(mxn.xml, new RegExp(`<EndToEndId>${ids.clabe}</EndToEndId>`));
    assert.match(mxn.xml, /<InstdAmt Ccy="MXN">10.52<\/InstdAmt>/, "in the currency's minor unit");
    assert.match(mxn.xml, /<IBAN>DE89370400440532013000<\/IBAN>/);
    assert.match(mxn.xml, /<Othr>\s*<Id>002010077777777771<\/Id>/);
    assert.match(mxn.xml, /<Nm>Ana Ruiz<\/Nm>/);
    for (const id of Object.values(ids)) assert.equal((await stateOf(id)).state, "topay");
    // Stored encrypted: the full account numbers are not in the row.
    const [row] = await db.select().from(payoutFiles).where(eq(payoutFiles.id, mxn.id));
    assert.doesNotMatch(row.xmlEncrypted, /002010077777777771|DE89370400440532013000/);
    const items = await db.select().from(payoutFileItems).where(eq(payoutFileItems.payoutFileId, mxn.id));
    assert.deepEqual(items.map((i) => i.transferId).sort(), [ids.clabe, ids.iban].sort());
    // Nothing left to file.
    assert.deepEqual(await generate(owner.partnerId), []);
  });

  test("the outbox job writes each file once, after the commit; a retry skips a file already written", async () => {
    const { writePayoutFileJob } = await import("@/lib/payments/payouts/jobs");
    const queued = await db.select().from(jobs).where(eq(jobs.kind, "payouts.writeFile"));
    assert.equal(queued.length, 2);
    const run = (payoutFileId: string) =>
      writePayoutFileJob.perform!(db, { payload: { payoutFileId }, jobId: "j", attempt: 1, now: clock.now(), signal: new AbortController().signal });
    for (const j of queued) await run((j.payload as { payoutFileId: string }).payoutFileId);
    const written = readdirSync(outbox).sort();
    assert.equal(written.length, 2);
    const [file] = await db.select().from(payoutFiles).where(eq(payoutFiles.currency, "PHP"));
    assert.ok(file.writtenAt);
    const target = path.join(outbox, file.fileName);
    assert.deepEqual(await pain001SchemaErrors(readFileSync(target, "utf8")), []);
    // A retry (the row not yet marked, the file there): the file is left as it is.
    await db.update(payoutFiles).set({ writtenAt: null }).where(eq(payoutFiles.id, file.id));
    const before = readFileSync(target, "utf8");
    await run(file.id);
    assert.equal(readFileSync(target, "utf8"), before);
    assert.ok(existsSync(target) && readdirSync(outbox).length === 2);
  });

  test("a pain.002 moves one transfer to paid, one to rejected with its reason and refund, one in progress; twice changes nothing", async () => {
    const report = pain002("REP-1", "pof_x", [
      { endToEndId: ids.clabe, status: "ACSC" },
      { endToEndId: ids.iban, status: "RJCT", reason: "MS03" },
      { endToEndId: ids.php, status: "ACSP" },
      { endToEndId: "trf_unknown", status: "ACSC" },
    ]);
    const first = await importReport(report);
    assert.deepEqual(first, {
      transactions: 4,
      applied: 3,
      unmatched: 1,
      duplicates: 0,
      unmatchedLines: [{ endToEndId: "trf_unknown", status: "ACSC", reason: "NO_SUCH_TRANSFER", message: "no transfer in a payout file has this EndToEndId" }],
    });
    // The console's notice itemises it.
    const { statusImportSummary } = await import("@/lib/payments/payouts/status-import");
    assert.equal(
      statusImportSummary("rep.xml", first),
      "Imported rep.xml: 4 transactions, 3 applied, 1 unmatched, 0 duplicates. Unmatched: trf_unknown ACSC: no transfer in a payout file has this EndToEndId.",
    );
    assert.match(statusImportSummary("rep.xml", first, 0), /1 unmatched, 0 duplicates\. …and 1 more \(npm run payment-status:import/);
    const paid = await stateOf(ids.clabe);
    const rejected = await stateOf(ids.iban);
    assert.equal(paid.state, "paid");
    assert.equal(rejected.state, "rejected");
    assert.equal(rejected.rejectionReason, "PAYOUT_REFUSED_BY_BANK");
    assert.equal(rejected.refund?.state, "PENDING");
    // The ISO reason in words, in the transfer's detail and in its event.
    // A reason no new destination fixes (an account's reason waits for a repair, payout-repair.test.ts).
    const why = { code: "PAYOUT_REFUSED_BY_BANK", isoReasonCode: "MS03", description: "Refused by the bank (reason not given)" };
    const { transferDetail } = await import("@/lib/payments/transfers/view");
    assert.deepEqual((await transferDetail(db, rejected)).rejectionReason, why);
    // As answered (JSON): an absent field is undefined in the view and not sent.
    assert.equal("rejectionReason" in JSON.parse(JSON.stringify(await transferDetail(db, paid))), false, "only a rejected payout has one");
    const [event] = await db
      .select()
      .from(events)
      .where(sql`${events.body}->'data'->>'transferId' = ${ids.iban} and ${events.body}->'data'->>'state' = 'rejected'`);
    assert.deepEqual((event.body.data as { rejectionReason?: unknown }).rejectionReason, why);
    assert.equal((await stateOf(ids.php)).state, "reqpay");
    const history = await db
      .select()
      .from(transferStateHistory)
      .where(inArray(transferStateHistory.transferId, Object.values(ids)));
    assert.deepEqual(
      history
        .filter((h) => h.transferId === ids.iban)
        .map((h) => [h.state, h.reasonCode])
        .slice(-2),
      [
        ["topay", "TRF_NETWORK_TO_PAY"],
        ["rejected", "TRF_PAYOUT_REJECTED"],
      ],
    );

    // The books: the paid transfer's accounts are all zero; the rejected one owes exactly its
    // total back to the customer (refund due), its payout and fee reversed.
    const balances = async (transferId: string) =>
      Object.fromEntries((await accountBalances(db, { transferId })).map((a) => [`${a.code} ${a.currency}`, a.balance]));
    const owed = await db.select().from(transfers).where(eq(transfers.id, ids.iban));
    assert.deepEqual(await balances(ids.clabe), {
      "transfer:customer-funds USD": 0n,
      "transfer:payout-in-flight MXN": 0n,
    });
    assert.deepEqual(await balances(ids.iban), {
      "transfer:customer-funds USD": 0n,
      "transfer:payout-in-flight MXN": 0n,
      "transfer:refund-due USD": -toMinor(owed[0].totalCustomerCost, "USD"),
    });
    const refundEntries = (await transferEntries(db, ids.iban)).map((e) => e.kind);
    assert.equal(refundEntries.filter((k) => k === "payout.returned").length, 1, refundEntries.join());

    assert.deepEqual(await importReport(report), { transactions: 4, applied: 0, unmatched: 1, duplicates: 3, unmatchedLines: first.unmatchedLines });
    // A status the transfer's state refuses, and one we do not read: itemised with why, nothing recorded.
    const refused = await importReport(
      pain002("REP-3", "pof_x", [
        { endToEndId: ids.iban, status: "ACSC" },
        { endToEndId: ids.clabe, status: "ZZZZ" },
      ]),
    );
    assert.deepEqual(refused.unmatchedLines, [
      { endToEndId: ids.iban, status: "ACSC", reason: "STATE_REFUSES", message: "the transfer is rejected: ACSC does not apply to it" },
      { endToEndId: ids.clabe, status: "ZZZZ", reason: "UNKNOWN_STATUS", message: "ZZZZ is not a status this service reads (ACSC, ACCC, ACSP, PDNG, RJCT...)" },
    ]);
    assert.deepEqual(
      (await transferEntries(db, ids.iban)).map((e) => e.kind),
      refundEntries,
    );
    const again = await db
      .select()
      .from(transferStateHistory)
      .where(inArray(transferStateHistory.transferId, Object.values(ids)));
    assert.equal(again.length, history.length);
    assert.deepEqual((await stateOf(ids.iban)).refund, rejected.refund);
  });

  test("a partner's report reaches only its own transfers; ACSC on a pending customer cancellation resolves it NETWORK_ALREADY_PAID", async () => {
    const other = await newSubscription(db);
    const theirs = (await fundedTransfer(other, "002010077777777771")).id;
    await generate(other.partnerId);
    const report = pain002("REP-2", "pof_y", [{ endToEndId: theirs, status: "ACSC" }]);
    assert.deepEqual(await importReport(report, owner.partnerId), {
      transactions: 1,
      applied: 0,
      unmatched: 1,
      duplicates: 0,
      unmatchedLines: [{ endToEndId: theirs, status: "ACSC", reason: "NO_SUCH_TRANSFER", message: "no transfer in a payout file has this EndToEndId" }],
    });
    assert.equal((await stateOf(theirs)).state, "topay");

    const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
    const pending = await db.transaction((tx) =>
      cancelTransfer(tx, { subscriptionId: other.subscriptionId, transferId: theirs, cancellationReason: "CUSTOMER_REQUEST", now: clock.now() }),
    );
    assert.equal(pending.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    assert.deepEqual(await importReport(report, other.partnerId), { transactions: 1, applied: 1, unmatched: 0, duplicates: 0, unmatchedLines: [] });
    const row = await stateOf(theirs);
    assert.equal(row.state, "paid");
    const { transferDetail } = await import("@/lib/payments/transfers/view");
    assert.equal((await transferDetail(db, row)).cancellation?.cancellationOutcome, "NETWORK_ALREADY_PAID");
  });

  test("RJCT on a pending customer cancellation: canceled, and the bank's reason still shows in the detail and the event (issue 20 item 9)", async () => {
    const other = await newSubscription(db);
    const theirs = (await fundedTransfer(other, "002010077777777771")).id;
    await generate(other.partnerId);
    const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
    await db.transaction((tx) =>
      cancelTransfer(tx, { subscriptionId: other.subscriptionId, transferId: theirs, cancellationReason: "CUSTOMER_REQUEST", now: clock.now() }),
    );
    const report = pain002("REP-4", "pof_z", [{ endToEndId: theirs, status: "RJCT", reason: "MD07" }]);
    assert.equal((await importReport(report, other.partnerId)).applied, 1);
    const row = await stateOf(theirs);
    assert.equal(row.state, "canceled");
    const why = { code: "PAYOUT_BENEFICIARY_DECEASED", isoReasonCode: "MD07", description: "Beneficiary deceased" };
    const { transferDetail } = await import("@/lib/payments/transfers/view");
    assert.deepEqual((await transferDetail(db, row)).rejectionReason, why);
    const [event] = await db
      .select()
      .from(events)
      .where(sql`${events.body}->'data'->>'transferId' = ${theirs} and ${events.body}->'data'->>'state' = 'canceled'`);
    assert.deepEqual((event.body.data as { rejectionReason?: unknown }).rejectionReason, why);
  });
});

describe("a payout file's execution date and creditor address", () => {
  const executionDate = (xml: string) => xml.match(/<ReqdExctnDt>([^<]+)<\/ReqdExctnDt>/)?.[1];

  test("ReqdExctnDt is the payout bank's next business day: a Saturday's file executes Monday, Christmas Eve's after Christmas", async () => {
    // The sandbox bank's BIC is German (SBOXDEFFXXX): its calendar is Germany's, in UTC (COLLECTION_ACCOUNT_TIME_ZONE unset).
    const cases = [
      ["2026-11-28T10:00:00Z", "2026-11-30"], // Saturday
      ["2026-11-29T23:59:00Z", "2026-11-30"], // Sunday night
      ["2026-12-23T15:00:00Z", "2026-12-23"], // a business day stays
      ["2026-12-24T09:00:00Z", "2026-12-28"], // Christmas Eve (German banks closed), Christmas Day, Boxing Day on Saturday, Sunday
    ] as const;
    for (const [at, expected] of cases) {
      const owner = await newSubscription(db);
      await fundedTransfer(owner, "002010077777777771");
      const [file] = await generate(owner.partnerId, new Date(at));
      assert.equal(executionDate(file.xml), expected, at);
      assert.equal(file.payment.executionDate, expected);
      assert.deepEqual(await pain001SchemaErrors(file.xml), []);
    }
  });

  test("Cdtr/PstlAdr carries the beneficiary's structured address when it is known, and only the country when not", async () => {
    const owner = await newSubscription(db);
    const address = { addressLine1: "Calle Hidalgo 45", addressLine2: "Interior 3", city: "Guadalajara", region: "JAL", postalCode: "44100", country: "MEX" };
    const known = await fundedTransfer(owner, "002010077777777771", "MXN", "100.000000", address);
    const unknown = await fundedTransfer(owner, "DE89 3704 0044 0532 0130 00", "MXN", "10.000000");
    const [file] = await generate(owner.partnerId);
    assert.deepEqual(await pain001SchemaErrors(file.xml), [], "valid against the shipped pain.001.001.03 schema");
    const creditor = (id: string) => {
      const tx = file.xml.split("<CdtTrfTxInf>").find((t) => t.includes(`<EndToEndId>${id}</EndToEndId>`))!;
      return tx.match(/<Cdtr>([\s\S]*?)<\/Cdtr>/)![1].replace(/\s+/g, "");
    };
    assert.equal(
      creditor(known.id),
      "<Nm>AnaRuiz</Nm><PstlAdr><StrtNm>CalleHidalgo45</StrtNm><PstCd>44100</PstCd><TwnNm>Guadalajara</TwnNm><CtrySubDvsn>JAL</CtrySubDvsn><Ctry>MX</Ctry><AdrLine>Interior3</AdrLine></PstlAdr>",
    );
    assert.equal(creditor(unknown.id), "<Nm>AnaRuiz</Nm><PstlAdr><Ctry>MX</Ctry></PstlAdr>");
  });
});
