/**
 * Transaction monitoring (issue 22, "Done when"): per typology of the default pack, the fast-check
 * of a partner in enforce sends the transfer to onreview just past the typology's boundary and
 * passes it just before; shadow records and does not act; a snoozed rule does not count until its
 * expiry at the server's clock; a typology's block threshold reached rejects the transfer in
 * enforce (TRF_CHECK_FAILED, nothing more said) and only records in shadow; the default pack loads
 * from data/monitoring. On PGlite, and on PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import {
  complianceAlerts,
  customers,
  devices,
  events,
  loginIdentifiers,
  monitoringEvaluations,
  monitoringRuleSets,
  monitoringSuppressions,
  partners,
  payoutMethods,
  transfers,
} from "@/db/schema";
import { clock } from "@/lib/clock";
import { freshDb } from "../../support/db";
import { freshClabe } from "../../support/clabe";
import { insertTestTransfer, newSubscription, TRANSFER_TTL_SECONDS, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  // A database of its own: the last tests activate a rule set made for them, which must not judge
  // the other files' transfers (the PostgreSQL database is otherwise shared by a run's files).
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

const HOUR = 3_600_000;
const ANALYST = { id: "op_monitoring_analyst", email: "monitoring-analyst@example.com", name: "Analyst", role: "admin" as const };
const APPROVER = { id: "op_monitoring_approver", email: "monitoring-approver@example.com", name: "Approver", role: "admin" as const };
const ago = (hours: number) => new Date(clock.now().getTime() - hours * HOUR);

/** A sender whose partner is in `mode`. */
async function sender(mode: "enforce" | "shadow" = "enforce"): Promise<Owner> {
  const owner = await newSubscription(db);
  await db.update(partners).set({ monitoringMode: mode }).where(eq(partners.id, owner.partnerId));
  return owner;
}

interface TransferSpec {
  amount?: string;
  /** When it was submitted (default now). */
  at?: Date;
  beneficiaryId?: string;
  /** A new beneficiary created then (default 30 days ago: not new). */
  beneficiaryCreatedAt?: Date;
  clabe?: string;
  fundedThenCancelled?: boolean;
}

/** A registered, submitted US-MX transfer of `owner` with a CLABE payout method (its destination key as submit computes it). */
async function transfer(owner: Owner, spec: TransferSpec = {}): Promise<{ transferId: string; beneficiaryId: string }> {
  const { destinationCipher } = await import("@/lib/crypto/destination-cipher");
  const { destinationKey } = await import("@/lib/monitoring/destination-key");
  const amount = spec.amount ?? "100.000000";
  const at = spec.at ?? clock.now();
  const priced = {
    originAmount: amount,
    originCurrency: "USD",
    destinationAmount: "1.000000",
    destinationCurrency: "MXN",
    fxRate: "18.750000",
    principalFee: "2.990000",
    partnerFee: "0.000000",
    totalCustomerCost: amount,
  };
  return db.transaction(async (tx) => {
    const expiresAt = new Date(clock.now().getTime() + TRANSFER_TTL_SECONDS * 1000);
    const row = await insertTestTransfer(tx, owner, at, spec.beneficiaryId, { priced, expiresAt });
    const { beneficiaryId } = row;
    if (!spec.beneficiaryId) {
      const { beneficiaries } = await import("@/db/schema");
      await tx
        .update(beneficiaries)
        .set({ createdAt: spec.beneficiaryCreatedAt ?? ago(30 * 24) })
        .where(eq(beneficiaries.id, beneficiaryId));
    }
    const clabe = spec.clabe ?? freshClabe();
    const methodId = newId("pm");
    await tx.insert(payoutMethods).values({
      id: methodId,
      beneficiaryId,
      methodType: "BANK_TRANSFER",
      corridor: "US-MX",
      destinationIdentifierEncrypted: (await destinationCipher(tx)).encrypt(clabe, methodId),
      destinationIdentifierMasked: `****${clabe.slice(-4)}`,
      destinationKey: await destinationKey(tx, "BANK_TRANSFER", clabe),
      addedAt: at,
    });
    const funded = spec.fundedThenCancelled
      ? { fundedFrom: "customerFunds" as never, cancellation: { cancellationReason: "CUSTOMER_REQUEST", cancelRequestedAt: at.toISOString() } }
      : {};
    await tx
      .update(transfers)
      .set({ payoutMethodId: methodId, submittedAt: at, ...funded })
      .where(eq(transfers.id, row.id));
    return { transferId: row.id, beneficiaryId };
  });
}

