/**
 * Transaction monitoring ("Done when"): per typology of the default pack, the fast-check
 * of a partner in enforce sends the transfer to onreview just past the typology's boundary and
 * passes it just before; shadow records and does not act; a snoozed rule does not count until its
 * expiry at the server's clock; a typology's block threshold reached rejects the transfer in
 * enforce (TRF_CHECK_FAILED, nothing more said) and only records in shadow; the default pack loads
 * from data/monitoring. On PGlite, and on PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { devices, events, monitoringEvaluations, monitoringRuleSets, monitoringSuppressions, partners, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { freshClabe } from "../../support/clabe";
import type { Owner } from "../../support/fixtures";
import { ago, HOUR, monitoringHelpers } from "../../support/monitoring";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  // A database of its own: the last tests activate a rule set made for them, which must not judge
  // the other files' transfers (the PostgreSQL database is otherwise shared by a run's files).
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

const ANALYST = { id: "op_monitoring_analyst", email: "monitoring-analyst@example.com", name: "Analyst", role: "admin" as const };
const APPROVER = { id: "op_monitoring_approver", email: "monitoring-approver@example.com", name: "Approver", role: "admin" as const };
const { sender, registeredSender, transfer, fastCheck, expectHeld, expectPassed } = monitoringHelpers(() => db);

test("the default pack loads from data/monitoring: version 1 active, the FATF lists with their plenary date", async () => {
  const { defaultPack, readHighRiskFile } = await import("@/lib/compliance/monitoring/rule-set");
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

describe("structuring: transfers each under the threshold, whatever their amounts, together reaching it (24 h) or 3 times it (7 days)", () => {
  test("500 then 500 within 24 h: the second is held; 500 then 499.99 is not", async () => {
    const s = await sender();
    await transfer(s, { amount: "500.000000", at: ago(23) });
    const { transferId } = await transfer(s, { amount: "500.000000" });
    await expectHeld(transferId, "structuring");
    const { monitoringReasons } = await import("@/lib/compliance/monitoring/queries");
    assert.deepEqual((await monitoringReasons(db, [transferId])).get(transferId), ["monitoring: structuring (review)"], "the review queue says why");
    const t = await sender();
    await transfer(t, { amount: "500.000000", at: ago(1) });
    await expectPassed((await transfer(t, { amount: "499.990000" })).transferId, "structuring");
  });
  test("not when the first was 24 h and more ago (1,900 in 7 days is under 3 times the threshold)", async () => {
    const s = await sender();
    await transfer(s, { amount: "950.000000", at: ago(24.01) });
    await expectPassed((await transfer(s, { amount: "950.000000" })).transferId, "structuring");
  });
  test("7 days, a day and more apart: the fourth of 750 (3,000) is held; 749.99 (2,999.99) is not, nor a fourth 750 when the first was 7 days ago", async () => {
    const spaced = async (first = 90) => {
      const s = await sender();
      for (const hours of [first, 60, 30]) await transfer(s, { amount: "750.000000", at: ago(hours) });
      return s;
    };
    await expectHeld((await transfer(await spaced(), { amount: "750.000000" })).transferId, "structuring");
    await expectPassed((await transfer(await spaced(), { amount: "749.990000" })).transferId, "structuring");
    await expectPassed((await transfer(await spaced(7 * 24), { amount: "750.000000" })).transferId, "structuring");
  });
});

test("structuring across two customers at one address: 600 then 400 is held at the second; 600 then 399.99 is not", async () => {
  for (const [second, held] of [
    ["400.000000", true],
    ["399.990000", false],
  ] as const) {
    const line = `${newId("street").slice(-8)} Main Street`;
    const at = () => registeredSender({ identifier: `${newId("s")}@example.com`, address: { addressLine1: line, postalCode: "78701" } });
    await transfer(await at(), { amount: "600.000000", at: ago(2) });
    await (held ? expectHeld : expectPassed)((await transfer(await at(), { amount: second })).transferId, "structuring_shared_identifier");
  }
});

describe("sender velocity", () => {
  test("the sixth transfer in 24 h is held, the fifth is not", async () => {
    const s = await sender();
    for (let i = 0; i < 4; i++) await transfer(s, { at: ago(20 - i) });
    await expectPassed((await transfer(s)).transferId, "velocity_count_24h");
    await expectHeld((await transfer(s)).transferId, "velocity_count_24h");
  });
  test("a sum above 3 × the threshold in 24 h is held; exactly 3 × is not", async () => {
    // Amounts under the threshold that reach it are structuring too: its sums are raised here.
    const quiet = { structuringSumMultiple24h: "10", structuringSumMultiple7d: "10" };
    const s = await sender();
    await db.update(partners).set({ monitoringParameters: quiet }).where(eq(partners.id, s.partnerId));
    for (let i = 0; i < 3; i++) await transfer(s, { amount: "800.000000", at: ago(10 - i) });
    await expectPassed((await transfer(s, { amount: "600.000000" })).transferId, "velocity_sum_24h");
    const t = await sender();
    await db.update(partners).set({ monitoringParameters: quiet }).where(eq(partners.id, t.partnerId));
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
  test("address: held at the third customer, not at the second", async () => {
    const line = `${newId("street").slice(-8)} Main Street`;
    await registeredSender({ identifier: `${newId("a")}@example.com`, address: { addressLine1: line, postalCode: "78701" } });
    const b = await registeredSender({ identifier: `${newId("b")}@example.com`, address: { addressLine1: line, postalCode: "78701" } });
    await expectPassed((await transfer(b)).transferId, "shared_address");
    const c = await registeredSender({ identifier: `${newId("c")}@example.com`, address: { addressLine1: line, postalCode: "78701" } });
    await expectHeld((await transfer(c)).transferId, "shared_address");
  });

  test("phone: held at the third customer logging in with one number, not at the second", async () => {
    const phone = `+1415555${String(Date.now()).slice(-4)}`;
    await registeredSender({ identifier: phone });
    const b = await registeredSender({ identifier: phone });
    await expectPassed((await transfer(b)).transferId, "shared_phone");
    const c = await registeredSender({ identifier: phone });
    await expectHeld((await transfer(c)).transferId, "shared_phone");
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
  const { evaluateAgainst } = await import("@/lib/compliance/monitoring/evaluate");
  const { defaultPack } = await import("@/lib/compliance/monitoring/rule-set");
  const { Decimal } = await import("@/lib/platform/money/decimal");
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

describe("new beneficiary: in its first 7 days, one transfer of 50% of the threshold or more, or the sender's transfers to it summed at the threshold", () => {
  test("500 to a beneficiary created 167 h ago is held; 499.99 is not, nor 500 to one created 169 h ago", async () => {
    await expectHeld((await transfer(await sender(), { amount: "500.000000", beneficiaryCreatedAt: ago(167) })).transferId, "new_beneficiary_large_amount");
    await expectPassed((await transfer(await sender(), { amount: "499.990000", beneficiaryCreatedAt: ago(167) })).transferId, "new_beneficiary_large_amount");
    await expectPassed((await transfer(await sender(), { amount: "500.000000", beneficiaryCreatedAt: ago(169) })).transferId, "new_beneficiary_large_amount");
  });
  test("summed: 400 on day one, 400 on day three, then 200 on day six is held at the third; 199.99 is not", async () => {
    for (const [third, held] of [
      ["200.000000", true],
      ["199.990000", false],
    ] as const) {
      const s = await sender();
      const first = await transfer(s, { amount: "400.000000", beneficiaryCreatedAt: ago(150), at: ago(149) });
      await transfer(s, { amount: "400.000000", beneficiaryId: first.beneficiaryId, at: ago(100) });
      const { transferId } = await transfer(s, { amount: third, beneficiaryId: first.beneficiaryId });
      await (held ? expectHeld : expectPassed)(transferId, "new_beneficiary_large_amount");
    }
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
  assert.equal(r.evaluation.aggregates["senderBandCount(24h, 0, 1000)"], "2");
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
  const { defaultPack } = await import("@/lib/compliance/monitoring/rule-set");
  const { activateRuleSet, draftRuleSet, proposeRuleSet, shadowRuleSet, withdrawRuleSet } = await import("@/lib/compliance/monitoring/rule-sets");
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
  const { snoozeRule, activeSnoozes } = await import("@/lib/compliance/monitoring/settings");
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
    const { defaultPack } = await import("@/lib/compliance/monitoring/rule-set");
    const { activateRuleSet, draftRuleSet, proposeRuleSet } = await import("@/lib/compliance/monitoring/rule-sets");
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
    const { transferDetail } = await import("@/lib/payments/transfers/view");
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
