/**
 * Screening cases on the database, driving the jobs and domain calls directly:
 * a list update that makes a beneficiary a close match opens a case and holds the transfer funded
 * before it; a false positive restores it and the same pair is not raised again until the entry
 * changes; a true match blocks the beneficiary, rejects the transfer and moves the money received
 * to blocked:sanctions instead of refunding it, with the blocking report due and the customer
 * flagged.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customerFlags, customers, jobs, payoutMethods, screeningCases, transfers } from "@/db/schema";
import { createBeneficiary } from "@/lib/payments/beneficiaries/manage";
import { screenBeneficiary } from "@/lib/compliance/screening/beneficiary-screen-job";
import { screenCustomer } from "@/lib/compliance/screening/customer-screen-job";
import { addSeconds, clock } from "@/lib/platform/clock";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { accountBalances, transferEntries } from "@/lib/finance/ledger";
import { importPublication, shippedSources } from "@/lib/compliance/screening/list-store";
import type { ScreeningOutcome } from "@/lib/compliance/screening/provider";
import { addBusinessDays, decideCase, raiseCase } from "@/lib/compliance/screening-cases/cases";
import { lockReadyTransfers } from "@/lib/payments/payouts/ready-transfers";
import { fastCheck } from "@/lib/compliance/fast-check/fast-check-job";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { freshDb, secondConnection } from "../../support/db";
import { refundOf } from "../../support/refunds";
import { insertQuoteRows, insertTestTransfer, newSubscription, TRANSFER_TTL_SECONDS, type Owner, insertBeneficiary } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
const operator = { id: "op_test", email: "reviewer@example.com" };

before(async () => {
  process.env.SCREENING_DELAY_MS = "0"; // the test drives the job queue itself
  // A database of its own: the tests publish list versions, and a list published by an earlier run or
  // another file in the run's shared PostgreSQL database changes what a rescreen finds.
  ({ db, close } = await freshDb({ ownDatabase: true }));
  owner = await newSubscription(db);
});
after(() => close());

/**
 * Runs the due jobs this test makes, bar webhook deliveries: on PostgreSQL the database unit tests
 * share one database, and the rescreen a list version starts emits events for every earlier file's
 * subjects, whose deliveries (to those files' endpoints) would outlast any bound here.
 */
async function drain() {
  for (let i = 0; i < 100; i++) if ((await runDueJobs(db, jobRegistry, 20, undefined, { notKinds: ["webhooks.deliver"] })) === 0) return;
  throw new Error("jobs kept running");
}

/** The shipped SDN files with one more listed individual appended (as OFAC publishes an update). */
function listWith(row: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "sdn-cases-"));
  return shippedSources("ofac-sdn").map((source) => {
    let bytes = readFileSync(source);
    if (source.endsWith("sdn.csv")) bytes = Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from(row, "latin1"), bytes.subarray(bytes.length - 1)]);
    const target = path.join(dir, path.basename(source));
    writeFileSync(target, bytes);
    return target;
  });
}

async function newBeneficiary(firstName: string, lastName: string, dateOfBirth?: string): Promise<string> {
  const { beneficiaryId } = await db.transaction((tx) =>
    createBeneficiary(tx, {
      subscriptionId: owner.subscriptionId,
      beneficiary: { firstName, lastName, dateOfBirth, countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
      now: clock.now(),
    }),
  );
  await drain();
  return beneficiaryId;
}

/** A USD 100 → MXN transfer to the beneficiary, funded by card (through the domain calls). */
async function fundedTransfer(beneficiaryId: string, from: Owner = owner): Promise<string> {
  const owner = from;
  const { insertRegisteredTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession, lockFundingSession, completeFunding } = await import("@/lib/payments/transfers/funding");
  const now = clock.now();
  return db.transaction(async (tx: Tx) => {
    const priced = {
      originAmount: "100.000000",
      originCurrency: "USD",
      destinationAmount: "1875.000000",
      destinationCurrency: "MXN",
      fxRate: "18.750000",
      principalFee: "2.990000",
      partnerFee: "0.000000",
      totalCustomerCost: "102.990000",
    };
    const { quoteId } = await insertQuoteRows(tx, owner, priced, now, beneficiaryId);
    const row = await insertRegisteredTransfer(
      tx,
      {
        partnerId: owner.partnerId,
        subscriptionId: owner.subscriptionId,
        customerId: owner.customerId,
        quoteId,
        beneficiaryId,
        ...priced,
        corridor: "US-MX",
        payoutMethod: "bank_account",
        purposeOfTransfer: "FAMILY_SUPPORT",
        expiresAt: addSeconds(now, TRANSFER_TTL_SECONDS),
        createdAt: now,
      },
      now,
    );
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now);
    const { fundingSessionId } = await openFundingSession(tx, funding, now);
    await completeFunding(tx, { ...(await lockFundingSession(tx, fundingSessionId))!, outcome: "SUCCEEDED", method: "CARD", now });
    return row.id;
  });
}