/** Runs the fast-check on the transfer; its state after, and the live evaluation recorded. */
async function fastCheck(transferId: string) {
  const { fastCheck } = await import("@/lib/transfers/fast-check-job");
  await db.transaction((tx) => fastCheck.run!(tx, { payload: { transferId }, now: clock.now() } as never));
  const [t] = await db.select().from(transfers).where(eq(transfers.id, transferId));
  const [evaluation] = await db
    .select()
    .from(monitoringEvaluations)
    .where(and(eq(monitoringEvaluations.transferId, transferId), eq(monitoringEvaluations.run, "live")));
  const alerts = await db.select().from(complianceAlerts).where(eq(complianceAlerts.transferId, transferId));
  return { state: t.state, rejectionReason: t.rejectionReason, evaluation, fired: evaluation.fired.map((f) => f.rule), alerts };
}

async function expectHeld(transferId: string, rule: string) {
  const r = await fastCheck(transferId);
  assert.equal(r.state, "onreview", `${rule}: ${JSON.stringify(r.evaluation)}`);
  assert.ok(r.fired.includes(rule), `${rule} fired: ${JSON.stringify(r.evaluation)}`);
  assert.equal(r.evaluation.outcome, "review");
  assert.equal(r.evaluation.mode, "enforce");
  assert.deepEqual(
    r.alerts.map((a) => [a.kind, a.shadow, a.evaluationId]),
    [["MONITORING_REVIEW", false, r.evaluation.id]],
    "the customer's case has the alert",
  );
  return r;
}

async function expectPassed(transferId: string, rule: string) {
  const r = await fastCheck(transferId);
  assert.equal(r.state, "validated", `${rule}: ${JSON.stringify(r.evaluation)}`);
  assert.equal(r.fired.includes(rule), false, `${rule} did not fire: ${JSON.stringify(r.evaluation)}`);
  return r;
}

test("the default pack loads from data/monitoring: version 1 active, the FATF lists with their plenary date", async () => {
  const { defaultPack, readHighRiskFile } = await import("@/lib/monitoring/rule-set");
  const [v1] = await db.select().from(monitoringRuleSets).where(eq(monitoringRuleSets.version, 1));
  assert.equal(v1.state === "active" || v1.state === "retired", true);
  assert.deepEqual(v1.document, defaultPack());
  const fatf = readHighRiskFile();
  assert.match(fatf.plenaryDate, /^\d{4}-\d{2}-\d{2}$/);
  assert.deepEqual(v1.document.lists.highRiskCountries, [...fatf.callForAction, ...fatf.increasedMonitoring].map((c) => c.alpha2).sort());
  assert.ok(v1.document.lists.highRiskCountries.includes("IR") && v1.document.lists.highRiskCountries.includes("KP"));
  assert.deepEqual(
    v1.document.typologies.map((t) => t.id),
    [
      "structuring",
      "sender_velocity",
      "collection_account",
      "beneficiary_fan_out",
      "shared_identifiers",
      "high_risk_destination",
      "fund_then_cancel",
      "new_beneficiary_large_amount",
    ],
  );
});

describe("structuring: each transfer in [90%, 100%) of the threshold within 24 h, together at or above it", () => {
  test("the second 950 within 24 h is held", async () => {
    const s = await sender();
    await transfer(s, { amount: "950.000000", at: ago(23) });
    const { transferId } = await transfer(s, { amount: "950.000000" });
    await expectHeld(transferId, "structuring");
    const { monitoringReasons } = await import("@/lib/monitoring/queries");
    assert.deepEqual((await monitoringReasons(db, [transferId])).get(transferId), ["monitoring: structuring (review)"], "the review queue says why");
  });
  test("not when the first was 24 h and more ago, nor when it was just under 90%", async () => {
    const s = await sender();
    await transfer(s, { amount: "950.000000", at: ago(24.01) });
    await expectPassed((await transfer(s, { amount: "950.000000" })).transferId, "structuring");
    const t = await sender();
    await transfer(t, { amount: "899.990000", at: ago(1) });
    await expectPassed((await transfer(t, { amount: "950.000000" })).transferId, "structuring");
  });
});

