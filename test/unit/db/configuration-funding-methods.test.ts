/**
 * Funding methods per corridor as versioned configuration, on the database: a version that stops
 * offering bank transfer on US-MX refuses it (409 funding.methodUnavailable) to a transfer
 * accepted under that version, on the page and the sandbox endpoint, and offers it still to a
 * transfer accepted before, under its own version; the hosted page lists the transfer's methods.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { customers, fundingSessions, partners, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";
import { insertBeneficiary, insertTestTransfer, newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
const maker: Operator = { id: "op_funding_maker", email: "funding.maker@example.com", name: "Maker", role: "admin" };
const checker: Operator = { id: "op_funding_checker", email: "funding.checker@example.com", name: "Checker", role: "admin" };

// A database of its own on PostgreSQL: the version published here changes US-MX for other files.
before(async () => {
  ({ db, close } = await freshDb({ ownDatabase: true }));
  owner = await newSubscription(db);
});
after(() => close());

/** A US-MX transfer accepted under `version`, confirmed: its funding session's id and page token. */
async function inFunding(version: number) {
  const { transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession } = await import("@/lib/payments/transfers/funding");
  const now = clock.now();
  return db.transaction(async (tx) => {
    const row = await insertTestTransfer(tx, owner, now);
    const [versioned] = await tx.update(transfers).set({ configurationVersion: version }).where(eq(transfers.id, row.id)).returning();
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, versioned, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    const session = await openFundingSession(tx, funding, now);
    return {
      transferId: row.id,
      fundingSessionId: session.fundingSessionId,
      token: session.fundingWebviewUrl.slice(session.fundingWebviewUrl.lastIndexOf("/") + 1),
    };
  });
}

/** The funding methods a US-MX quote's corridor lists (POST /v1/core/quotes' answer), priced now. */
async function quotedFundingMethods(): Promise<readonly string[]> {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { createQuote } = await import("@/lib/payments/quotes/create");
  await db
    .update(customers)
    .set({ profile: { residenceCountry: "USA" } })
    .where(eq(customers.id, owner.customerId));
  const [partner] = await db.select().from(partners).where(eq(partners.id, owner.partnerId));
  const beneficiaryId = await insertBeneficiary(db, owner, clock.now());
  const req = { originAmount: "100.00", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId };
  const quote = await inUnit(
    ({ tx }) => createQuote(tx, { partner, subscriptionId: owner.subscriptionId, customerId: owner.customerId, req, now: clock.now() }),
    {
      db,
    },
  );
  return quote.corridor.fundingMethods;
}

/** Version 2, in force from its approval: US-MX offers card only. */
async function cardOnlyOnUsMx() {
  const { act } = await import("@/lib/operations/commands/run");
  const { approve } = await import("@/lib/operations/dual-control/proposals");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { latestTable, refreshVersions, storedVersion } = await import("@/lib/payments/corridors/versions");
  await refreshVersions(db);
  const document = structuredClone(storedVersion(latestTable().version)!.document) as { corridors: Record<string, unknown>[] };
  document.corridors = document.corridors.map((c) => (c.code === "US-MX" ? { ...c, fundingMethods: ["CARD"] } : c));
  const input = { document, effectiveAt: clock.now().toISOString(), note: "No bank transfers on US-MX" };
  const acted = await inUnit(({ tx }) => act(tx, "configuration.version.publish", input, { operator: maker, reason: input.note, now: clock.now() }), { db });
  assert.equal(acted.kind, "proposed");
  const proposal = acted.kind === "proposed" ? acted.proposal : undefined!;
  assert.deepEqual([proposal.before?.["US-MX.fundingMethods"], proposal.proposed?.["US-MX.fundingMethods"]], [null, '["CARD"]']);
  await inUnit(({ tx }) => approve(tx, proposal.id, { operator: checker, reason: "Agreed", now: clock.now() }), { db });
}