const stateOf = async (transferId: string) => ({
  ...(await db.select().from(transfers).where(eq(transfers.id, transferId)))[0],
  refund: await refundOf(db, transferId),
});
const beneficiaryState = async (id: string) => (await db.select().from(beneficiaries).where(eq(beneficiaries.id, id)))[0].state;
const casesOf = (beneficiaryId: string) =>
  db
    .select()
    .from(screeningCases)
    .where(and(eq(screeningCases.subjectType, "beneficiary"), eq(screeningCases.subjectId, beneficiaryId)));

/** Rescreens one beneficiary as after a list version (the job a new version enqueues per subject). */
async function rescreen(beneficiaryId: string, listVersionId: string) {
  await db.transaction((tx) => screenBeneficiary.run!(tx, { payload: { beneficiaryId, listVersionId }, now: clock.now() } as never));
}

test("a list update that makes a beneficiary a close match opens a case and holds the transfer funded before it; a false positive restores it", async () => {
  await drain(); // the shipped list loads into the fresh database
  const beneficiaryId = await newBeneficiary("Miroslava", "Zztestova");
  assert.equal(await beneficiaryState(beneficiaryId), "VALID", "not listed yet");
  const transferId = await fundedTransfer(beneficiaryId);
  assert.equal((await stateOf(transferId)).state, "funded");

  // OFAC lists "ZZTESTOVA, Miroslava Ivanovna": the beneficiary's name without the patronymic is close, not exact.
  const update = await importPublication(
    db,
    listWith(`99999002,"ZZTESTOVA, Miroslava Ivanovna","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 12 Mar 1971; nationality Russia."\r\n`),
    clock.now(),
  );
  assert.equal(update.created, true);
  await drain();

  assert.equal(await beneficiaryState(beneficiaryId), "MONITORED", "a close match monitors, as the spec allows");
  const [opened] = await casesOf(beneficiaryId);
  assert.equal(opened.state, "OPEN");
  assert.equal(opened.customerId, owner.customerId);
  assert.deepEqual(
    opened.entries.map((e) => [e.list, e.entryId, e.listVersionId]),
    [["ofac-sdn", "99999002", update.versionId]],
  );
  assert.equal(opened.evidence[0].entryName, "ZZTESTOVA, Miroslava Ivanovna");
  assert.deepEqual(opened.heldTransferIds, [transferId]);
  const held = await stateOf(transferId);
  assert.equal(held.state, "spended", "the funded transfer is on compliance hold");
  assert.equal(held.priorState, "funded");

  // The operator clears it: the held transfer is funded again (and so continues to the payout).
  const decided = await db.transaction((tx) =>
    decideCase(tx, { caseId: opened.id, decision: "FALSE_POSITIVE", operator, reason: "Born 1990, Mexican: not the listed person", now: clock.now() }),
  );
  assert.equal(decided.case.state, "FALSE_POSITIVE");
  assert.equal(decided.case.decidedByEmail, operator.email);
  assert.equal(decided.case.decisionReason, "Born 1990, Mexican: not the listed person");
  assert.equal(decided.case.blockingReportDueOn, null);
  assert.deepEqual(decided.transfers, { [transferId]: "funded" });
  assert.equal((await stateOf(transferId)).state, "funded");
  assert.equal(await beneficiaryState(beneficiaryId), "MONITORED");

  // A later version with the same entry content does not raise the pair again...
  await rescreen(beneficiaryId, "slv_later_same_entry");
  assert.deepEqual(
    (await casesOf(beneficiaryId)).map((c) => c.state),
    ["FALSE_POSITIVE"],
  );
  assert.equal((await stateOf(transferId)).state, "funded");
  // ...a second decision on the decided case is refused...
  await assert.rejects(
    db.transaction((tx) => decideCase(tx, { caseId: opened.id, decision: "TRUE_MATCH", operator, reason: "again", now: clock.now() })),
    (e: unknown) => (e as { code?: string }).code === "screeningCase.stateInvalid",
  );
  // ...and a changed entry (here: the evidence of another publication of it) raises it again.
  const changed: ScreeningOutcome = {
    result: "CLOSE_MATCH",
    evidence: [{ ...opened.evidence[0], listVersionId: null, programs: ["SDGT", "RUSSIA-EO14024"] }],
    listVersions: {},
  };
  const reopened = await db.transaction((tx) =>
    raiseCase(tx, { subjectType: "beneficiary", subjectId: beneficiaryId, customerId: owner.customerId }, changed, clock.now()),
  );
  assert.equal(reopened?.state, "OPEN");
  assert.notEqual(reopened?.id, opened.id);
  assert.deepEqual(reopened?.heldTransferIds, [transferId], "the funded transfer is held again");
  await db.transaction((tx) =>
    decideCase(tx, { caseId: reopened!.id, decision: "FALSE_POSITIVE", operator, reason: "Same person as before", now: clock.now() }),
  );
  assert.equal((await stateOf(transferId)).state, "funded");
});