describe("sender velocity", () => {
  test("the sixth transfer in 24 h is held, the fifth is not", async () => {
    const s = await sender();
    for (let i = 0; i < 4; i++) await transfer(s, { at: ago(20 - i) });
    await expectPassed((await transfer(s)).transferId, "velocity_count_24h");
    await expectHeld((await transfer(s)).transferId, "velocity_count_24h");
  });
  test("a sum above 3 × the threshold in 24 h is held; exactly 3 × is not", async () => {
    const s = await sender();
    for (let i = 0; i < 3; i++) await transfer(s, { amount: "800.000000", at: ago(10 - i) });
    await expectPassed((await transfer(s, { amount: "600.000000" })).transferId, "velocity_sum_24h");
    const t = await sender();
    for (let i = 0; i < 3; i++) await transfer(t, { amount: "800.000000", at: ago(10 - i) });
    await expectHeld((await transfer(t, { amount: "600.010000" })).transferId, "velocity_sum_24h");
  });
  test("the 21st transfer in 7 days is held, the 20th is not", async () => {
    const s = await sender();
    // Four a day over five days (never more than five in 24 h).
    for (let i = 0; i < 19; i++) await transfer(s, { at: ago(30 + Math.floor(i / 4) * 26 + (i % 4)) });
    await expectPassed((await transfer(s)).transferId, "velocity_count_7d");
    await expectHeld((await transfer(s)).transferId, "velocity_count_7d");
  });
});

describe("many senders, one destination: 3 or more distinct customers paying one identifier within 7 days", () => {
  test("the third customer is held", async () => {
    const clabe = freshClabe();
    await transfer(await sender(), { clabe, at: ago(100) });
    await transfer(await sender(), { clabe, at: ago(2) });
    await expectHeld((await transfer(await sender(), { clabe })).transferId, "many_senders_one_destination");
  });
  test("not when the first paid it more than 7 days ago", async () => {
    const clabe = freshClabe();
    await transfer(await sender(), { clabe, at: ago(7 * 24 + 1) });
    await transfer(await sender(), { clabe, at: ago(2) });
    await expectPassed((await transfer(await sender(), { clabe })).transferId, "many_senders_one_destination");
  });
});

describe("one sender, many new beneficiaries: 4 or more created in 7 days, transfers to 3 or more of them", () => {
  async function fanOut(created: number) {
    const s = await sender();
    const paid: string[] = [];
    for (let i = 0; i < created; i++) paid.push((await transfer(s, { beneficiaryCreatedAt: ago(48 + i), at: ago(30 + i) })).beneficiaryId);
    return { s, paid };
  }
  test("a third paid of four created is held", async () => {
    const { s, paid } = await fanOut(4);
    // Four created; the transfers so far paid all four, so the next to one of them is the one judged.
    await expectHeld((await transfer(s, { beneficiaryId: paid[0] })).transferId, "many_new_beneficiaries");
  });
  test("three created (all paid) is not", async () => {
    const { s, paid } = await fanOut(3);
    await expectPassed((await transfer(s, { beneficiaryId: paid[0] })).transferId, "many_new_beneficiaries");
  });
});

