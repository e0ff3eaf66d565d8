/**
 * The receipt e-mail job: what it reads in one prepared statement,
 * and its link's token and the sandbox message written in one more, outside any transaction.
 * The message is the receipt as the API reads it (receiptFacts), with the link the job issued.
 * Statements counted on the database handle's client (postgres.js `unsafe`, PGlite `query`).
 * PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, loginIdentifiers, otpOutbox, partners, webviewTokens } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { formatDateTime } from "@/lib/platform/i18n/format";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";
import { countStatements } from "./support/counted";

let db: Db;
let close: () => Promise<void>;
let statements = 0;

before(async () => {
  ({ db, close } = await freshDb());
  // Every statement sent on the handle from here on is counted (prepared queries capture the client when built).
  countStatements(db, () => statements++);
});

after(() => close());

/** A transfer of `owner` funded by card now (its receipt e-mail job enqueued, not run). */
async function fundedTransfer(owner: Owner): Promise<string> {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession, lockFundingSession, completeFunding } = await import("@/lib/payments/transfers/funding");
  const t = await registeredTransfer(db, owner);
  const now = clock.now();
  await db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, t.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now);
    const { fundingSessionId } = await openFundingSession(tx, funding, now);
    await completeFunding(tx, { ...(await lockFundingSession(tx, fundingSessionId))!, outcome: "SUCCEEDED", method: "CARD", now });
  });
  return t.id;
}

async function runJob(transferId: string): Promise<number> {
  const { emailReceipt } = await import("@/lib/payments/receipts/email-job");
  const before = statements;
  await emailReceipt.perform!(db, { payload: { transferId }, jobId: newId("job"), attempt: 1, now: clock.now(), signal: new AbortController().signal });
  return statements - before;
}

describe("the receipt e-mail job", () => {
  it("one read, then the link's token and the sandbox message in one statement: the receipt as the API reads it", async () => {
    const { receiptFacts } = await import("@/lib/payments/receipts/receipt");
    const { receiptLines, receiptMessages } = await import("@/lib/platform/i18n/receipt-messages");
    const { sha256Hex } = await import("@/lib/platform/crypto/hash");
    const { lockTransfer } = await import("@/lib/payments/transfers/records");
    const owner = await newSubscription(db);
    const now = clock.now();
    // A Texas customer: the message's times are Central, with the offset (the fields stay UTC).
    const residenceAddress = { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "USA" };
    await db.update(customers).set({ preferredLanguage: "es", profile: { residenceAddress } }).where(eq(customers.id, owner.customerId));
    await db
      .update(partners)
      .set({ providerContact: { name: "Remesas Uno", phone: "+15550100", website: "https://uno.example", regulator: "" } })
      .where(eq(partners.id, owner.partnerId));
    const email = `${newId("ana")}@example.com`.toLowerCase();
    await db.insert(loginIdentifiers).values({
      id: newId("lid"),
      partnerId: owner.partnerId,
      subscriptionId: owner.subscriptionId,
      type: "EMAIL",
      value: email,
      verifiedAt: now,
      createdAt: now,
    });
    const transferId = await fundedTransfer(owner);

    assert.equal(await runJob(transferId), 2);

    const [sent] = await db.select().from(otpOutbox).where(eq(otpOutbox.identifier, email));
    assert.equal(sent.purpose, "RECEIPT");
    assert.equal(sent.partnerId, owner.partnerId);
    const url = /https?:\/\/\S+\/webviews\/receipt\/([A-Za-z0-9_-]{20,})$/.exec(sent.message)!;
    assert.ok(url, sent.message);
    const [token] = await db
      .select()
      .from(webviewTokens)
      .where(eq(webviewTokens.tokenHash, sha256Hex(url[1])));
    assert.deepEqual([token.kind, token.sessionId, token.partnerId], ["RECEIPT", transferId, owner.partnerId]);
    const transfer = (await db.transaction((tx) => lockTransfer(tx, transferId)))!;
    const facts = await receiptFacts(db, transfer, "es", "America/Chicago");
    assert.equal(facts.provider.name, "Remesas Uno");
    const m = receiptMessages.es;
    const lines = receiptLines(facts, "es", "America/Chicago");
    const paidOn = lines.find(([k]) => k === m.date)![1];
    assert.equal(paidOn, formatDateTime(facts.fundedAt, "es", "America/Chicago"));
    assert.match(paidOn, /\d{1,2}:\d\d (UTC−0[56]:00|C[SD]T \(UTC−0[56]:00\))$/);
    assert.match(facts.rightsStatement, /hasta el .+ UTC−0[56]:00/);
    assert.match(facts.fundedAt, /Z$/);
    assert.equal(sent.message, [m.title, "", ...lines.map(([k, v]) => `${k}: ${v}`), "", facts.rightsStatement, "", `${m.link}: ${url[0]}`].join("\n"));
  });

  it("no e-mail login identifier: one read, nothing written", async () => {
    const owner = await newSubscription(db);
    const transferId = await fundedTransfer(owner);
    assert.equal(await runJob(transferId), 1);
    assert.equal((await db.select().from(webviewTokens).where(eq(webviewTokens.sessionId, transferId))).length, 0);
  });

  it("not funded: refused as the receipt is (transfer.stateInvalid), nothing written", async () => {
    const owner = await newSubscription(db);
    await db.insert(loginIdentifiers).values({
      id: newId("lid"),
      partnerId: owner.partnerId,
      subscriptionId: owner.subscriptionId,
      type: "EMAIL",
      value: `${newId("b")}@example.com`.toLowerCase(),
      verifiedAt: clock.now(),
      createdAt: clock.now(),
    });
    const t = await registeredTransfer(db, owner);
    await assert.rejects(runJob(t.id), (err: Error & { code?: string }) => err.code === "transfer.stateInvalid");
    assert.equal((await db.select().from(webviewTokens).where(eq(webviewTokens.sessionId, t.id))).length, 0);
  });
});
