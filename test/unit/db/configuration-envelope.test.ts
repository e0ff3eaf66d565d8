/**
 * The FX tolerance and the partner-fee cap of a configuration version, on the database: a version
 * from an effective time bounds the partner-signed quotes priced from that time (a fee above its
 * lower cap refused, a rate inside its wider tolerance taken) and not those priced before it; a
 * quote priced before is accepted after it under its own version's bounds.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, partners, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { acceptInput, insertBeneficiary, newSubscription, type Owner } from "../../support/fixtures";
import { isoSeconds, publicJwk, rawToken, rsaKeyPair, validClaims } from "../quotes-signing/helpers";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
let beneficiaryId: string;
const keys = rsaKeyPair();
const maker: Operator = { id: "op_envelope_maker", email: "envelope.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_envelope_checker", email: "envelope.checker@example.com", name: "Checker", role: "admin" };

/** Version 2's effective time: a Monday in the future (a proposal's effective time may not be past). */
const EFFECTIVE = new Date("2027-01-04T12:00:00Z");
const at = (seconds: number) => new Date(EFFECTIVE.getTime() + seconds * 1000);

// A database of its own on PostgreSQL: the version published here bounds other files' quotes.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
  owner = await newSubscription(db);
  await db
    .update(customers)
    .set({ profile: { residenceCountry: "USA" } })
    .where(eq(customers.id, owner.customerId));
  await db
    .update(partners)
    .set({ pricingMode: "PARTNER_SIGNED", jwks: { keys: [publicJwk(keys.publicKey) as never] } })
    .where(eq(partners.id, owner.partnerId));
  beneficiaryId = await insertBeneficiary(db, owner, clock.now());
});
after(() => close());

let seq = 0;

/** The partner's signed quote of 100 USD to MXN at `when`: its fee, and its rate as a factor of the reference then. */
async function partnerQuote(when: Date, partnerFee: string, rateFactor = "1") {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { createQuote } = await import("@/lib/payments/quotes/create");
  const { referenceRates } = await import("@/lib/payments/pricing/rate-store");
  const { roundRate, roundToMinorUnit } = await import("@/lib/platform/money/format");
  const { Decimal } = await import("@/lib/platform/money/decimal");
  const reference = roundRate((await referenceRates(db)).rate({ from: "USD", to: "MXN" }, when));
  const fxRate = roundRate(reference.times(rateFactor));
  const iat = Math.floor(when.getTime() / 1000) - 1;
  const claims = validClaims({
    quote_id: newId("pq"),
    jti: randomUUID(),
    partner_id: owner.partnerId,
    partner_quote_seq: ++seq,
    subscription_id: owner.subscriptionId,
    send_amount: "100.00",
    receive_amount: roundToMinorUnit(fxRate.times(100), "MXN").toFixed(2),
    fx_rate: fxRate.toFixed(),
    principal_fee: "2.99",
    partner_fee: partnerFee,
    total_consumer_cost: new Decimal("102.99").plus(partnerFee).toFixed(2),
    iat,
    exp: iat + 60,
    issued_at: isoSeconds(iat),
    expires_at: isoSeconds(iat + 60),
  });
  const [partner] = await db.select().from(partners).where(eq(partners.id, owner.partnerId));
  const req = {
    originAmount: "100.00",
    originCurrency: "USD",
    destinationCurrency: "MXN",
    beneficiaryId,
    partnerQuote: rawToken({ payload: claims, privateKey: keys.privateKey }),
  };
  return inUnit(({ tx }) => createQuote(tx, { partner, subscriptionId: owner.subscriptionId, customerId: owner.customerId, req, now: when }), { db });
}

const breach = (measure: string) => (e: unknown) => {
  const err = e as { code?: string; details?: { measure?: string } };
  return err.code === "quote.envelopeBreach" && err.details?.measure === measure;
};

test("a lower partner-fee cap and a wider FX tolerance bound the quotes priced from their effective time, not before", async () => {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, refreshVersions, storedVersion } = await import("@/lib/payments/corridors/versions");
  await refreshVersions(db);
  const document = structuredClone(storedVersion(latestTable().version)!.document) as { corridors: Record<string, unknown>[] };
  document.corridors = document.corridors.map((c) => (c.code === "US-MX" ? { ...c, partnerFeeCap: "5.00", fxTolerance: "0.02" } : c));
  const input = { document, effectiveAt: EFFECTIVE.toISOString(), note: "Lower partner fees, wider rates" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  assert.deepEqual([proposal.before?.["US-MX.partnerFeeCap"], proposal.proposed?.["US-MX.partnerFeeCap"]], ["10.00", "5.00"]);
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });

  // Before the effective time: version 1's cap (10.00) and tolerance (0.005).
  const early = await partnerQuote(at(-30), "7.00");
  assert.equal(early.partnerFee, "7.000000");
  await assert.rejects(partnerQuote(at(-20), "1.00", "1.01"), breach("fxRate"), "1 % off the reference is outside version 1's 0.5 %");

  // From it: version 2's cap (5.00) and tolerance (0.02).
  await assert.rejects(partnerQuote(at(1), "7.00"), breach("partnerFee"));
  const wide = await partnerQuote(at(2), "5.00", "1.01");
  assert.equal(wide.partnerFee, "5.000000");

  // The quote priced before is accepted after, under its own version's cap.
  const { serveDisclosure } = await import("@/lib/payments/quotes/disclosure");
  const { acceptQuote } = await import("@/lib/payments/quotes/accept");
  const disclosure = await inUnit(
    ({ tx }) =>
      serveDisclosure(tx, { subscriptionId: owner.subscriptionId, customerId: owner.customerId, quoteId: early.quoteId, acceptLanguage: null, now: at(-10) }),
    { db },
  );
  const accepted = await inUnit(
    ({ tx }) => acceptQuote(tx, { ...acceptInput(owner, { quoteId: early.quoteId, disclosureToken: disclosure.body.disclosureToken }), now: at(10) }),
    { db },
  );
  const [transfer] = await db.select().from(transfers).where(eq(transfers.id, accepted.transferId));
  assert.deepEqual([transfer.partnerFee, transfer.configurationVersion], ["7.000000", 1]);
});