describe("shared identifiers: a device key, phone number or address across 3 or more customers", () => {
  const withAddress = async (owner: Owner, line: string, postal: string) =>
    db
      .update(customers)
      .set({ profile: { residenceAddress: { addressLine1: line, postalCode: postal, city: "Austin", country: "USA" } } })
      .where(eq(customers.id, owner.customerId));

  test("address: held at the third customer, not at the second", async () => {
    const line = `${newId("street")} Main St`;
    const a = await sender();
    await withAddress(a, line, "78701");
    const b = await sender();
    await withAddress(b, ` ${line.toUpperCase()}`, "78 701");
    await expectPassed((await transfer(b)).transferId, "shared_address");
    const c = await sender();
    await withAddress(c, line, "78701");
    await expectHeld((await transfer(c)).transferId, "shared_address");
  });

  test("phone: held at the third customer logging in with one number, not at the second", async () => {
    const phone = `+1555${String(Date.now()).slice(-7)}`;
    const owners = [await sender(), await sender(), await sender()];
    const login = (o: Owner) =>
      db.insert(loginIdentifiers).values({
        id: newId("lid"),
        partnerId: o.partnerId,
        subscriptionId: o.subscriptionId,
        type: "PHONE",
        value: phone,
        verifiedAt: clock.now(),
        createdAt: clock.now(),
      });
    await login(owners[0]);
    await login(owners[1]);
    await expectPassed((await transfer(owners[1])).transferId, "shared_phone");
    await login(owners[2]);
    await expectHeld((await transfer(owners[2])).transferId, "shared_phone");
  });

  test("device key: held at the third customer registering one key, not at the second", async () => {
    const kid = newId("kid");
    const owners = [await sender(), await sender(), await sender()];
    const device = (o: Owner, status: "ACTIVE" | "DEACTIVATED") =>
      db.insert(devices).values({
        id: newId("dev"),
        subscriptionId: o.subscriptionId,
        kid,
        publicJwk: {},
        status,
        registeredAt: clock.now(),
        createdAt: clock.now(),
      });
    await device(owners[0], "DEACTIVATED");
    await device(owners[1], "DEACTIVATED");
    await expectPassed((await transfer(owners[1])).transferId, "shared_device");
    await device(owners[2], "ACTIVE");
    await expectHeld((await transfer(owners[2])).transferId, "shared_device");
  });
});

test("high-risk destination: a listed country reviews, an unlisted one does not (no shipped corridor pays to a listed country, so the corridor is given)", async () => {
  const { evaluateAgainst } = await import("@/lib/monitoring/evaluate");
  const { defaultPack } = await import("@/lib/monitoring/rule-set");
  const { Decimal } = await import("@/lib/money/decimal");
  const s = await sender();
  const { transferId, beneficiaryId } = await transfer(s);
  const judge = (alpha2: string) =>
    db.transaction(async (tx) => {
      const monitored = {
        id: transferId,
        ...s,
        beneficiaryId,
        originAmount: "100.000000",
        originCurrency: "USD",
        corridor: { reviewThreshold: new Decimal("1000"), destinationCountry: { alpha2, alpha3: "XXX" } },
        customerStatus: "VALID",
        beneficiaryCreatedAt: ago(24 * 30),
        destinationKey: null,
      };
      return (await evaluateAgainst(tx, monitored, [{ document: defaultPack() }], {}, clock.now())).results[0];
    });
  const listed = await judge("IR");
  assert.equal(listed.outcome, "review");
  assert.deepEqual(
    listed.fired.map((f) => f.rule),
    ["high_risk_destination"],
  );
  assert.equal((await judge("MX")).outcome, "pass");
});

describe("fund-then-cancel churn: 2 or more transfers funded and then cancelled in 7 days", () => {
  test("held after the second, not after the first", async () => {
    const s = await sender();
    await transfer(s, { fundedThenCancelled: true, at: ago(50) });
    await expectPassed((await transfer(s)).transferId, "fund_then_cancel");
    await transfer(s, { fundedThenCancelled: true, at: ago(5) });
    await expectHeld((await transfer(s)).transferId, "fund_then_cancel");
  });
});

describe("new beneficiary, large amount: the first transfer to a beneficiary created less than 24 h ago, at 50% of the threshold or more", () => {
  test("500 to a beneficiary created 23 h ago is held; 499.99 is not, nor 500 to one created 25 h ago", async () => {
    await expectHeld((await transfer(await sender(), { amount: "500.000000", beneficiaryCreatedAt: ago(23) })).transferId, "new_beneficiary_large_amount");
    await expectPassed((await transfer(await sender(), { amount: "499.990000", beneficiaryCreatedAt: ago(23) })).transferId, "new_beneficiary_large_amount");
    await expectPassed((await transfer(await sender(), { amount: "500.000000", beneficiaryCreatedAt: ago(25) })).transferId, "new_beneficiary_large_amount");
  });
  test("not the second transfer to that beneficiary", async () => {
    const s = await sender();
    const first = await transfer(s, { amount: "100.000000", beneficiaryCreatedAt: ago(2), at: ago(1) });
    await expectPassed((await transfer(s, { amount: "500.000000", beneficiaryId: first.beneficiaryId })).transferId, "new_beneficiary_large_amount");
  });
});

