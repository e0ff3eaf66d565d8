import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair } from "jose";
import type { Db } from "@/db";
import { spawnServer, type SpawnedServer } from "../../support/spawned-server";
import { productionEnv } from "../../support/production-env";

/**
 * Issue 11 item 1, Done-when: no test can make a production server reach a sandbox provider. A
 * production server (APP_MODE=production, test/support/production-env.ts) runs on a fresh
 * PostgreSQL database of its own (it refuses one holding the sandbox demo partner); the rows are
 * seeded through the domain functions (openFundingSession, transitionTransfer, issueTokens) in this
 * process, with the same production configuration, on a direct connection. Then, over HTTP:
 * funding page (notice, no sandbox cards), payment (503, transfer still funding), payout (no
 * network job, /v1/sandbox 404) and refund (cancel of a funded transfer: refund stays PENDING, no
 * refund job). PostgreSQL only: PGlite allows one process per directory, and the seeding needs a
 * second connection beside the server's.
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.TEST_DB_URL;
const skip = adminUrl ? false : "needs PostgreSQL (TEST_DATABASE_URL or TEST_DB_URL): the production server needs a fresh database of its own";

const API_KEY = `prod_test_${randomUUID()}`;
let server: SpawnedServer;
let db: Db;
let closeDb: () => Promise<void> = async () => {};
let dropDb: () => Promise<void> = async () => {};
let fundingToken = "";
let fundingSessionId = "";
let fundingTransferId = "";
let fundedTransferId = "";
let accessToken = "";

async function freshDatabase(url: string) {
  const { default: postgres } = await import("postgres");
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const name = `remit_prod_${process.pid}_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  dropDb = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  };
  return dbUrl.toString();
}

async function seed() {
  // The domain modules read configuration on load: import them after process.env is production.
  const { newId } = await import("@/db/ids");
  const { beneficiaries, partnerApiKeys, transfers } = await import("@/db/schema");
  const { clock } = await import("@/lib/clock");
  const { sha256Hex } = await import("@/lib/crypto/hash");
  const { issueTokens } = await import("@/lib/auth/tokens");
  const { openFundingSession } = await import("@/lib/transfers/funding");
  const { startPayout } = await import("@/lib/transfers/network");
  const { transitionTransfer } = await import("@/lib/transfers/records");
  const { newSubscription, insertTestTransfer } = await import("../../support/fixtures");

  const owner = await newSubscription(db);
  const now = clock.now();
  await db
    .insert(partnerApiKeys)
    .values({ id: newId("pak"), partnerId: owner.partnerId, keyHash: sha256Hex(API_KEY), keyPrefix: API_KEY.slice(0, 8), createdAt: now });
  return db.transaction(async (tx) => {
    const beneficiary = async () => {
      const id = newId("ben");
      const row = { id, subscriptionId: owner.subscriptionId, firstName: "Ana", lastName: "Ruiz", countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" };
      await tx.insert(beneficiaries).values({ ...row, state: "VALID", createdAt: now, updatedAt: now });
      return id;
    };
    type Row = Parameters<typeof transitionTransfer>[1];
    // The fast-check's pass and the customer's confirm, as submit and confirm take them.
    const toFunding = async (row: Row) =>
      transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now, { confirmedAt: now });
    // A transfer in funding with its open funding session and webview token, as confirm makes it.
    const first = await insertTestTransfer(tx, owner, now);
    const firstBen = await beneficiary();
    const [withBen] = await tx.update(transfers).set({ beneficiaryId: firstBen }).where(eq(transfers.id, first.id)).returning();
    const funding = await toFunding(withBen);
    const session = await openFundingSession(tx, funding, now);
    // A funded transfer, as completeFunding leaves it (the step the sandbox rail alone may take).
    const second = await insertTestTransfer(tx, owner, now);
    const funded = await transitionTransfer(tx, await toFunding(second), "funding.succeeded", now);
    await startPayout(tx, funded, now);
    const tokens = await issueTokens(tx, { subscriptionId: owner.subscriptionId, partnerId: owner.partnerId, now });
    return {
      sessionId: session.fundingSessionId,
      token: new URL(session.fundingWebviewUrl).pathname.split("/").pop()!,
      fundingId: funding.id,
      fundedId: funded.id,
      access: tokens.accessToken,
    };
  });
}

async function transferState(id: string) {
  const { transfers } = await import("@/db/schema");
  const [row] = await db.select({ state: transfers.state, refund: transfers.refund }).from(transfers).where(eq(transfers.id, id));
  return row;
}

async function jobsOf(kind: string, transferId: string) {
  const { jobs } = await import("@/db/schema");
  const rows = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, kind));
  return rows.filter((r) => r.payload.transferId === transferId);
}

describe("a production server never reaches a sandbox money rail (issue 11 item 1)", { skip }, () => {
  before(async () => {
    const url = await freshDatabase(adminUrl!);
    // productionEnv's placeholder key passes the configuration check only; a started server signs quotes with it.
    const { privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
    const env = { ...productionEnv, SERVICE_SIGNING_KEYS: JSON.stringify([await exportJWK(privateKey)]), DATABASE_URL: url };
    Object.assign(process.env, env, { LOG_LEVEL: "silent" });
    server = await spawnServer({ ...env, LOG_LEVEL: "warn" });
    // Same configuration as the server (PUBLIC_BASE_URL makes the webview URL point at it).
    process.env.PUBLIC_BASE_URL = server.baseUrl;
    const { connectPostgres } = await import("../../support/db");
    ({ db, close: closeDb } = await connectPostgres(url));
    const seeded = await seed();
    fundingToken = seeded.token;
    fundingSessionId = seeded.sessionId;
    fundingTransferId = seeded.fundingId;
    fundedTransferId = seeded.fundedId;
    accessToken = seeded.access;
  });

  after(async () => {
    await closeDb();
    await server?.stop();
    await dropDb();
  });

  test("the hosted funding page says payments are not available and shows no sandbox card", async () => {
    const res = await fetch(`${server.baseUrl}/webviews/funding/${fundingToken}`, { headers: { "accept-language": "en" } });
    assert.equal(res.status, 200);
    // The whole document, serialized client props included: no sandbox wording anywhere in it.
    const html = await res.text();
    assert.match(html, /Payments are not available on this service yet/);
    assert.doesNotMatch(html, /4242/);
    assert.doesNotMatch(html, /Sandbox:|sandbox confirms/i);
    const page = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
    assert.doesNotMatch(page, /<form|type="submit"/i);
  });

  for (const [name, body] of [
    ["a bank transfer", { method: "BANK_TRANSFER" }],
    ["a sandbox card", { method: "CARD", cardNumber: "4242424242424242", expiry: "12/30", cvc: "123" }],
  ] as const) {
    test(`paying with ${name} answers 503 internal.unavailable and the transfer stays in funding`, async () => {
      const res = await fetch(`${server.baseUrl}/webviews/funding/${fundingToken}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.baseUrl },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      assert.equal(res.status, 503, text);
      assert.match(text, /internal\.unavailable/);
      assert.doesNotMatch(text, /funded/);
      assert.equal((await transferState(fundingTransferId)).state, "funding");
      assert.equal((await jobsOf("transfers.networkStep", fundingTransferId)).length, 0);
    });
  }

  test("payout and sandbox endpoints: no network job for the funded transfer, /v1/sandbox answers 404", async () => {
    assert.equal((await jobsOf("transfers.networkStep", fundedTransferId)).length, 0);
    for (const path of [
      `/v1/sandbox/transfers/${fundedTransferId}/advance`,
      `/v1/sandbox/funding-sessions/${fundingSessionId}/complete`,
      "/v1/sandbox/clock",
    ]) {
      const res = await fetch(`${server.baseUrl}${path}`, {
        method: "POST",
        headers: { "ocp-apim-subscription-key": API_KEY, "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(res.status, 404, path);
    }
    assert.equal((await transferState(fundedTransferId)).state, "funded");
  });

  test("refund: cancelling the funded transfer leaves the refund PENDING with no sandbox refund job", async () => {
    const res = await fetch(`${server.baseUrl}/v1/core/transfers/${fundedTransferId}/cancel`, {
      method: "POST",
      headers: {
        "ocp-apim-subscription-key": API_KEY,
        authorization: `Bearer ${accessToken}`,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      body: JSON.stringify({ cancellationReason: "CUSTOMER_REQUEST" }),
    });
    const body = await res.json();
    assert.equal(res.status, 202, JSON.stringify(body));
    assert.equal(body.refund.refundStatus, "PENDING");
    // Well past the sandbox refund's one-second steps: it must not have moved.
    await new Promise((r) => setTimeout(r, 2500));
    const row = await transferState(fundedTransferId);
    assert.equal(row.state, "canceled");
    assert.equal(row.refund?.refundStatus, "PENDING");
    assert.equal((await jobsOf("transfers.refundStep", fundedTransferId)).length, 0);
  });
});