test("a version offering card only on US-MX: its transfers cannot choose bank transfer; one accepted before still can", async () => {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { chooseBankTransfer } = await import("@/lib/payments/transfers/bank-transfer");
  const { lockFundingSession } = await import("@/lib/payments/transfers/funding");
  const { openFundingWebview, payFromWebview } = await import("@/lib/payments/transfers/funding-webview");
  const unavailable = (e: unknown) => (e as { code?: string }).code === "funding.methodUnavailable";
  const choose = (fundingSessionId: string) =>
    inUnit(async ({ tx, now }) => chooseBankTransfer(tx, (await lockFundingSession(tx, fundingSessionId))!, now), { db });
  const methods = async (token: string) => (await inUnit(({ tx, now }) => openFundingWebview(tx, token, now), { db })).fundingMethods;

  const before = await inFunding(1);
  assert.deepEqual(await quotedFundingMethods(), ["CARD", "BANK_TRANSFER"], "a quote's corridor lists the methods of its version");
  await cardOnlyOnUsMx();
  const underV2 = await inFunding(2);
  assert.deepEqual(await quotedFundingMethods(), ["CARD"]);

  assert.deepEqual(await methods(before.token), ["CARD", "BANK_TRANSFER"], "version 1 offered both (no list: every method)");
  assert.deepEqual(await methods(underV2.token), ["CARD"]);

  await assert.rejects(choose(underV2.fundingSessionId), unavailable);
  await assert.rejects(
    inUnit(({ tx, now }) => payFromWebview(tx, underV2.token, { method: "BANK_TRANSFER" }, now), { db }),
    unavailable,
  );
  assert.match((await choose(before.fundingSessionId)).reference, /^RF\d{2}/, "the transfer keeps the methods it was accepted under");

  const paid = await inUnit(({ tx, now }) => payFromWebview(tx, underV2.token, { method: "CARD", cardNumber: "4242424242424242" }, now), { db });
  assert.equal(paid.transferStatus, "funded");
});

test("a corridor's funding methods: at least one, each once, from the closed list", async () => {
  const { documentProblems } = await import("@/lib/payments/corridors/changes");
  const { seedDocument } = await import("@/lib/payments/corridors/versions");
  const withMethods = (fundingMethods: unknown) => {
    const doc = structuredClone(seedDocument()) as { corridors: Record<string, unknown>[] };
    doc.corridors = doc.corridors.map((c) => (c.code === "US-MX" ? { ...c, fundingMethods } : c));
    return documentProblems(doc).map((p) => p.field);
  };
  assert.deepEqual(withMethods(["BANK_TRANSFER"]), []);
  assert.deepEqual(withMethods([]), ["US-MX.fundingMethods"]);
  assert.deepEqual(withMethods(["CARD", "CARD"]), ["US-MX.fundingMethods"]);
  assert.deepEqual([...new Set(withMethods(["CHEQUE"]))], ["US-MX.fundingMethods.0"]);
});

test("production's page (bank transfer its only method) on a card-only corridor says the transfer cannot be paid by bank transfer, not 'this currency'", async () => {
  // Version 2 (card only on US-MX, the first test's) is in force; the service collects by bank transfer only.
  const KEY = Symbol.for("remit.config");
  const settings = globalThis as Record<symbol, unknown>;
  const production = {
    FUNDING_PROVIDER: "bank-transfer",
    COLLECTION_ACCOUNT_IBAN: "DE89370400440532013000",
    COLLECTION_ACCOUNT_BIC: "COBADEFFXXX",
    COLLECTION_ACCOUNT_NAME: "Remit Collections",
    COLLECTION_ACCOUNT_CURRENCY: "USD",
  };
  Object.assign(process.env, production);
  delete settings[KEY];
  try {
    const { inUnit } = await import("@/lib/platform/unit-of-work");
    const { openFundingWebview } = await import("@/lib/payments/transfers/funding-webview");
    const { FundingBankTransfer } = await import("@/components/webviews/funding-bank-transfer");
    const { fundingWebviewMessages } = await import("@/lib/platform/i18n/funding-webview-messages");
    const { createElement } = await import("react");
    const { renderToStaticMarkup } = await import("react-dom/server");
    const s = await inFunding(2);
    const model = await inUnit(({ tx, now }) => openFundingWebview(tx, s.token, now), { db });
    assert.deepEqual([model.paymentsConfigured, model.fundingMethods, model.bankTransfer], [false, ["CARD"], null]);
    const [session] = await db.select().from(fundingSessions).where(eq(fundingSessions.id, s.fundingSessionId));
    assert.equal(session.creditorReference, null, "no reference bound for a method the transfer cannot use");
    const html = renderToStaticMarkup(createElement(FundingBankTransfer, { model, messages: fundingWebviewMessages.en, until: "" }));
    assert.match(html, /This transfer cannot be paid by bank transfer/);
    assert.doesNotMatch(html, /currency/);
  } finally {
    for (const name of Object.keys(production)) delete process.env[name];
    delete settings[KEY];
  }
});