test("shadow: the evaluation is recorded (review, mode shadow) and the transfer passes", async () => {
  const s = await sender("shadow");
  await transfer(s, { amount: "950.000000", at: ago(2) });
  const r = await fastCheck((await transfer(s, { amount: "950.000000" })).transferId);
  assert.equal(r.state, "validated");
  assert.equal(r.evaluation.mode, "shadow");
  assert.equal(r.evaluation.outcome, "review");
  assert.deepEqual(r.fired, ["structuring"]);
  assert.equal(r.evaluation.aggregates["senderBandCount(24h, 900, 1000)"], "2");
  assert.deepEqual(
    r.alerts.map((a) => [a.kind, a.shadow]),
    [["SHADOW_ALERT", true]],
  );
});

test("a rule snoozed for the customer does not count until its expiry", async () => {
  const s = await sender();
  await db.insert(monitoringSuppressions).values({
    id: newId("msup"),
    customerId: s.customerId,
    ruleId: "structuring",
    reason: "Rent paid in two halves, documented",
    expiresAt: new Date(clock.now().getTime() + 24 * HOUR),
    createdById: "op_test",
    createdByEmail: "analyst@example.com",
    createdAt: clock.now(),
  });
  await transfer(s, { amount: "950.000000", at: ago(2) });
  const r = await expectPassed((await transfer(s, { amount: "950.000000" })).transferId, "structuring");
  assert.deepEqual(r.evaluation.suppressed, ["structuring"]);
  await db
    .update(monitoringSuppressions)
    .set({ expiresAt: ago(1) })
    .where(eq(monitoringSuppressions.customerId, s.customerId));
  await expectHeld((await transfer(s, { amount: "950.000000" })).transferId, "structuring");
});

test("an evaluation uses what changed since the last one in this process: the partner's values, the live set, a set shadow-running", async () => {
  const { defaultPack } = await import("@/lib/monitoring/rule-set");
  const { activateRuleSet, draftRuleSet, proposeRuleSet, shadowRuleSet, withdrawRuleSet } = await import("@/lib/monitoring/rule-sets");
  const s = await sender();
  const first = await expectPassed((await transfer(s)).transferId, "velocity_count_24h");
  await db
    .update(partners)
    .set({ monitoringParameters: { velocityMaxCount24h: "1" } })
    .where(eq(partners.id, s.partnerId));
  await expectHeld((await transfer(s)).transferId, "velocity_count_24h");

  const author = { id: "op_author", email: "author@example.com" } as never;
  const approver = { id: "op_approver", email: "approver@example.com" } as never;
  const [live, shadow] = await db.transaction(async (tx) => {
    const document = JSON.stringify(defaultPack());
    const next = await draftRuleSet(tx, author, { document, note: "the next live set" }, clock.now());
    await proposeRuleSet(tx, next.id, clock.now());
    const { activated } = await activateRuleSet(tx, approver, next.id, clock.now());
    const candidate = await draftRuleSet(tx, author, { document, note: "a candidate" }, clock.now());
    await proposeRuleSet(tx, candidate.id, clock.now());
    return [activated, await shadowRuleSet(tx, candidate.id, clock.now())];
  });
  const third = await expectHeld((await transfer(s)).transferId, "velocity_count_24h");
  assert.notEqual(first.evaluation.ruleSetId, live.id);
  assert.deepEqual([third.evaluation.ruleSetId, third.evaluation.ruleSetVersion], [live.id, live.version]);
  const runs = await db.select().from(monitoringEvaluations).where(eq(monitoringEvaluations.transferId, third.evaluation.transferId));
  assert.deepEqual(
    runs.map((e) => [e.run, e.ruleSetId]).sort(),
    [
      ["candidate", shadow.id],
      ["live", live.id],
    ].sort(),
  );
  await db.transaction((tx) => withdrawRuleSet(tx, shadow.id, clock.now()));
});

