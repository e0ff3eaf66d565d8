/**
 * Tier limits as versioned configuration, on the database: a fresh database's version 1 holds the
 * shipped limits; a lower limit proposed by one admin and approved by another applies to the
 * acceptances checked from its effective time on and not to those before it (the version in force
 * at the check, whatever version the quote was priced under); GET /v1/core/limits' standing reads
 * the same; a partner with limits of its own keeps them.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { configurationVersions, customers, partners, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import type { Operator } from "@/lib/operations/operators/records";
import { constantReferenceRates } from "@/lib/payments/pricing/reference-rate";
import { freshDb } from "../../support/db";
import { acceptInput, newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
const maker: Operator = { id: "op_limits_cfg_maker", email: "limits.cfg.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_limits_cfg_checker", email: "limits.cfg.checker@example.com", name: "Checker", role: "admin" };
const rates = constantReferenceRates({});

// A database of its own on PostgreSQL: the limits published here would apply to other files' accepts.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
});
after(() => close());

/** A customer resident in the United States with a beneficiary in Mexico (US-MX). */
async function customer(): Promise<{ owner: Owner; beneficiaryId: string }> {
  const owner = await newSubscription(db);
  await db
    .update(customers)
    .set({ profile: { residenceCountry: "USA" } })
    .where(eq(customers.id, owner.customerId));
  const { beneficiaryId } = await registeredTransfer(db, owner);
  return { owner, beneficiaryId };
}

/** A 100 USD quote to MXN created and disclosed now, accepted at `at`: the transfer's id, or the refusal. */
async function acceptedAt(c: { owner: Owner; beneficiaryId: string }, at: Date): Promise<string> {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { createQuote } = await import("@/lib/payments/quotes/create");
  const { serveDisclosure } = await import("@/lib/payments/quotes/disclosure");
  const { acceptQuote } = await import("@/lib/payments/quotes/accept");
  const [partner] = await db.select().from(partners).where(eq(partners.id, c.owner.partnerId));
  const { subscriptionId, customerId } = c.owner;
  const req = { originAmount: "100.00", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId: c.beneficiaryId };
  const quote = await inUnit(({ tx }) => createQuote(tx, { partner, subscriptionId, customerId, req, now: clock.now() }), { db });
  const disclosure = await inUnit(
    ({ tx }) => serveDisclosure(tx, { subscriptionId, customerId, quoteId: quote.quoteId, acceptLanguage: null, now: clock.now() }),
    { db },
  );
  const input = { ...acceptInput(c.owner, { quoteId: quote.quoteId, disclosureToken: disclosure.body.disclosureToken }), now: at };
  return (await inUnit(({ tx }) => acceptQuote(tx, input), { db })).transferId;
}

async function limitsAt(owner: Owner, at: Date) {
  const { standingOf } = await import("@/lib/payments/limits/usage");
  const s = await standingOf(db, owner.subscriptionId, rates, at);
  return Object.fromEntries(s.windows.map((w) => [w.window, w.limit.toFixed()]));
}

test("a fresh database's version 1 holds the shipped tier limits", async () => {
  const [row] = await db.select().from(configurationVersions).where(eq(configurationVersions.version, 1));
  assert.deepEqual(row.document.tierLimits, {
    "1": { P1D: "2999", P30D: "10000", P180D: "18000" },
    "2": { P1D: "10000", P30D: "25000", P180D: "60000" },
  });
  const c = await customer();
  assert.deepEqual(await limitsAt(c.owner, clock.now()), { P1D: "2999", P30D: "10000", P180D: "18000" });
});

test("a lower tier limit, approved, applies to an acceptance after its effective time and not before", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, storedVersion, tableInForce } = await import("@/lib/payments/corridors/versions");
  const { withTierLimits, tierLimitTexts } = await import("@/lib/payments/corridors/changes");
  const c = await customer();

  // Tier 1's one-day limit from 2999 to 150, from half a minute ahead (the quotes' TTL is a minute).
  const effectiveAt = new Date(clock.nowMs() + 30_000);
  const base = storedVersion(latestTable().version)!.document;
  const limits = { ...tierLimitTexts(base), "1.P1D": "150" } as Parameters<typeof withTierLimits>[1];
  const input = { document: withTierLimits(base, limits), effectiveAt: effectiveAt.toISOString(), note: "Tier 1 daily limit lowered" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed", "a limit waits for a second admin");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  assert.match(proposal.summary, /^Configuration version 2 from .*: tierLimits\.1\.P1D$/);
  assert.deepEqual([proposal.before?.["tierLimits.1.P1D"], proposal.proposed?.["tierLimits.1.P1D"]], ["2999", "150"]);
  assert.ok(!Object.keys(proposal.proposed ?? {}).some((k) => k.startsWith("preview")), "a limit prices no corridor: nothing to preview");

  // Not yet approved: nothing changes even after the effective time.
  assert.deepEqual((await limitsAt(c.owner, new Date(effectiveAt.getTime() + 1_000))).P1D, "2999");
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });

  // Before the effective time: 100, then 200 used in the day, both under 2999. The acceptance
  // reads the new version's number in its locking statement and loads it: nothing else refreshed.
  const first = await acceptedAt(c, new Date(effectiveAt.getTime() - 2_000));
  assert.equal(tableInForce(new Date(effectiveAt.getTime() - 1)).tierLimits["1"].P1D, "2999");
  assert.equal(tableInForce(effectiveAt).tierLimits["1"].P1D, "150");
  const second = await acceptedAt(c, new Date(effectiveAt.getTime() - 1_000));
  const [t2] = await db.select().from(transfers).where(eq(transfers.id, second));
  assert.ok(first && t2.limitAmount === "100.000000");
  assert.equal(t2.configurationVersion, 1, "the quote was priced under version 1; the limit in force at the check applies");
  assert.deepEqual(await limitsAt(c.owner, new Date(effectiveAt.getTime() - 1)), { P1D: "2999", P30D: "10000", P180D: "18000" });

  // After it: the same 100 is over the new 150 a day.
  await assert.rejects(acceptedAt(c, new Date(effectiveAt.getTime() + 1_000)), (e: unknown) => {
    assert.ok(e instanceof DomainError && e.code === "customer.limitExceeded");
    assert.deepEqual(e.details, { window: "P1D", limit: "150.000000", remaining: "0.000000", currency: "USD", remediationHint: "provide_source_of_funds" });
    return true;
  });
  assert.deepEqual(await limitsAt(c.owner, effectiveAt), { P1D: "150", P30D: "10000", P180D: "18000" });

  // A partner with limits of its own keeps them.
  const own = await customer();
  const ownLimits = { "1": { P1D: "500", P30D: "5000", P180D: "9000" }, "2": { P1D: "5000", P30D: "20000", P180D: "50000" } };
  await db.update(partners).set({ tierLimits: ownLimits }).where(eq(partners.id, own.owner.partnerId));
  assert.deepEqual(await limitsAt(own.owner, effectiveAt), { P1D: "500", P30D: "5000", P180D: "9000" });
});