test("a true match blocks the beneficiary, rejects its funded transfer and blocks the money instead of refunding it", async () => {
  // A sandbox magic name one letter off (edit distance 1): a close match from the first screening.
  const beneficiaryId = await newBeneficiary("Olga", "Watchlistowa");
  assert.equal(await beneficiaryState(beneficiaryId), "MONITORED");
  const [opened] = await casesOf(beneficiaryId);
  assert.equal(opened.state, "OPEN");
  assert.deepEqual(
    opened.entries.map((e) => [e.list, e.entryId]),
    [["sandbox-watchlist", "2"]],
  );
  // A transfer funded while the case is open (e.g. approved by a reviewer meanwhile).
  const transferId = await fundedTransfer(beneficiaryId);

  const monday = new Date("2026-11-23T10:00:00Z");
  const decided = await db.transaction((tx) =>
    decideCase(tx, { caseId: opened.id, decision: "TRUE_MATCH", operator, reason: "Same date of birth and passport", now: monday }),
  );
  assert.equal(decided.case.state, "TRUE_MATCH");
  assert.equal(decided.case.blockingReportDueOn, "2026-12-07", "10 business days after Monday 23 November");
  assert.equal(decided.subjectState, "BLOCKED");
  assert.equal(await beneficiaryState(beneficiaryId), "BLOCKED");

  const t = await stateOf(transferId);
  assert.equal(t.state, "rejected");
  assert.equal(t.rejectionReason, "TRF_COMPLIANCE_REJECTED");
  assert.equal(t.refund, null, "no refund of blocked property");
  const refundJobs = await db.select().from(jobs).where(eq(jobs.kind, "transfers.refundStep"));
  assert.equal(refundJobs.filter((j) => JSON.stringify(j.payload).includes(transferId)).length, 0);
  const entries = await transferEntries(db, transferId);
  assert.deepEqual(entries.map((e) => e.kind).sort(), ["funding.received", "funds.blocked"]);
  assert.deepEqual(
    entries.find((e) => e.kind === "funds.blocked")!.lines.map((l) => [l.account, l.debit, l.credit]),
    [
      ["transfer:customer-funds", 10299n, 0n],
      ["blocked:sanctions", 0n, 10299n],
    ],
  );
  assert.deepEqual(
    (await accountBalances(db, { transferId })).filter((b) => b.balance !== 0n),
    [],
    "the transfer's own accounts are empty: the money sits in blocked:sanctions",
  );
  const flags = await db.select().from(customerFlags).where(eq(customerFlags.customerId, owner.customerId));
  assert.deepEqual(
    flags.map((f) => [f.kind, f.beneficiaryId, f.caseId]),
    [["BENEFICIARY_TRUE_MATCH", beneficiaryId, opened.id]],
  );
  // A BLOCKED beneficiary is not rescreened: no new case.
  await rescreen(beneficiaryId, "slv_after_block");
  assert.equal((await casesOf(beneficiaryId)).length, 1);
});

