/**
 * Payouts that can be repaired on a real database (PGlite; PostgreSQL with
 * TEST_DB_URL): generated files carry the customer as ultimate debtor and validate against the
 * shipped XSD; a pain.002 RJCT of the account waits for a repair, the repaired payout goes into
 * the next file and ends paid with balanced books; a return after paid owes the refund; a file
 * rejected whole rejects each of its lines.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customers, events, payoutFileItems, payoutMethods, proposals, screeningCases, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { accountBalances, toMinor, transferEntries } from "@/lib/finance/ledger";
import { freshDb } from "../../support/db";
import { refundOf } from "../../support/refunds";
import { newSubscription, registeredTransfer, type Owner, insertBeneficiary } from "../../support/fixtures";
import { pain001SchemaErrors, pain002 } from "../../support/iso20022";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  // One payout bank with its charge bearer and purpose code.
  process.env.PAYOUT_BANKS = JSON.stringify([
    {
      id: "mxbank",
      name: "MX Payout Bank",
      bic: "BNMXMXMMXXX",
      debtorAccount: { scheme: "CLABE", id: "002010077777777771" },
      debtorName: "Remit Ltd",
      currencies: ["MXN"],
      chargeBearer: "SHAR",
      purposeCode: "FAMI",
    },
  ]);
  ({ db, close } = await freshDb());
});
after(() => close());

const PROFILE = {
  firstName: "John",
  lastName: "Public",
  dateOfBirth: "1980-02-29",
  nationality: "USA",
  residenceCountry: "USA",
  residenceAddress: { addressLine1: "1 Main Street", city: "Springfield", postalCode: "12345", region: "IL", country: "USA" },
  placeOfBirth: { city: "Chicago", country: "USA" },
};

async function addMethod(beneficiaryId: string, identifier: string) {
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  const id = newId("pm");
  await db.insert(payoutMethods).values({
    id,
    beneficiaryId,
    methodType: "BANK_TRANSFER",
    corridor: "US-MX",
    destinationIdentifierEncrypted: (await destinationCipher(db)).encrypt(identifier, id),
    destinationIdentifierMasked: `****${identifier.slice(-4)}`,
    addedAt: clock.now(),
  });
  return id;
}

/** A funded (by card) MXN transfer of `owner`'s customer (with a profile) to a beneficiary paid at `identifier`. */
async function fundedTransfer(owner: Owner, identifier: string) {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const created = await registeredTransfer(db, owner);
  const now = clock.now();
  await db.update(customers).set({ profile: PROFILE }).where(eq(customers.id, owner.customerId));
  const beneficiaryId = await insertBeneficiary(db, owner, now, { lastName: "Ruiz", countryOfResidence: "MEX" });
  const methodId = await addMethod(beneficiaryId, identifier);
  await db.update(transfers).set({ beneficiaryId, payoutMethodId: methodId }).where(eq(transfers.id, created.id));
  return db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, created.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    return transitionTransfer(tx, funding, "funding.succeeded", now, { fundedFrom: "cash:card-clearing" });
  });
}

const generate = async (partnerId: string) => {
  const { generatePayoutFiles } = await import("@/lib/payments/payouts/generate");
  return db.transaction((tx) => generatePayoutFiles(tx, { now: clock.now(), partnerId }));
};
const importReport = async (xml: string) => {
  const { importPaymentStatusReport } = await import("@/lib/payments/payouts/status-import");
  return db.transaction((tx) => importPaymentStatusReport(tx, { xml, now: clock.now() }));
};
const stateOf = async (id: string) => (await db.select().from(transfers).where(eq(transfers.id, id)))[0];
const attemptsOf = (id: string) => db.select().from(payoutFileItems).where(eq(payoutFileItems.transferId, id)).orderBy(payoutFileItems.attempt);
const balances = async (transferId: string) =>
  Object.fromEntries((await accountBalances(db, { transferId })).map((a) => [`${a.code} ${a.currency}`, a.balance]));
/** Every entry of the transfer balances in each currency. */
async function assertBalanced(transferId: string) {
  for (const e of await transferEntries(db, transferId)) {
    const sums = new Map<string, bigint>();
    for (const l of e.lines) sums.set(l.currency, (sums.get(l.currency) ?? 0n) + l.debit - l.credit);
    for (const [currency, sum] of sums) assert.equal(sum, 0n, `${e.kind} ${currency}`);
  }
}

