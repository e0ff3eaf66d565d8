/**
 * Rolling limits on the database, below the HTTP layer: the windows roll (a transfer of
 * two days ago counts in P30D, not in P1D), released states stop counting and paid keeps counting,
 * an origin amount in another currency counts converted at the reference rate, amounts counted in
 * an older limit currency are converted; a partner's limits change goes through dual control and
 * bad limits are refused when proposed.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog, partners, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import type { Operator } from "@/lib/operations/operators/records";
import { constantReferenceRates } from "@/lib/payments/pricing/reference-rate";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
const rates = constantReferenceRates({ "GBP/USD": "1.27", "EUR/USD": "1.08", "USD/EUR": "0.925926" });
const maker: Operator = { id: "op_limits_maker", email: "limits.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_limits_checker", email: "limits.checker@example.com", name: "Checker", role: "admin" };

before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

const DAY = 86_400_000;

/** A transfer of `owner` counted for `amount` `currency`, accepted `daysAgo` days ago, in `state`. */
async function counted(owner: Owner, amount: string, daysAgo: number, state: "registered" | "paid" | "aborted" = "registered", currency = "USD") {
  const t = await registeredTransfer(db, owner);
  await db
    .update(transfers)
    .set({ limitAmount: amount, limitCurrency: currency, state, createdAt: new Date(clock.now().getTime() - daysAgo * DAY) })
    .where(eq(transfers.id, t.id));
}

async function standing(owner: Owner) {
  const { standingOf } = await import("@/lib/payments/limits/usage");
  const s = await standingOf(db, owner.subscriptionId, rates, clock.now());
  return Object.fromEntries(s.windows.map((w) => [w.window, w.used.toFixed()]));
}

test("the windows roll: two days ago counts in P30D and P180D, not P1D; 40 days ago only in P180D; 200 days ago nowhere", async () => {
  const owner = await newSubscription(db);
  await counted(owner, "100", 0.5);
  await counted(owner, "200", 2);
  await counted(owner, "400", 40);
  await counted(owner, "800", 200);
  assert.deepEqual(await standing(owner), { P1D: "100", P30D: "300", P180D: "700" });
});

test("aborted no longer counts, paid does; an amount counted in EUR counts converted into the USD limit currency", async () => {
  const owner = await newSubscription(db);
  await counted(owner, "100", 0.1, "paid");
  await counted(owner, "1000", 0.1, "aborted");
  await counted(owner, "100", 0.1, "registered", "EUR");
  assert.deepEqual(await standing(owner), { P1D: "208", P30D: "208", P180D: "208" });
});

test("an accept in GBP counts converted at the reference rate; over the window it is customer.limitExceeded naming the window with the least remaining", async () => {
  const { reserveWithinLimits } = await import("@/lib/payments/limits/usage");
  const owner = await newSubscription(db);
  const reserve = (originAmount: string, originCurrency: string) =>
    db.transaction((tx) => reserveWithinLimits(tx, { subscriptionId: owner.subscriptionId, originAmount, originCurrency, rates, now: clock.now() }));
  assert.deepEqual(await reserve("100.000000", "GBP"), { limitAmount: "127.000000", limitCurrency: "USD" });
  // 9,950 used over the last 30 days, nothing today: a 100 accept breaches P30D only (50 left).
  await counted(owner, "9950", 3);
  await assert.rejects(reserve("100.000000", "USD"), (e: unknown) => {
    assert.ok(e instanceof DomainError && e.code === "customer.limitExceeded");
    assert.deepEqual(e.details, { window: "P30D", limit: "10000.000000", remaining: "50.000000", currency: "USD", remediationHint: "provide_source_of_funds" });
    return true;
  });
  assert.deepEqual(await reserve("50.000000", "USD"), { limitAmount: "50.000000", limitCurrency: "USD" });
});

test("a partner's limits change is proposed, approved by a second admin, and then counts; bad limits are refused when proposed", async () => {
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { act } = await import("@/lib/operations/commands/run");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const owner = await newSubscription(db);
  const now = clock.now();
  const change = {
    partnerId: owner.partnerId,
    currency: "EUR",
    limits: { "1": { P1D: "1000", P30D: "5000", P180D: "9000" }, "2": { P1D: "5000", P30D: "20000", P180D: "50000" } },
  };
  const acted = await inUnit(({ tx }) => act(tx, "partner.limits.update", change, { operator: maker, reason: "Partner's regulator asked", now }), { db });
  assert.equal(acted.kind, "proposed");
  const [unchanged] = await db.select().from(partners).where(eq(partners.id, owner.partnerId));
  assert.deepEqual([unchanged.limitCurrency, unchanged.tierLimits], ["USD", null], "nothing changes on a proposal");

  const proposalId = acted.kind === "proposed" ? acted.proposal.id : "";
  await inUnit(({ tx }) => approve(tx, proposalId, { operator: checker, reason: "Checked the letter", now }), { db });
  const [changed] = await db.select().from(partners).where(eq(partners.id, owner.partnerId));
  assert.deepEqual([changed.limitCurrency, changed.tierLimits], ["EUR", change.limits]);
  const [audit] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "partner.limits.update"), eq(auditLog.targetId, owner.partnerId)));
  assert.equal(audit.operatorId, checker.id);
  assert.deepEqual((audit.after as { currency: string }).currency, "EUR");
  const { standingOf } = await import("@/lib/payments/limits/usage");
  const s = await standingOf(db, owner.subscriptionId, rates, now);
  assert.deepEqual([s.currency, s.windows[0].limit.toFixed()], ["EUR", new Decimal(1000).toFixed()]);

  const refused = (limits: typeof change.limits, currency = "USD") =>
    assert.rejects(
      inUnit(({ tx }) => act(tx, "partner.limits.update", { ...change, currency, limits }, { operator: maker, reason: "Try", now }), { db }),
      (e: unknown) => e instanceof DomainError && e.code.startsWith("validation."),
    );
  await refused({ ...change.limits, "2": { ...change.limits["2"], P1D: "999" } }); // tier 2 below tier 1
  await refused({ ...change.limits, "1": { ...change.limits["1"], P30D: "10.001" } }); // below the cent
  await refused({ ...change.limits, "1": { ...change.limits["1"], P180D: "0" } });
  await refused(change.limits, "MXN"); // no reference rate converts the corridors' origin currencies into it
});