test("a customer's close match opens a case on the customer; a true match blocks the customer", async () => {
  const now = clock.now();
  const customerId = newId("cus");
  const profile = { firstName: "Viktor", lastName: "Sanctionof", dateOfBirth: "1980-01-01", nationality: "MEX" };
  await db.insert(customers).values({ id: customerId, status: "VALID", kycStatus: "COMPLETED", profile, createdAt: now, updatedAt: now });
  await db.transaction((tx) => screenCustomer.run!(tx, { payload: { customerId }, now } as never));
  const [row] = await db.select().from(customers).where(eq(customers.id, customerId));
  assert.equal(row.status, "MONITORED");
  const cases = await db
    .select()
    .from(screeningCases)
    .where(and(eq(screeningCases.subjectType, "customer"), eq(screeningCases.subjectId, customerId)));
  assert.deepEqual(
    cases.map((c) => [c.state, c.customerId, c.entries[0].entryId]),
    [["OPEN", customerId, "1"]],
  );
  const decided = await db.transaction((tx) =>
    decideCase(tx, { caseId: cases[0].id, decision: "TRUE_MATCH", operator, reason: "Same passport", now: clock.now() }),
  );
  assert.equal(decided.subjectState, "BLOCKED");
  assert.equal((await db.select().from(customers).where(eq(customers.id, customerId)))[0].status, "BLOCKED");
});

test("business days skip weekends", () => {
  assert.equal(addBusinessDays(new Date("2026-11-27T23:00:00Z"), 1), "2026-11-30"); // Friday → Monday
  assert.equal(addBusinessDays(new Date("2026-11-28T09:00:00Z"), 10), "2026-12-11"); // Saturday → two weeks on Friday
});

/** Funded transfers the payout run would pick now (rolled back: nothing is filed). */
async function readyIds(): Promise<string[]> {
  const ids: string[] = [];
  await db
    .transaction(async (tx) => {
      ids.push(...(await lockReadyTransfers(tx)).map((r) => r.transfer.id));
      throw new Error("rollback");
    })
    .catch(() => undefined);
  return ids;
}

