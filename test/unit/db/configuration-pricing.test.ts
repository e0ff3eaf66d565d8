/**
 * The prices of a configuration version, on the database: principal fee bands, an FX margin per
 * corridor and per partner, and a corridor maximum, published by two admins, price the quotes of
 * the version in force (and not those before it); the transfer accepted from a quote records the
 * version its quote was priced under, in its own column.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { customers, partners, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { acceptInput, newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
const maker: Operator = { id: "op_pricing_maker", email: "pricing.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_pricing_checker", email: "pricing.checker@example.com", name: "Checker", role: "admin" };

// A database of its own on PostgreSQL: the versions published here would price other files' quotes.
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

/** A service-priced quote of `originAmount` USD to MXN, at `now`. */
async function quote(c: { owner: Owner; beneficiaryId: string }, originAmount: string, now = clock.now()) {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { createQuote } = await import("@/lib/payments/quotes/create");
  const [partner] = await db.select().from(partners).where(eq(partners.id, c.owner.partnerId));
  const req = { originAmount, originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId: c.beneficiaryId };
  return inUnit(({ tx }) => createQuote(tx, { partner, subscriptionId: c.owner.subscriptionId, customerId: c.owner.customerId, req, now }), { db });
}

/** The quote disclosed and accepted: the transfer's row. */
async function accepted(c: { owner: Owner }, quoteId: string) {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { serveDisclosure } = await import("@/lib/payments/quotes/disclosure");
  const { acceptQuote } = await import("@/lib/payments/quotes/accept");
  const disclosure = await inUnit(
    ({ tx }) =>
      serveDisclosure(tx, { subscriptionId: c.owner.subscriptionId, customerId: c.owner.customerId, quoteId, acceptLanguage: null, now: clock.now() }),
    { db },
  );
  const input = acceptInput(c.owner, { quoteId, disclosureToken: disclosure.body.disclosureToken });
  const { transferId } = await inUnit(({ tx }) => acceptQuote(tx, input), { db });
  const [row] = await db.select().from(transfers).where(eq(transfers.id, transferId));
  return row;
}

/** The latest version's document with `changes` applied to US-MX, proposed by the maker and approved by the checker. */
async function publish(changes: (partnerIds: { own: string }) => Record<string, unknown>, partnerIds: { own: string }) {
  const { latestTable, storedVersion, refreshVersions } = await import("@/lib/payments/corridors/versions");
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  await refreshVersions(db);
  const document = structuredClone(storedVersion(latestTable().version)!.document) as { corridors: Record<string, unknown>[] };
  document.corridors = document.corridors.map((c) => (c.code === "US-MX" ? { ...c, ...changes(partnerIds) } : c));
  // Effective now: in force from the approval.
  const input = { document, effectiveAt: clock.now().toISOString(), note: "Banded fees and margins" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });
  return proposal;
}

test("fee bands, margins per corridor and per partner and a corridor maximum price the quotes of their version; transfers record it", async () => {
  const { referenceRates } = await import("@/lib/payments/pricing/rate-store");
  const { roundRate, formatRate } = await import("@/lib/platform/money/format");
  const { Decimal } = await import("@/lib/platform/money/decimal");
  const { corridorOfTransfer } = await import("@/lib/payments/corridors/corridors");
  const own = await customer(); // its partner has a margin of its own on US-MX
  const other = await customer(); // its partner pays the corridor's margin

  // Under version 1: one fee at every amount, the reference rate itself, no corridor maximum.
  const now1 = clock.now();
  const v1Large = await quote(own, "600.00", now1);
  const rates = await referenceRates(db);
  const reference = rates.rate({ from: "USD", to: "MXN" }, now1);
  assert.equal(v1Large.principalFee, "2.990000");
  assert.equal(v1Large.fxRate, formatRate(roundRate(reference)));
  const v1Transfer = await accepted(own, v1Large.quoteId);

  const proposal = await publish(
    (ids) => ({
      principalFeeBands: [
        { fromOriginAmount: "500.00", fee: "4.99" },
        { fromOriginAmount: "1500.00", fee: "7.99" },
      ],
      fxTolerance: "0.02",
      fxMargin: "0.01",
      partnerFxMargins: { [ids.own]: "0.005" },
      maximumOriginAmount: "2500.00",
    }),
    { own: own.owner.partnerId },
  );
  // The approver reads each change at its field, and the preview quote under the new margin.
  assert.match(proposal.summary, /^Configuration version 2 from .*: US-MX\.fxTolerance, US-MX\.principalFeeBands, US-MX\.fxMargin and 2 more$/);
  assert.equal(proposal.proposed?.["US-MX.fxMargin"], "0.01");
  assert.equal(proposal.proposed?.[`US-MX.partnerFxMargins.${own.owner.partnerId}`], "0.005");
  assert.equal(proposal.before?.["US-MX.maximumOriginAmount"], null);

  const now2 = clock.now();
  const ref2 = rates.rate({ from: "USD", to: "MXN" }, now2);
  const small = await quote(other, "100.00", now2);
  const banded = await quote(other, "600.00", now2);
  const top = await quote(own, "2000.00", now2);
  assert.deepEqual(
    [small.principalFee, banded.principalFee, top.principalFee],
    ["2.990000", "4.990000", "7.990000"],
    "below the first band the corridor's fee, then each band's",
  );
  assert.equal(banded.totalCustomerCost, "604.990000");
  assert.equal(banded.fxRate, formatRate(roundRate(ref2.times(new Decimal("0.99")))), "the corridor's margin");
  assert.equal(top.fxRate, formatRate(roundRate(ref2.times(new Decimal("0.995")))), "the partner's own margin");
  assert.equal(top.destinationAmount, new Decimal(top.fxRate).times(2000).toDecimalPlaces(2).toFixed(6));
  await assert.rejects(quote(other, "2500.01", now2), (e: unknown) => {
    const err = e as { code: string; details: { issues: { field: string; message: string }[] } };
    assert.equal(err.code, "validation.fieldInvalid");
    assert.equal(err.details.issues[0].field, "originAmount");
    assert.match(err.details.issues[0].message, /above the maximum of 2500\.00 USD for US-MX/);
    return true;
  });

  // Each transfer records the version its quote was priced under; its corridor is that version's.
  const v2Transfer = await accepted(other, banded.quoteId);
  assert.deepEqual([v1Transfer.configurationVersion, v2Transfer.configurationVersion], [1, 2]);
  assert.equal(corridorOfTransfer(v1Transfer)!.principalFeeBands, undefined);
  assert.equal(corridorOfTransfer(v2Transfer)!.principalFeeBands?.length, 2);
  // A transfer from before transfers recorded it reads the version in force.
  assert.equal(corridorOfTransfer({ corridor: "US-MX", configurationVersion: null })!.fxMargin?.toFixed(), "0.01");
});
