import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair } from "jose";
import { SMTPServer } from "smtp-server";
import type { Db } from "@/db";
import { spawnServer, type SpawnedServer } from "../../support/spawned-server";
import { productionEnv } from "../../support/production-env";
import { isCreditorReference } from "@/lib/payments/reconciliation/creditor-reference";
import { camt053 } from "../../support/camt053";
import { pain001SchemaErrors } from "../../support/iso20022";

/**
 * No test can make a production server reach a sandbox provider. A
 * production server (APP_MODE=production, test/support/production-env.ts) runs on a fresh
 * PostgreSQL database of its own (it refuses one holding the sandbox demo partner); the rows are
 * seeded through the domain functions (openFundingSession, transitionTransfer, issueTokens) in this
 * process, with the same production configuration, on a direct connection. Then, over HTTP:
 * funding page (bank transfer details with an RF reference, no sandbox cards), payment (503,
 * transfer still funding), statements (only a matching camt.053 credit funds, imported with
 * `npm run statements:import`), payout (no network job, /v1/sandbox 404) and refund (cancel of a funded transfer: refund stays PENDING, no
 * refund job). Payouts go by pain.001 files: the server's own periodic job puts a funded
 * transfer into an XSD-valid file in PAYOUT_OUTBOX_DIR and moves it to topay, and nothing of the
 * sandbox network ever moves it further. PostgreSQL only: PGlite allows one process per directory, and the seeding needs a
 * second connection beside the server's.
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.TEST_DB_URL;
const skip = adminUrl ? false : "needs PostgreSQL (TEST_DATABASE_URL or TEST_DB_URL): the production server needs a fresh database of its own";

const API_KEY = `prod_test_${randomUUID()}`;
let server: SpawnedServer;
let smtp: SMTPServer | undefined;
let db: Db;
let closeDb: () => Promise<void> = async () => {};
let dropDb: () => Promise<void> = async () => {};
let fundingToken = "";
let fundingSessionId = "";
let fundingTransferId = "";
let fundedTransferId = "";
let filedTransferId = "";
let accessToken = "";
let bankReference = "";
const outbox = mkdtempSync(path.join(tmpdir(), "remit-prod-outbox-"));

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
  const { beneficiaries, partnerApiKeys, payoutMethods, transfers } = await import("@/db/schema");
  const { destinationCipher } = await import("@/lib/platform/crypto/destination-cipher");
  const { clock } = await import("@/lib/platform/clock");
  const { sha256Hex } = await import("@/lib/platform/crypto/hash");
  const { issueTokens } = await import("@/lib/identity/auth/tokens");
  const { openFundingSession } = await import("@/lib/payments/transfers/funding");
  const { startPayout } = await import("@/lib/payments/transfers/network");
  const { transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { newSubscription, insertTestTransfer } = await import("../../support/fixtures");

  const owner = await newSubscription(db);
  const now = clock.now();
  await db
    .insert(partnerApiKeys)
    .values({ id: newId("pak"), partnerId: owner.partnerId, keyHash: sha256Hex(API_KEY), keyPrefix: API_KEY.slice(0, 8), createdAt: now });
  return db.transaction(async (tx) => {
    const beneficiary = async () => {
      const id = newId("ben");
      const row = {
        id,
        subscriptionId: owner.subscriptionId,
        firstName: "Ana",
        lastName: "Ruiz",
        countryOfResidence: "MEX",
        relationshipToCustomer: "FAMILY" as const,
      };
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
    // Paid out in PHP, which no configured payout bank serves: it stays funded (the refund test cancels it).
    const second = await insertTestTransfer(tx, owner, now);
    await tx.update(transfers).set({ destinationCurrency: "PHP" }).where(eq(transfers.id, second.id));
    const funded = await transitionTransfer(tx, await toFunding({ ...second, destinationCurrency: "PHP" }), "funding.succeeded", now);
    await startPayout(tx, funded, now);
    // A funded MXN transfer to a beneficiary's bank account: the payout job puts it into a file.
    const third = await insertTestTransfer(tx, owner, now);
    const thirdBen = await beneficiary();
    const methodId = newId("pm");
    const identifier = "002010077777777771";
    await tx.insert(payoutMethods).values({
      id: methodId,
      beneficiaryId: thirdBen,
      methodType: "BANK_TRANSFER",
      corridor: "US-MX",
      destinationIdentifierEncrypted: (await destinationCipher(tx)).encrypt(identifier, methodId),
      destinationIdentifierMasked: "****7771",
      addedAt: now,
    });
    const [third2] = await tx.update(transfers).set({ beneficiaryId: thirdBen, payoutMethodId: methodId }).where(eq(transfers.id, third.id)).returning();
    const filed = await transitionTransfer(tx, await toFunding(third2), "funding.succeeded", now);
    await startPayout(tx, filed, now);
    const tokens = await issueTokens(tx, { subscriptionId: owner.subscriptionId, partnerId: owner.partnerId, now });
    return {
      sessionId: session.fundingSessionId,
      token: new URL(session.fundingWebviewUrl).pathname.split("/").pop()!,
      fundingId: funding.id,
      fundedId: funded.id,
      filedId: filed.id,
      access: tokens.accessToken,
    };
  });
}

/** `npm run statements:import -- FILE` against the production database (same settings as the server). */
async function importStatement(xml: string): Promise<string> {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const { execFile } = await import("node:child_process");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "remit-stmt-")), "statement.xml");
  writeFileSync(file, xml);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/statements-import.ts", file],
      { env: { ...process.env, LOG_LEVEL: "silent" } },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}${stderr}`)) : resolve(stdout)),
    );
  });
}

async function transferState(id: string) {
  const { refunds, transfers } = await import("@/db/schema");
  const [row] = await db
    .select({ state: transfers.state, refundStatus: refunds.state })
    .from(transfers)
    .leftJoin(refunds, eq(refunds.transferId, transfers.id))
    .where(eq(transfers.id, id));
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
    // A key of this test (productionEnv has one too: any private RSA key of 2048 bits or more passes).
    const { privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
    // Production logs in to its SMTP server before serving: one that takes productionEnv's login.
    smtp = new SMTPServer({ authOptional: false, disabledCommands: ["STARTTLS"], logger: false, onAuth: (_a, _s, cb) => cb(null, { user: "remit" }) });
    await new Promise<void>((resolve) => smtp!.listen(0, "127.0.0.1", resolve));
    const smtpPort = (smtp.server.address() as { port: number }).port;
    // Payout files every 3 s, written to a directory of this test.
    const env = {
      ...productionEnv,
      SMTP_URL: `smtp://remit:secret@127.0.0.1:${smtpPort}`,
      SERVICE_SIGNING_KEYS: JSON.stringify([await exportJWK(privateKey)]),
      DATABASE_URL: url,
      PAYOUT_BATCH_MINUTES: "0.05",
      PAYOUT_OUTBOX_DIR: outbox,
    };
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
    filedTransferId = seeded.filedId;
    accessToken = seeded.access;
  });

  after(async () => {
    await closeDb();
    await server?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    await dropDb();
  });

  test("the hosted funding page shows bank transfer details (collection account, exact amount, RF reference) and no sandbox card", async () => {
    const res = await fetch(`${server.baseUrl}/webviews/funding/${fundingToken}`, { headers: { "accept-language": "en" } });
    assert.equal(res.status, 200);
    // The whole document, serialized client props included: no sandbox wording anywhere in it.
    const html = await res.text();
    assert.match(html, /Pay by bank transfer/);
    assert.match(html, /GB33 BUKB 2020 1555 5555 55/, "the collection account's IBAN");
    assert.match(html, /BUKBGB22/);
    assert.match(html, /data-testid="bank-amount"[^>]*>USD\s102\.99</, "the exact amount in minor units, for people");
    assert.match(html, /waits until your payment reaches our account/);
    // Its deadline, and what a late payment becomes, in every language of the page.
    const until = /data-testid="funding-until"[^>]*>Pay before ([^<]+)\.</.exec(html)?.[1];
    assert.match(until ?? "", /^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s[AP]M UTC$/, "the session's end, for people");
    assert.ok(html.includes(`A payment that reaches our account after ${until} no longer pays for this transfer`), "what a late payment becomes");
    for (const [language, deadline, late] of [
      [
        "fr",
        /data-testid="funding-until"[^>]*>À payer avant le \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC\.</,
        /après le \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC ne paie plus ce transfert/,
      ],
      [
        "es",
        /data-testid="funding-until"[^>]*>Paga antes del \d{1,2} de \S+ de \d{4} a las \d{1,2}:\d{2} UTC\.</,
        /después del \d{1,2} de \S+ de \d{4} a las \d{1,2}:\d{2} UTC ya no paga esta transferencia/,
      ],
    ] as const) {
      const other = await (await fetch(`${server.baseUrl}/webviews/funding/${fundingToken}`, { headers: { "accept-language": language } })).text();
      assert.match(other, deadline, language);
      assert.match(other, late, language);
    }
    const reference = /data-testid="bank-reference"[^>]*>([^<]+)</.exec(html)?.[1]?.replace(/\s+/g, "");
    assert.ok(reference && isCreditorReference(reference), `an ISO 11649 reference: ${reference}`);
    bankReference = reference;
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

  test("the funding page never funds without a matched credit; a camt.053 credit with its reference does (npm run statements:import)", async () => {
    assert.ok(bankReference, "the page test ran first");
    // A credit with the reference but a cent short, and one with another reference: neither funds.
    const short = await importStatement(
      camt053(
        [
          { bankReference: `P-${randomUUID().slice(0, 8)}`, amount: "102.98", currency: "USD", reference: bankReference },
          { bankReference: `P-${randomUUID().slice(0, 8)}`, amount: "102.99", currency: "USD", text: "RF18539007547034" },
        ],
        { messageId: "PROD-1", iban: productionEnv.COLLECTION_ACCOUNT_IBAN },
      ),
    );
    assert.match(short, /2 credits, 0 matched, 2 to the Bank credits queue/);
    assert.equal((await transferState(fundingTransferId)).state, "funding");
    // The payout bank's statement (its debtor account) is refused whole, though the credit matches.
    const payoutBank = JSON.parse(productionEnv.PAYOUT_BANKS)[0].debtorIban as string;
    await assert.rejects(
      importStatement(
        camt053([{ bankReference: `P-${randomUUID().slice(0, 8)}`, amount: "102.99", currency: "USD", reference: bankReference }], {
          messageId: "PROD-OTHER",
          iban: payoutBank,
        }),
      ),
      /not imported: The statement is of account .*, not the collection account GB\*\*\*\*5555 \(COLLECTION_ACCOUNT_IBAN\): nothing was imported/,
    );
    assert.equal((await transferState(fundingTransferId)).state, "funding");
    const exact = await importStatement(
      camt053([{ bankReference: `P-${randomUUID().slice(0, 8)}`, amount: "102.99", currency: "USD", reference: bankReference }], {
        messageId: "PROD-2",
        iban: productionEnv.COLLECTION_ACCOUNT_IBAN,
      }),
    );
    assert.match(exact, /1 credits, 1 matched/);
    // Funded; the pain.001 job may already have put it in a payout file (topay).
    assert.ok(["funded", "topay"].includes((await transferState(fundingTransferId)).state));
    // Payout is "none" in this configuration: funded, and no sandbox network step.
    assert.equal((await jobsOf("transfers.networkStep", fundingTransferId)).length, 0);
  });

  test("a file that is not a camt.053 is refused with a clear message and a failing exit code", async () => {
    await assert.rejects(importStatement("<Document/>"), /not imported: Not a valid camt\.053\.001\.08 document/);
  });

  test("payout and sandbox endpoints: no network job for the funded transfer, /v1/sandbox answers 404", async () => {
    assert.equal((await jobsOf("transfers.networkStep", fundedTransferId)).length, 0);
    for (const path of [
      `/v1/sandbox/transfers/${fundedTransferId}/advance`,
      `/v1/sandbox/funding-sessions/${fundingSessionId}/complete`,
      `/v1/sandbox/funding-sessions/${fundingSessionId}/bank-transfer`,
      "/v1/sandbox/bank-statements",
      "/v1/sandbox/clock",
      "/v1/sandbox/payout-files",
      "/v1/sandbox/payment-status-reports",
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

  test("payout: the server's job puts the funded transfer into an XSD-valid pain.001 in the outbox; it never reaches the sandbox network", async () => {
    const { payoutFileItems, payoutFiles } = await import("@/db/schema");
    let file: string | undefined;
    // The transfer funded by the statement above may have a file of its own by now: find the filed transfer's.
    for (let i = 0; i < 60 && !file; i++) {
      await new Promise((r) => setTimeout(r, 500));
      file = readdirSync(outbox).find((f) => f.endsWith(".xml") && readFileSync(path.join(outbox, f), "utf8").includes(`<EndToEndId>${filedTransferId}<`));
    }
    assert.ok(file, "a payout file in PAYOUT_OUTBOX_DIR");
    const xml = readFileSync(path.join(outbox, file), "utf8");
    assert.deepEqual(await pain001SchemaErrors(xml), []);
    assert.match(xml, new RegExp(`<EndToEndId>${filedTransferId}</EndToEndId>`));
    assert.match(xml, /<BIC>BCMRMXMMXXX<\/BIC>/);
    const [item] = await db.select().from(payoutFileItems).where(eq(payoutFileItems.transferId, filedTransferId));
    const [stored] = await db.select().from(payoutFiles).where(eq(payoutFiles.id, item.payoutFileId));
    assert.equal(stored.fileName, file);
    assert.ok(stored.writtenAt);
    assert.equal((await transferState(filedTransferId)).state, "topay");
    // Several job periods later: still in flight, no sandbox network step was ever scheduled.
    await new Promise((r) => setTimeout(r, 3500));
    assert.equal((await transferState(filedTransferId)).state, "topay");
    assert.equal((await jobsOf("transfers.networkStep", filedTransferId)).length, 0);
    // The PHP transfer has no payout bank: it stays funded, in no file.
    assert.equal((await transferState(fundedTransferId)).state, "funded");
    assert.deepEqual(await db.select().from(payoutFileItems).where(eq(payoutFileItems.transferId, fundedTransferId)), []);
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
    assert.equal(row.refundStatus, "PENDING");
    assert.equal((await jobsOf("transfers.refundStep", fundedTransferId)).length, 0);
  });
});