test("a snooze counts until its expiry at the server's clock: the Monitoring page lists it until then, and the fast-check ignores the rule until then", async () => {
  const { snoozeRule, activeSnoozes } = await import("@/lib/monitoring/settings");
  const s = await sender();
  const snooze = await db.transaction((tx) =>
    snoozeRule(tx, ANALYST, { customerId: s.customerId, ruleId: "structuring", reason: "Rent paid in two halves", days: 1 }, clock.now()),
  );
  const listed = async () => (await activeSnoozes(db)).some((x) => x.id === snooze.id);
  assert.equal(await listed(), true);
  await transfer(s, { amount: "950.000000", at: ago(2) });
  await expectPassed((await transfer(s, { amount: "950.000000" })).transferId, "structuring");

  // The server's clock moves a day and a minute (the machine's does not): the snooze has expired.
  clock.advance(24 * HOUR + 60_000);
  assert.equal(await listed(), false, "not listed once expired at the server's clock");
  await transfer(s, { amount: "950.000000", at: ago(2) });
  await expectHeld((await transfer(s, { amount: "950.000000" })).transferId, "structuring");
  await assert.rejects(
    db.transaction((tx) => snoozeRule(tx, ANALYST, { customerId: "cus_nobody", ruleId: "structuring", reason: "typo", days: 1 }, clock.now())),
    (e: { code?: string }) => e.code === "customer.notFound",
  );
});

describe("block: a typology's block threshold reached (a rule set made for the test, activated by a second operator)", () => {
  before(async () => {
    const { defaultPack } = await import("@/lib/monitoring/rule-set");
    const { activateRuleSet, draftRuleSet, proposeRuleSet } = await import("@/lib/monitoring/rule-sets");
    const pack = defaultPack();
    const document = { ...pack, typologies: pack.typologies.map((t) => (t.id === "structuring" ? { ...t, block: 100 } : t)) };
    const draft = await db.transaction((tx) =>
      draftRuleSet(tx, ANALYST, { document: JSON.stringify(document), note: "Structuring blocks (test)" }, clock.now()),
    );
    await db.transaction((tx) => proposeRuleSet(tx, draft.id, clock.now()));
    const { activated } = await db.transaction((tx) => activateRuleSet(tx, APPROVER, draft.id, clock.now()));
    assert.equal(activated.state, "active");
  });

  test("in enforce the transfer is rejected with TRF_CHECK_FAILED (all the partner reads), and the block alert opens the customer's case", async () => {
    const s = await sender("enforce");
    await transfer(s, { amount: "950.000000", at: ago(2) });
    const { transferId } = await transfer(s, { amount: "950.000000" });
    const r = await fastCheck(transferId);
    assert.equal(r.state, "rejected");
    assert.equal(r.rejectionReason, "TRF_CHECK_FAILED");
    assert.deepEqual([r.evaluation.outcome, r.evaluation.mode, r.fired], ["block", "enforce", ["structuring"]]);
    assert.deepEqual(r.evaluation.typologies, [{ typology: "structuring", score: 100, outcome: "block" }]);
    assert.deepEqual(
      r.alerts.map((a) => [a.kind, a.shadow, a.evaluationId, a.caseId !== null]),
      [["MONITORING_BLOCK", false, r.evaluation.id, true]],
    );

    // What the partner reads of it (the transfer's detail, its events): rejected, TRF_CHECK_FAILED, nothing more.
    const { transferDetail } = await import("@/lib/transfers/view");
    const [row] = await db.select().from(transfers).where(eq(transfers.id, transferId));
    const detail = await transferDetail(db, row);
    assert.equal(detail.transferStatus, "rejected");
    assert.equal(detail.stateHistory.at(-1)?.reasonCode, "TRF_CHECK_FAILED");
    const partnerEvents = await db.select({ body: events.body }).from(events).where(eq(events.subscriptionId, s.subscriptionId));
    assert.ok(JSON.stringify(partnerEvents).includes("TRF_CHECK_FAILED"), JSON.stringify(partnerEvents));
    for (const body of [detail, partnerEvents]) {
      assert.doesNotMatch(JSON.stringify(body), /structuring|typolog|monitoring|block|rule|score|alert|case/i);
    }
  });

  test("in shadow the evaluation records block and the transfer passes; the alert is a shadow one, opening no case", async () => {
    const s = await sender("shadow");
    await transfer(s, { amount: "950.000000", at: ago(2) });
    const r = await fastCheck((await transfer(s, { amount: "950.000000" })).transferId);
    assert.equal(r.state, "validated");
    assert.deepEqual([r.evaluation.outcome, r.evaluation.mode], ["block", "shadow"]);
    assert.deepEqual(
      r.alerts.map((a) => [a.kind, a.shadow, a.caseId]),
      [["SHADOW_ALERT", true, null]],
    );
  });
});