test("a list update that makes a beneficiary an exact match (HIT) blocks it and holds its funded transfer until a human decides", async () => {
  await drain();
  // The same day of birth as listed: name AND date of birth agree, so the match blocks.
  const confirmedId = await newBeneficiary("Boris", "Zzhitov", "1970-05-01");
  const clearedId = await newBeneficiary("Vera", "Zzhitova", "1975-06-02");
  assert.equal(await beneficiaryState(confirmedId), "VALID");
  const confirmedTransfer = await fundedTransfer(confirmedId);
  const clearedTransfer = await fundedTransfer(clearedId);

  const update = await importPublication(
    db,
    listWith(
      `99999003,"ZZHITOV, Boris","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 01 May 1970." \r\n99999004,"ZZHITOVA, Vera","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 02 Jun 1975." \r\n`,
    ),
    clock.now(),
  );
  assert.equal(update.created, true);
  await drain();

  for (const [beneficiaryId, transferId] of [
    [confirmedId, confirmedTransfer],
    [clearedId, clearedTransfer],
  ]) {
    assert.equal(await beneficiaryState(beneficiaryId), "BLOCKED", "an exact match blocks (decisions 5)");
    const [opened] = await casesOf(beneficiaryId);
    assert.equal(opened?.state, "OPEN", "a rescreen HIT opens a case");
    assert.equal(opened.evidence[0].result, "HIT");
    assert.deepEqual(opened.heldTransferIds, [transferId]);
    const held = await stateOf(transferId);
    assert.equal(held.state, "spended", "money already moving stops");
    assert.equal(held.priorState, "funded");
  }
  const ready = await readyIds();
  assert.ok(!ready.includes(confirmedTransfer) && !ready.includes(clearedTransfer));

  // Confirmed: rejected, the money received blocked (not refunded).
  const [confirmedCase] = await casesOf(confirmedId);
  await db.transaction((tx) => decideCase(tx, { caseId: confirmedCase.id, decision: "TRUE_MATCH", operator, reason: "Same person", now: clock.now() }));
  const rejected = await stateOf(confirmedTransfer);
  assert.equal(rejected.state, "rejected");
  assert.equal(rejected.refund, null);
  assert.ok((await transferEntries(db, confirmedTransfer)).some((e) => e.kind === "funds.blocked"));

  // Cleared: another person of the same name; MONITORED (its HIT remembered), the transfer funded again.
  const [clearedCase] = await casesOf(clearedId);
  const decided = await db.transaction((tx) =>
    decideCase(tx, { caseId: clearedCase.id, decision: "FALSE_POSITIVE", operator, reason: "Other date of birth", now: clock.now() }),
  );
  assert.equal(decided.subjectState, "MONITORED");
  assert.equal((await stateOf(clearedTransfer)).state, "funded");
  await rescreen(clearedId, "slv_after_clearing");
  assert.equal(await beneficiaryState(clearedId), "MONITORED", "the cleared pair does not block again");
  assert.ok((await readyIds()).includes(clearedTransfer));
});

test("the payout run never picks a funded transfer whose beneficiary or customer is BLOCKED", async () => {
  const other = await newSubscription(db);
  const toBlocked = await fundedTransfer(await newBeneficiary("Ilse", "Plainname"));
  const ofBlocked = await fundedTransfer(
    (
      await db.transaction((tx) =>
        createBeneficiary(tx, {
          subscriptionId: other.subscriptionId,
          beneficiary: { firstName: "Ines", lastName: "Plainname", countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
          now: clock.now(),
        }),
      )
    ).beneficiaryId,
    other,
  );
  assert.ok((await readyIds()).includes(toBlocked));
  const [t] = await db.select().from(transfers).where(eq(transfers.id, toBlocked));
  // Set by hand: the states no path should leave a funded transfer in.
  await db.update(beneficiaries).set({ state: "BLOCKED" }).where(eq(beneficiaries.id, t.beneficiaryId));
  await db.update(customers).set({ status: "BLOCKED" }).where(eq(customers.id, other.customerId));
  const ready = await readyIds();
  assert.ok(!ready.includes(toBlocked), "beneficiary BLOCKED");
  assert.ok(!ready.includes(ofBlocked), "customer BLOCKED");
});

test("a customer cleared as a false positive is VALID again, and its transfer at the fast-check flags the customer's own case", async () => {
  const mine = await newSubscription(db);
  await db
    .update(customers)
    .set({ profile: { firstName: "Viktor", lastName: "Sanctionof", dateOfBirth: "1980-01-01", nationality: "MEX" } })
    .where(eq(customers.id, mine.customerId));
  await db.transaction((tx) => screenCustomer.run!(tx, { payload: { customerId: mine.customerId }, now: clock.now() } as never));
  assert.equal((await db.select().from(customers).where(eq(customers.id, mine.customerId)))[0].status, "MONITORED");

  // A transfer of the cased customer (to an ordinary beneficiary, with a payout method) at its fast-check.
  const { transferId } = await registeredWithMethod(mine);
  await db.transaction((tx) => fastCheck.run!(tx, { payload: { transferId }, now: clock.now() } as never));
  assert.equal((await stateOf(transferId)).state, "onreview");
  const flags = await db.select().from(customerFlags).where(eq(customerFlags.customerId, mine.customerId));
  assert.deepEqual(
    flags.map((f) => f.kind),
    ["PAID_WHILE_CUSTOMER_CASED"],
    "the case is the customer's, not the beneficiary's",
  );

  const [opened] = await db
    .select()
    .from(screeningCases)
    .where(and(eq(screeningCases.subjectType, "customer"), eq(screeningCases.subjectId, mine.customerId)));
  const decided = await db.transaction((tx) =>
    decideCase(tx, { caseId: opened.id, decision: "FALSE_POSITIVE", operator, reason: "Other passport", now: clock.now() }),
  );
  assert.equal(decided.subjectState, "VALID", "no longer MONITORED: later transfers are not all sent to review");
  assert.equal((await db.select().from(customers).where(eq(customers.id, mine.customerId)))[0].status, "VALID");
});

/** A registered transfer of `who` to a new VALID beneficiary with a CLABE payout method: what the fast-check takes. */
async function registeredWithMethod(who: Owner): Promise<{ transferId: string; beneficiaryId: string }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const created = await insertTestTransfer(tx, who, now);
    const beneficiaryId = await insertBeneficiary(tx, who, now, { lastName: "Ruiz", countryOfResidence: "MEX" });
    const methodId = newId("pm");
    await tx.insert(payoutMethods).values({
      id: methodId,
      beneficiaryId,
      methodType: "BANK_TRANSFER",
      corridor: "US-MX",
      destinationIdentifierEncrypted: (await destinationCipher(tx)).encrypt("002010077777777771", methodId),
      destinationIdentifierMasked: "****7771",
      addedAt: now,
    });
    await tx.update(transfers).set({ beneficiaryId, payoutMethodId: methodId }).where(eq(transfers.id, created.id));
    return { transferId: created.id, beneficiaryId };
  });
}

