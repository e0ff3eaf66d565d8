/**
 * Funding windows per method (docs/decisions.md "Funding windows per method"),
 * on PGlite and PostgreSQL: a funding session never outlives its transfer (the API's expiresAt,
 * the page's deadline and the enforcement are the earlier of the two); choosing bank transfer
 * gives the session, its page and the transfer BANK_TRANSFER_FUNDING_BUSINESS_DAYS business days
 * of the collection account's calendar (German holidays, Europe/Berlin), not 30 minutes.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { fundingSessions, transfers, webviewTokens } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  // The sandbox collection account is German (DE89…): its bank's zone.
  process.env.COLLECTION_ACCOUNT_TIME_ZONE = "Europe/Berlin";
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

/** A transfer registered at `at` that expires `ttlSeconds` later, confirmed at `confirmAt`: its funding session. */
async function confirmed(at: Date, ttlSeconds: number, confirmAt: Date) {
  const { transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession } = await import("@/lib/payments/transfers/funding");
  return db.transaction(async (tx) => {
    const row = await insertTestTransfer(tx, owner, at, undefined, { expiresAt: addSeconds(at, ttlSeconds) });
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", at), "confirm", confirmAt, { confirmedAt: confirmAt });
    return { transferId: row.id, ...(await openFundingSession(tx, funding, confirmAt)) };
  });
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
const sessionRow = async (id: string) => (await db.select().from(fundingSessions).where(eq(fundingSessions.id, id)))[0];
const transferRow = async (id: string) => (await db.select().from(transfers).where(eq(transfers.id, id)))[0];

test("confirmed 10 minutes before the transfer expires: the session, the page's deadline and the payment all end with the transfer", async () => {
  const registered = new Date("2026-11-26T10:00:00Z");
  const confirmAt = new Date("2026-11-26T11:50:00Z"); // 10 minutes before the 120 minutes end
  const transferEnds = new Date("2026-11-26T12:00:00Z");
  const s = await confirmed(registered, 7200, confirmAt);
  assert.equal(s.expiresAt, transferEnds.toISOString(), "the API's expiresAt: the transfer's end, not 30 minutes on");
  assert.equal((await sessionRow(s.fundingSessionId)).expiresAt.toISOString(), transferEnds.toISOString());

  const { openFundingWebview, payFromWebview } = await import("@/lib/payments/transfers/funding-webview");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const model = await inUnit(({ tx }) => openFundingWebview(tx, tokenOf(s.fundingWebviewUrl), new Date("2026-11-26T11:55:00Z")), { db });
  assert.equal(model.payBy.toISOString(), transferEnds.toISOString(), "the page shows the transfer's end");

  // Paying "on time" by the old 30 minutes (12:10) is too late, and the page says so: its URL is dead.
  await assert.rejects(
    inUnit(({ tx }) => payFromWebview(tx, tokenOf(s.fundingWebviewUrl), { method: "CARD", cardNumber: "4242424242424242" }, new Date("2026-11-26T12:10:00Z")), {
      db,
    }),
    (e: unknown) => (e as { code?: string }).code === "funding.sessionExpired",
  );
  assert.notEqual((await transferRow(s.transferId)).state, "funded");
});

test("a card session still gets its 30 minutes when the transfer has longer", async () => {
  const at = new Date("2026-11-26T10:00:00Z");
  const s = await confirmed(at, 7200, at);
  assert.equal(s.expiresAt, "2026-11-26T10:30:00.000Z");
});

test("bank transfer chosen on Thursday 24 December: the window runs to the end of Tuesday 29 December (Berlin), and the transfer's expiry follows", async () => {
  const at = new Date("2026-12-24T09:00:00Z");
  const s = await confirmed(at, 7200, at);
  const { chooseBankTransfer } = await import("@/lib/payments/transfers/bank-transfer");
  const { lockFundingSession } = await import("@/lib/payments/transfers/funding");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  // 25 and 26 December are German holidays, 27 a Sunday: business days Monday 28 and Tuesday 29.
  const windowEnd = "2026-12-29T23:00:00.000Z";
  const instructions = await inUnit(async ({ tx }) => chooseBankTransfer(tx, (await lockFundingSession(tx, s.fundingSessionId))!, at), { db });
  assert.equal(instructions.payBy, windowEnd);
  assert.equal((await sessionRow(s.fundingSessionId)).expiresAt.toISOString(), windowEnd);
  assert.equal((await transferRow(s.transferId)).expiresAt.toISOString(), windowEnd, "the transfer's expiry follows its method");
  const [token] = await db.select().from(webviewTokens).where(eq(webviewTokens.sessionId, s.fundingSessionId));
  assert.equal(token.expiresAt.toISOString(), windowEnd, "the page's URL lives as long");
  // Again (the page reopened): the same reference and deadline, nothing moved.
  const again = await inUnit(async ({ tx }) => chooseBankTransfer(tx, (await lockFundingSession(tx, s.fundingSessionId))!, new Date("2026-12-28T08:00:00Z")), {
    db,
  });
  assert.deepEqual([again.reference, again.payBy], [instructions.reference, windowEnd]);

  // Past the old 30 minutes and the old 120: the expiry jobs find nothing due, the page still opens.
  const { expireFundingSession } = await import("@/lib/payments/transfers/funding-expire-job");
  const { expireTransfer } = await import("@/lib/payments/transfers/expire-job");
  const later = new Date("2026-12-24T12:00:00Z");
  await db.transaction((tx) => expireFundingSession.run!(tx, { payload: { fundingSessionId: s.fundingSessionId }, now: later } as never));
  await db.transaction((tx) => expireTransfer.run!(tx, { payload: { transferId: s.transferId }, now: later } as never));
  assert.equal((await transferRow(s.transferId)).state, "funding");
  assert.equal((await sessionRow(s.fundingSessionId)).state, "OPEN");
  const { openFundingWebview } = await import("@/lib/payments/transfers/funding-webview");
  const model = await inUnit(({ tx }) => openFundingWebview(tx, tokenOf(s.fundingWebviewUrl), new Date("2026-12-29T20:00:00Z")), { db });
  assert.equal(model.payBy.toISOString(), windowEnd);

  // A credit imported on Tuesday evening funds it.
  const { fundFromBankCredit } = await import("@/lib/payments/reconciliation/fund");
  const funded = await inUnit(async ({ tx }) => fundFromBankCredit(tx, (await lockFundingSession(tx, s.fundingSessionId))!, new Date("2026-12-29T22:00:00Z")), {
    db,
  });
  assert.equal(funded.transferStatus, "funded");
});

test("bank transfer: a credit imported after the window's end does not fund; the transfer expires", async () => {
  const at = new Date("2026-11-27T09:00:00Z"); // a Friday: Monday 30 November and Tuesday 1 December
  const s = await confirmed(at, 7200, at);
  const { chooseBankTransfer } = await import("@/lib/payments/transfers/bank-transfer");
  const { lockFundingSession } = await import("@/lib/payments/transfers/funding");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { payBy } = await inUnit(async ({ tx }) => chooseBankTransfer(tx, (await lockFundingSession(tx, s.fundingSessionId))!, at), { db });
  assert.equal(payBy, "2026-12-01T23:00:00.000Z");
  const { fundFromBankCredit } = await import("@/lib/payments/reconciliation/fund");
  await assert.rejects(
    inUnit(async ({ tx }) => fundFromBankCredit(tx, (await lockFundingSession(tx, s.fundingSessionId))!, new Date("2026-12-02T07:00:00Z")), { db }),
    (e: unknown) => (e as { code?: string }).code === "funding.sessionExpired",
  );
  assert.equal((await transferRow(s.transferId)).state, "expired");
});