/** The data of the transfer's events of a type, oldest first. */
const eventsOf = async (transferId: string, eventType: string) =>
  (
    await db
      .select()
      .from(events)
      .where(and(sql`${events.body}->'data'->>'transferId' = ${transferId}`, sql`${events.body}->>'eventType' = ${eventType}`))
      .orderBy(events.sequence)
  ).map((e) => e.body.data);
describe("payouts that can be repaired (issue 24 item 8)", () => {
  let owner: Owner;
  const ids: Record<string, string> = {};

  before(async () => {
    owner = await newSubscription(db);
    ids.repaired = (await fundedTransfer(owner, "002010077777777771")).id;
    ids.returned = (await fundedTransfer(owner, "002010077777777771")).id;
  });

  test("the file carries the customer as ultimate debtor, the bank's charge bearer and purpose, the CLABE scheme; XSD-valid", async () => {
    const [file] = await generate(owner.partnerId);
    ids.firstFile = file.id;
    assert.equal(file.transactionCount, 2);
    assert.deepEqual(await pain001SchemaErrors(file.xml), []);
    assert.match(file.xml, /<ChrgBr>SHAR<\/ChrgBr>/);
    assert.match(
      file.xml,
      /<UltmtDbtr>\s*<Nm>John Public<\/Nm>\s*<PstlAdr>\s*<StrtNm>1 Main Street<\/StrtNm>\s*<PstCd>12345<\/PstCd>\s*<TwnNm>Springfield<\/TwnNm>\s*<CtrySubDvsn>IL<\/CtrySubDvsn>\s*<Ctry>US<\/Ctry>/,
    );
    assert.match(file.xml, /<DtAndPlcOfBirth>\s*<BirthDt>1980-02-29<\/BirthDt>\s*<CityOfBirth>Chicago<\/CityOfBirth>\s*<CtryOfBirth>US<\/CtryOfBirth>/);
    assert.match(file.xml, new RegExp(`<Id>${owner.customerId}</Id>\\s*<SchmeNm>\\s*<Cd>CUST</Cd>`));
    assert.match(file.xml, /<Id>002010077777777771<\/Id>\s*<SchmeNm>\s*<Prtry>CLABE<\/Prtry>/);
    assert.match(file.xml, /<Purp>\s*<Cd>FAMI<\/Cd>/);
    assert.doesNotMatch(file.xml, /BANK_TRANSFER/);
  });

  test("RJCT of the account waits for a repair; the repaired payout goes into the next file and ends paid with balanced books", async () => {
    const first = await importReport(
      pain002("REP-R1", "pof_1", [
        { endToEndId: ids.repaired, status: "RJCT", reason: "AC04" },
        { endToEndId: ids.returned, status: "ACSC" },
      ]),
    );
    assert.equal(first.applied, 2);
    // Still with the network (the spec's machine has no repairing state); the attempt says why.
    let t = await stateOf(ids.repaired);
    assert.equal(t.state, "topay");
    assert.equal(t.rejectionReason, "PAYOUT_ACCOUNT_CLOSED");
    assert.equal(await refundOf(db, ids.repaired), null, "no refund while it can be repaired");
    assert.deepEqual(
      (await attemptsOf(ids.repaired)).map((a) => [a.attempt, a.state, a.reasonCode]),
      [[1, "REJECTED", "AC04"]],
    );
    // The app learns it from the transfer's detail (and gives a new destination: payout-repair).
    const { transferDetail } = await import("@/lib/payments/transfers/view");
    const detail = await transferDetail(db, t);
    assert.deepEqual(detail.payoutRepair?.rejectionReason, { code: "PAYOUT_ACCOUNT_CLOSED", isoReasonCode: "AC04", description: "Account closed" });
    // Named, and announced: the partner need not poll to learn a repair is wanted.
    assert.equal(detail.customerActionExpected, "REPAIR_PAYOUT");
    assert.deepEqual(await eventsOf(ids.repaired, "payout.repair.required"), [
      {
        transferId: ids.repaired,
        attempt: 1,
        rejectionReason: { code: "PAYOUT_ACCOUNT_CLOSED", isoReasonCode: "AC04", description: "Account closed" },
        customerActionExpected: "REPAIR_PAYOUT",
      },
    ]);
    // As answered (JSON): an absent field is undefined in the view and not sent.
    assert.equal("rejectionReason" in JSON.parse(JSON.stringify(detail)), false, "not rejected: the transfer's own rejection reason is for rejected transfers");
    const { payoutsAwaitingRepair } = await import("@/lib/payments/payouts/attempts");
    assert.ok((await payoutsAwaitingRepair(db)).some((r) => r.transferId === ids.repaired));
    // Nothing to resend before the repair.
    assert.deepEqual(await generate(owner.partnerId), []);

    const { repairPayout } = await import("@/lib/payments/payouts/attempts");
    const { lockTransfer } = await import("@/lib/payments/transfers/records");
    const newMethod = await addMethod(t.beneficiaryId, "012180001234567897");
    await db.transaction(async (tx) => repairPayout(tx, { transfer: (await lockTransfer(tx, ids.repaired))!, payoutMethodId: newMethod }, clock.now()));
    // The flag clears with the repair, and the partner is told.
    assert.equal((await transferDetail(db, await stateOf(ids.repaired))).customerActionExpected, "WAIT");
    assert.deepEqual(await eventsOf(ids.repaired, "payout.repaired"), [
      { transferId: ids.repaired, attempt: 1, payoutMethodId: newMethod, customerActionExpected: "WAIT" },
    ]);
    const [resend] = await generate(owner.partnerId);
    ids.resendFile = resend.id;
    assert.equal(resend.transactionCount, 1);
    assert.deepEqual(await pain001SchemaErrors(resend.xml), []);
    assert.match(resend.xml, new RegExp(`<InstrId>${ids.repaired}/2</InstrId>\\s*<EndToEndId>${ids.repaired}</EndToEndId>`));
    assert.match(resend.xml, /<Id>012180001234567897<\/Id>/);
    assert.deepEqual(
      (await attemptsOf(ids.repaired)).map((a) => [a.attempt, a.state]),
      [
        [1, "RESENT"],
        [2, "SENT"],
      ],
    );
    t = await stateOf(ids.repaired);
    assert.equal(t.state, "topay");
    assert.equal(t.payoutMethodId, newMethod);
    assert.equal("payoutRepair" in JSON.parse(JSON.stringify(await transferDetail(db, t))), false, "repaired: nothing more asked");

    // Statuses of attempt 1 after the resend (the first report re-imported, a late answer naming
    // the first file or the first InstrId) are stale: the resend stays SENT, nothing is refunded.
    const withInstrId = (xml: string, instrId: string) => xml.replace("<OrgnlEndToEndId>", `<OrgnlInstrId>${instrId}</OrgnlInstrId><OrgnlEndToEndId>`);
    const late: [string, "stale" | "duplicate"][] = [
      [pain002("REP-R1", "pof_1", [{ endToEndId: ids.repaired, status: "RJCT", reason: "AC04" }]), "stale"],
      [pain002("REP-L1", ids.firstFile, [{ endToEndId: ids.repaired, status: "RJCT", reason: "MS03" }]), "duplicate"],
      [pain002("REP-L2", ids.firstFile, [{ endToEndId: ids.repaired, status: "ACSC" }]), "stale"],
      [withInstrId(pain002("REP-L3", "pof_unknown", [{ endToEndId: ids.repaired, status: "ACSP" }]), ids.repaired), "stale"],
    ];
    for (const [xml, expected] of late) {
      const counts = await importReport(xml);
      assert.deepEqual(
        [counts.applied, counts.duplicates, counts.unmatchedLines.map((l) => l.reason)],
        expected === "stale" ? [0, 0, ["STALE_ATTEMPT"]] : [0, 1, []],
        xml.match(/<MsgId>(.*?)<\/MsgId>/)![1],
      );
    }
    assert.deepEqual(
      (await attemptsOf(ids.repaired)).map((a) => [a.attempt, a.state]),
      [
        [1, "RESENT"],
        [2, "SENT"],
      ],
    );
    assert.equal((await stateOf(ids.repaired)).state, "topay");
    assert.equal(await refundOf(db, ids.repaired), null);
    // The resend's ACSC (its InstrId `<id>/2`) pays.
    const second = await importReport(withInstrId(pain002("REP-R2", resend.id, [{ endToEndId: ids.repaired, status: "ACSC" }]), `${ids.repaired}/2`));
    assert.equal(second.applied, 1);
    assert.equal((await stateOf(ids.repaired)).state, "paid");
    assert.deepEqual(await balances(ids.repaired), { "transfer:customer-funds USD": 0n, "transfer:payout-in-flight MXN": 0n });
    const kinds = (await transferEntries(db, ids.repaired)).map((e) => e.kind);
    assert.deepEqual(kinds, ["funding.received", "payout.sent", "payout.confirmed"], "sent once, paid once: no second conversion");
    await assertBalanced(ids.repaired);
  });

  test("a return after paid (pain.002 RJCT of a paid payout) moves the funds back and owes the refund", async () => {
    const paid = await stateOf(ids.returned);
    assert.equal(paid.state, "paid");
    const payoutBank = async () => (await accountBalances(db, { code: "cash:payout-bank", currency: "MXN" }))[0].balance;
    const bankBefore = await payoutBank();
    const report = pain002("REP-R3", "pof_1", [{ endToEndId: ids.returned, status: "RJCT", reason: "AC04" }]);
    assert.equal((await importReport(report)).applied, 1);
    const t = await stateOf(ids.returned);
    assert.equal(t.state, "paid", "paid is terminal: the refund carries the return");
    assert.equal((await refundOf(db, ids.returned))?.state, "PENDING");
    assert.equal((await attemptsOf(ids.returned))[0].state, "RETURNED");
    const total = toMinor(t.totalCustomerCost, "USD");
    assert.deepEqual(await balances(ids.returned), {
      "transfer:customer-funds USD": 0n,
      "transfer:payout-in-flight MXN": 0n,
      "transfer:refund-due USD": -total,
    });
    assert.equal(await payoutBank(), bankBefore + toMinor(t.destinationAmount, "MXN"), "the money is back at the payout bank");
    // Again: nothing more.
    assert.equal((await importReport(report)).duplicates, 1);

    const { moveRefund } = await import("@/lib/payments/transfers/refunds");
    const { lockTransfer } = await import("@/lib/payments/transfers/records");
    await db.transaction(async (tx) => moveRefund(tx, (await lockTransfer(tx, ids.returned))!, "operator.paid", clock.now(), { bankReference: "RET-1" }));
    assert.equal((await balances(ids.returned))["transfer:refund-due USD"], 0n);
    await assertBalanced(ids.returned);
  });

  test("the transfer page's payouts: a payout paid on its resend no longer shows the first rejection; every attempt is listed (issue 36 item 15)", async () => {
    const { payoutAttemptsOf, payoutRejectionOf } = await import("@/lib/payments/payouts/console");
    assert.equal(await payoutRejectionOf(db, ids.repaired), null, "rejected (AC04), repaired, resent, paid");
    const attempts = await payoutAttemptsOf(db, ids.repaired);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.state, a.reasonCode, a.reason?.description ?? null, a.payoutFileId, a.statuses.map((s) => [s.status, s.reasonCode])]),
      [
        [1, "RESENT", "AC04", "Account closed", ids.firstFile, [["RJCT", "AC04"]]],
        [2, "SENT", null, null, ids.resendFile, [["ACSC", null]]],
      ],
    );
    for (const a of attempts) {
      assert.match(a.fileName, /\.xml$/);
      assert.deepEqual(
        [a.currency, typeof a.amount, a.sentAt instanceof Date, a.stateChangedAt === null || a.stateChangedAt instanceof Date],
        ["MXN", "string", true, true],
      );
    }
    assert.ok(attempts[0].stateChangedAt! >= attempts[0].sentAt, "rejected, then resent, after it was sent");
    // A payment returned after it was paid (its only attempt's RJCT) still says why.
    assert.equal((await payoutRejectionOf(db, ids.returned))?.isoReasonCode, "AC04");
  });

  test("a file rejected whole (GrpSts RJCT) rejects every line; a reason no repair fixes refunds at once", async () => {
    const other = await newSubscription(db);
    const a = (await fundedTransfer(other, "002010077777777771")).id;
    const b = (await fundedTransfer(other, "002010077777777771")).id;
    const [file] = await generate(other.partnerId);
    const whole = pain002("REP-G1", file.id, []).replace(
      "<OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId>",
      "<OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId><GrpSts>RJCT</GrpSts><StsRsnInf><Rsn><Cd>FF01</Cd></Rsn></StsRsnInf>",
    );
    const counts = await importReport(whole);
    assert.deepEqual([counts.transactions, counts.applied], [2, 2]);
    for (const id of [a, b]) {
      const t = await stateOf(id);
      assert.equal(t.state, "rejected");
      assert.equal(t.rejectionReason, "PAYOUT_FILE_INVALID");
      assert.equal((await refundOf(db, id))?.state, "PENDING");
      assert.equal((await attemptsOf(id))[0].state, "ABANDONED");
      await assertBalanced(id);
    }
    assert.equal((await importReport(whole)).duplicates, 2);
  });

  test("the customer's app supplies the new destination (POST payout-repair's domain): format-checked, only while a rejection waits", async () => {
    const other = await newSubscription(db);
    const id = (await fundedTransfer(other, "002010077777777771")).id;
    const { repairPayoutForCustomer } = await import("@/lib/payments/payouts/repair");
    const repair = (payoutMethod: { methodType: string; destinationIdentifier?: string; payoutMethodId?: string }, subscriptionId = other.subscriptionId) =>
      db.transaction((tx) => repairPayoutForCustomer(tx, { subscriptionId, transferId: id, payoutMethod, now: clock.now() }));
    const code = (c: string) => (e: Error & { code?: string }) => e.code === c;
    // Nothing rejected yet: 409.
    await assert.rejects(repair({ methodType: "BANK_TRANSFER", destinationIdentifier: "012180001234567899" }), code("transfer.stateInvalid"));
    const [file] = await generate(other.partnerId);
    await importReport(pain002("REP-C1", file.id, [{ endToEndId: id, status: "RJCT", reason: "AC03" }]));
    await assert.rejects(repair({ methodType: "BANK_TRANSFER", destinationIdentifier: "12" }), code("validation.fieldFormatInvalid"));
    await assert.rejects(repair({ methodType: "BANK_TRANSFER" }), code("validation.destinationIdentifierMissing"));
    await assert.rejects(repair({ methodType: "BANK_TRANSFER", destinationIdentifier: "012180001234567899" }, owner.subscriptionId), code("transfer.notFound"));
    // The checks submit runs on a destination: the substance (a CLABE's check digit), the beneficiary
    // may receive money, no open screening case.
    await assert.rejects(repair({ methodType: "BANK_TRANSFER", destinationIdentifier: "012180001234567890" }), code("validation.fieldInvalid"));
    const { beneficiaryId, customerId } = await stateOf(id);
    await db.update(beneficiaries).set({ state: "BLOCKED" }).where(eq(beneficiaries.id, beneficiaryId));
    await assert.rejects(repair({ methodType: "BANK_TRANSFER", destinationIdentifier: "012180001234567899" }), code("beneficiary.stateBlocking"));
    await db.update(beneficiaries).set({ state: "VALID" }).where(eq(beneficiaries.id, beneficiaryId));
    const caseId = newId("scase");
    const now = clock.now();
    await db.insert(screeningCases).values({
      id: caseId,
      subjectType: "beneficiary",
      subjectId: beneficiaryId,
      customerId,
      state: "OPEN",
      entries: [],
      evidence: [],
      heldTransferIds: [],
      createdAt: now,
      updatedAt: now,
    });
    await assert.rejects(repair({ methodType: "BANK_TRANSFER", destinationIdentifier: "012180001234567899" }), code("beneficiary.stateInsufficient"));
    await db.delete(screeningCases).where(eq(screeningCases.id, caseId));
    assert.equal((await attemptsOf(id))[0].state, "REJECTED", "nothing repaired by a refused destination");
    const answer = await repair({ methodType: "BANK_TRANSFER", destinationIdentifier: "012180001234567899" });
    assert.equal(answer.transferStatus, "topay");
    assert.equal(answer.payoutMethod.destinationIdentifierMasked, "****7899");
    assert.equal((await attemptsOf(id))[0].state, "REPAIRED");
    const [resend] = await generate(other.partnerId);
    assert.match(resend.xml, /<Id>012180001234567899<\/Id>/);
    assert.deepEqual(await pain001SchemaErrors(resend.xml), []);
  });

  test("an operator's repair is one command: the new destination staged (checked, encrypted) and proposed; a second operator's approval repairs it", async () => {
    const other = await newSubscription(db);
    const id = (await fundedTransfer(other, "002010077777777771")).id;
    const [file] = await generate(other.partnerId);
    await importReport(pain002("REP-D1", file.id, [{ endToEndId: id, status: "RJCT", reason: "AC04" }]));
    const { approve } = await import("@/lib/operations/dual-control/proposals");
    const { act } = await import("@/lib/operations/commands/run");
    const { inUnit } = await import("@/lib/platform/unit-of-work");
    const maker = { id: "op_rep_maker", email: "rep-maker@example.com", name: "Maker", role: "admin" as const };
    const checker = { id: "op_rep_checker", email: "rep-checker@example.com", name: "Checker", role: "admin" as const };
    const now = clock.now();
    const ask = (destinationIdentifier: string) =>
      inUnit(
        ({ tx }) =>
          act(
            tx,
            "transfer.payout.repair",
            { transferId: id, methodType: "BANK_TRANSFER", destinationIdentifier },
            { operator: maker, reason: "Beneficiary called with a new CLABE", now },
          ),
        { db },
      );
    // The command checks the destination as submit does before anything is proposed.
    await assert.rejects(ask("012180001234567890"), (e: Error & { code?: string }) => e.code === "validation.fieldInvalid");
    assert.equal((await db.select().from(proposals).where(eq(proposals.subjectId, id))).length, 0, "a refused destination proposes nothing");
    const acted = await ask("012180001234567899");
    assert.equal(acted.kind, "proposed");
    assert.equal((await attemptsOf(id))[0].state, "REJECTED", "one operator redirects nothing");
    assert.doesNotMatch(JSON.stringify(acted.kind === "proposed" ? acted.proposal : {}), /012180001234567899/, "no identifier in clear in the proposal");
    const staged = acted.kind === "proposed" ? (acted.proposal.payload as { payoutMethodId: string }).payoutMethodId : "";
    const [method] = await db.select().from(payoutMethods).where(eq(payoutMethods.id, staged));
    assert.equal(method.destinationIdentifierMasked, "****7899", "the proposal names the staged payout method");
    await assert.rejects(
      inUnit(({ tx }) => approve(tx, acted.kind === "proposed" ? acted.proposal.id : "", { operator: maker, reason: "mine", now }), { db }),
      (e: Error & { code?: string }) => typeof e.code === "string" && e.code.startsWith("proposal."),
    );
    await inUnit(
      ({ tx }) => approve(tx, acted.kind === "proposed" ? acted.proposal.id : "", { operator: checker, reason: "Confirmed with the beneficiary", now }),
      { db },
    );
    assert.equal((await attemptsOf(id))[0].state, "REPAIRED");
    const [resend] = await generate(other.partnerId);
    assert.match(resend.xml, /<Id>012180001234567899<\/Id>/);
  });

  test("the operator refunds a rejected payout instead of repairing it", async () => {
    const other = await newSubscription(db);
    const id = (await fundedTransfer(other, "002010077777777771")).id;
    const [file] = await generate(other.partnerId);
    await importReport(pain002("REP-O1", file.id, [{ endToEndId: id, status: "RJCT", reason: "AC01" }]));
    assert.equal((await stateOf(id)).state, "topay");
    const { refundRejectedPayout } = await import("@/lib/payments/payouts/attempts");
    const { lockTransfer } = await import("@/lib/payments/transfers/records");
    await db.transaction(async (tx) => refundRejectedPayout(tx, (await lockTransfer(tx, id))!, clock.now()));
    const t = await stateOf(id);
    assert.equal(t.state, "rejected");
    assert.equal(t.rejectionReason, "PAYOUT_ACCOUNT_INVALID");
    assert.equal((await refundOf(db, id))?.state, "PENDING");
    assert.equal((await attemptsOf(id))[0].state, "ABANDONED");
    assert.deepEqual(await generate(other.partnerId), [], "not resent");
  });
});