test("a fast-check running while a screening job opens a case waits for it: the transfer goes onreview, not validated unheld", async () => {
  const { db: db2, close: close2 } = await secondConnection(db);
  try {
    const who = await newSubscription(db);
    const { transferId, beneficiaryId } = await registeredWithMethod(who);
    const outcome: ScreeningOutcome = {
      result: "CLOSE_MATCH",
      evidence: [
        {
          list: "sandbox-watchlist",
          entryId: "race",
          listVersionId: null,
          entryName: "RUIZ, Anna",
          programs: ["SDGT"],
          result: "CLOSE_MATCH",
          score: "0.9",
        } as never,
      ],
      listVersions: {},
    };
    let raised!: () => void;
    const caseWritten = new Promise<void>((r) => (raised = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The screening job: beneficiary locked FOR UPDATE, the case written (its hold finds the
    // transfer still registered), not yet committed.
    const job = db.transaction(async (tx) => {
      await tx.select().from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).for("update");
      await raiseCase(tx, { subjectType: "beneficiary", subjectId: beneficiaryId, customerId: who.customerId }, outcome, clock.now());
      raised();
      await gate;
    });
    await caseWritten;
    let checked = false;
    const check = db2.transaction((tx) => fastCheck.run!(tx, { payload: { transferId }, now: clock.now() } as never)).finally(() => (checked = true));
    if (process.env.TEST_DB_URL) {
      // PostgreSQL: until the fast-check waits on the job's row lock (or, unlocked, has finished).
      // PGlite has one connection: the fast-check simply runs after the job.
      for (let i = 0; i < 400 && !checked; i++) {
        const rows = (await db.execute(sql`select count(*)::int as waiting from pg_locks where not granted`)) as unknown as { waiting: number }[];
        const waiting = rows[0].waiting;
        if (waiting > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    release();
    await job;
    await check;
    assert.equal((await stateOf(transferId)).state, "onreview");
  } finally {
    await close2();
  }
});

// Blocked money moves only through its case.

const maker = { id: "op_release_maker", email: "maker@example.com", name: "Maker", role: "reviewer" as const };
const checker = { id: "op_release_checker", email: "checker@example.com", name: "Checker", role: "reviewer" as const };

const refusedWith = (code: string) => (e: unknown) => (e as { code?: string }).code === code;

/** A close match raised on the beneficiary by a rescreen (as the screening job does): its funded transfer is held by the case. */
async function caseHoldingFunded(firstName: string, lastName: string) {
  const beneficiaryId = await newBeneficiary(firstName, lastName);
  const transferId = await fundedTransfer(beneficiaryId);
  const outcome: ScreeningOutcome = {
    result: "CLOSE_MATCH",
    evidence: [
      {
        list: "sandbox-watchlist",
        entryId: `held-${lastName}`,
        listVersionId: null,
        entryName: `${lastName.toUpperCase()}, ${firstName}`,
        programs: ["SDGT"],
        result: "CLOSE_MATCH",
        score: "0.9",
      } as never,
    ],
    listVersions: {},
  };
  const opened = await db.transaction((tx) =>
    raiseCase(tx, { subjectType: "beneficiary", subjectId: beneficiaryId, customerId: owner.customerId }, outcome, clock.now()),
  );
  assert.deepEqual(opened?.heldTransferIds, [transferId]);
  assert.equal((await stateOf(transferId)).state, "spended");
  return { beneficiaryId, transferId, caseId: opened!.id };
}

test("a transfer held for screening is neither rejected (refunded) nor restored from the Holds queue; a hold without a case still is", async () => {
  const { rejectHold } = await import("@/lib/compliance/screening-cases/blocked-money");
  const { act } = await import("@/lib/operations/commands/run");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { lockTransfer } = await import("@/lib/payments/transfers/records");
  const { holdTransfer } = await import("@/lib/compliance/cases/hold");
  const { transferId, caseId } = await caseHoldingFunded("Tomasz", "Heldbycase");

  await assert.rejects(
    inUnit(async ({ tx, now }) => rejectHold(tx, (await lockTransfer(tx, transferId))!, now), { db }),
    (e: unknown) => refusedWith("screeningCase.holdsTransfer")(e) && (e as { details: { caseId: string } }).details.caseId === caseId,
  );
  await assert.rejects(
    inUnit(({ tx, now }) => act(tx, "transfer.hold.restore", { transferId }, { operator: maker, reason: "looks fine", now }), { db }),
    refusedWith("screeningCase.holdsTransfer"),
  );
  const held = await stateOf(transferId);
  assert.equal(held.state, "spended", "still held");
  assert.equal(held.refund, null, "no refund");
  assert.deepEqual(
    (await transferEntries(db, transferId)).map((e) => e.kind),
    ["funding.received"],
  );

  // An operator's own hold (no screening case on the transfer, its customer or beneficiary) is rejected and refunded as before.
  const plain = await fundedTransfer(await newBeneficiary("Ilse", "Holdwithoutcase"));
  await db.transaction(async (tx) => holdTransfer(tx, (await lockTransfer(tx, plain))!, clock.now()));
  await inUnit(async ({ tx, now }) => rejectHold(tx, (await lockTransfer(tx, plain))!, now), { db });
  const rejected = await stateOf(plain);
  assert.equal(rejected.state, "rejected");
  assert.equal(rejected.refund?.state, "PENDING");
});

test("blocked money leaves blocked:sanctions only by a release under licence on its confirmed case: licence required, two operators, audited, balanced", async () => {
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { act } = await import("@/lib/operations/commands/run");
  const { inUnit, runUnit } = await import("@/lib/platform/unit-of-work");
  const { auditLog, journalEntries } = await import("@/db/schema");
  const { trialBalance } = await import("@/lib/finance/ledger");
  const { transferId, caseId } = await caseHoldingFunded("Boris", "Releaseunderlicence");
  const release = (licenceReference: string) => ({ caseId, transferId, licenceReference });

  // Nothing is blocked while the case is open.
  await assert.rejects(
    inUnit(({ tx, now }) => act(tx, "screeningCase.releaseUnderLicence", release("OFAC-SDGT-2026-0001"), { operator: maker, reason: "licence", now }), { db }),
    refusedWith("screeningCase.nothingBlocked"),
  );
  await db.transaction((tx) => decideCase(tx, { caseId, decision: "TRUE_MATCH", operator, reason: "Same passport", now: clock.now() }));
  assert.equal((await stateOf(transferId)).state, "rejected");
  const blockedBalance = async () => {
    const lines = (await transferEntries(db, transferId)).flatMap((e) => e.lines).filter((l) => l.account === "blocked:sanctions");
    return lines.reduce((sum, l) => sum + l.credit - l.debit, 0n);
  };
  assert.equal(await blockedBalance(), 10299n);

  // A licence or authority reference is required.
  for (const missing of ["", "  "]) {
    await assert.rejects(
      inUnit(({ tx, now }) => act(tx, "screeningCase.releaseUnderLicence", release(missing), { operator: maker, reason: "licence", now }), { db }),
      refusedWith("validation.fieldInvalid"),
    );
  }
  // One operator only proposes (even an admin); nothing moves.
  const acted = await inUnit(
    ({ tx, now }) =>
      act(tx, "screeningCase.releaseUnderLicence", release("OFAC-SDGT-2026-0001"), {
        operator: maker,
        reason: "Specific licence authorises return to the remitter",
        now,
      }),
    { db },
  );
  assert.equal(acted.kind, "proposed");
  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  assert.match(acted.kind === "proposed" ? acted.proposal.summary : "", /Release .*102\.99.* under licence OFAC-SDGT-2026-0001/);
  assert.equal(await blockedBalance(), 10299n);
  assert.equal((await stateOf(transferId)).refund, null);
  const self = await runUnit(({ tx, now }) => approve(tx, proposalId, { operator: maker, reason: "mine", now }), { db });
  assert.equal(self.ok ? "released" : self.error.code, "proposal.selfApproval");

  // The second operator's approval releases it: blocked:sanctions → the refund owed, in one balanced entry with the refund.
  const done = await inUnit(({ tx, now }) => approve(tx, proposalId, { operator: checker, reason: "Licence checked with OFAC", now }), { db });
  assert.equal(done.performed.after.refundStatus, "PENDING");
  assert.equal(await blockedBalance(), 0n);
  const t = await stateOf(transferId);
  assert.equal(t.state, "rejected", "the transfer stays rejected");
  assert.equal(t.refund?.state, "PENDING");
  assert.equal(t.refund?.amount, "102.99", "everything the payer paid");
  const released = (await transferEntries(db, transferId)).find((e) => e.kind === "funds.releasedUnderLicence")!;
  assert.deepEqual(
    released.lines.map((l) => [l.account, l.debit, l.credit]),
    [
      ["blocked:sanctions", 10299n, 0n],
      ["transfer:refund-due", 0n, 10299n],
    ],
  );
  const [entry] = await db.select().from(journalEntries).where(eq(journalEntries.id, released.entryId));
  assert.equal(entry.reference, "OFAC-SDGT-2026-0001");
  for (const { debit, credit } of await trialBalance(db)) assert.equal(debit, credit);
  const [audited] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "screeningCase.releaseUnderLicence"), eq(auditLog.targetId, transferId)));
  assert.equal(audited.operatorId, checker.id);
  assert.equal(audited.reason, "Specific licence authorises return to the remitter");
  const after = audited.after as Record<string, unknown>;
  assert.equal(after.licenceReference, "OFAC-SDGT-2026-0001");
  assert.equal(after.proposedBy, maker.email);
  assert.equal(after.approvedBy, checker.email);
  assert.equal(after.released, "102.99");

  // Released once: a second release finds nothing blocked.
  await assert.rejects(
    inUnit(({ tx, now }) => act(tx, "screeningCase.releaseUnderLicence", release("OFAC-SDGT-2026-0002"), { operator: maker, reason: "again", now }), { db }),
    refusedWith("screeningCase.nothingBlocked"),
  );
});
