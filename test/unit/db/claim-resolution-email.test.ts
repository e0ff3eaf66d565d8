/**
 * A claim's resolution e-mailed to its customer in their language, as the
 * receipt is: the job is written with the resolution (the unit of work's effects), and run outside
 * any transaction it sends the result (outcome, amount, the operator's notice) to the customer's
 * e-mail login identifier; in sandbox the outbox holds it and the OTP reader skips it. PGlite, or
 * PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, jobs, loginIdentifiers, otpOutbox } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

/** A customer with an e-mail login (and `language`, when given) and a card-funded transfer with an open claim. */
async function claimOf(language?: "en" | "fr" | "es", withEmail = true) {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession, lockFundingSession, completeFunding } = await import("@/lib/payments/transfers/funding");
  const { reportClaim } = await import("@/lib/payments/claims/claims");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const owner: Owner = await newSubscription(db);
  const now = clock.now();
  if (language) await db.update(customers).set({ preferredLanguage: language }).where(eq(customers.id, owner.customerId));
  const email = `${newId("eva")}@example.com`.toLowerCase();
  if (withEmail) {
    const login = { id: newId("lid"), partnerId: owner.partnerId, subscriptionId: owner.subscriptionId, type: "EMAIL" as const, value: email };
    await db.insert(loginIdentifiers).values({ ...login, verifiedAt: now, createdAt: now });
  }
  const t = await registeredTransfer(db, owner);
  await db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, t.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now);
    const { fundingSessionId } = await openFundingSession(tx, funding, now);
    await completeFunding(tx, { ...(await lockFundingSession(tx, fundingSessionId))!, outcome: "SUCCEEDED", method: "CARD", now });
  });
  const claim = await inUnit(
    ({ tx }) => reportClaim(tx, { subscriptionId: owner.subscriptionId, transferId: t.id, type: "WRONG_AMOUNT", description: "Less arrived", now }),
    { db },
  );
  return { owner, email, transferId: t.id, claimId: claim.claimId };
}

async function resolve(claimId: string, outcome: "REFUND" | "NO_ERROR", amount?: string) {
  const { resolveClaim } = await import("@/lib/payments/claims/claims");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const notice = "Le bénéficiaire a reçu 1 875,00 MXN ; l’écart vient du taux <affiché>.";
  return inUnit(({ tx }) => resolveClaim(tx, { claimId, outcome, amount, notice, operatorEmail: "ops@example.com", now: clock.now() }), { db });
}

const queued = (claimId: string) =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, "claims.emailResolution"), sql`${jobs.payload}->>'claimId' = ${claimId}`));

async function runJob(claimId: string) {
  const { emailClaimResolution } = await import("@/lib/payments/claims/resolution-email-job");
  await emailClaimResolution.perform!(db, { payload: { claimId }, jobId: newId("job"), attempt: 1, now: clock.now(), signal: new AbortController().signal });
}

const outbox = (email: string) => db.select().from(otpOutbox).where(eq(otpOutbox.identifier, email));

test("resolving a claim queues its e-mail with the resolution; the job sends the result in the customer's language (French)", async () => {
  const { owner, email, transferId, claimId } = await claimOf("fr");
  assert.equal((await queued(claimId)).length, 0, "nothing before the resolution");
  await resolve(claimId, "REFUND", "25.50");
  assert.equal((await queued(claimId)).length, 1, "written with the resolution, by the unit of work");

  await runJob(claimId);
  const [sent] = await outbox(email);
  assert.equal(sent.purpose, "CLAIM_RESOLUTION");
  assert.equal(sent.partnerId, owner.partnerId);
  const lines = sent.message.split("\n");
  assert.equal(lines[0], "Votre réclamation a été traitée");
  assert.ok(lines.includes(`Réclamation: ${claimId}`), sent.message);
  assert.ok(lines.includes(`Transfert: ${transferId}`));
  assert.ok(lines.includes("Vous avez signalé: Un montant erroné"));
  assert.ok(lines.includes("Résultat: Nous vous remboursons."));
  assert.ok(lines.includes("Montant remboursé: 25,50\u00a0USD"), sent.message);
  assert.ok(lines.includes("Le bénéficiaire a reçu 1 875,00 MXN ; l’écart vient du taux <affiché>."), "the operator's notice as written");

  // The sandbox OTP reader still answers codes only.
  const { latestOtpMessage } = await import("@/lib/identity/auth/sandbox-outbox");
  await assert.rejects(latestOtpMessage(db, owner.partnerId, email), /No message was sent/);
});

test("English by default, NO_ERROR without an amount; the HTML escapes the notice", async () => {
  const { email, claimId } = await claimOf();
  await resolve(claimId, "NO_ERROR");
  await runJob(claimId);
  const [sent] = await outbox(email);
  assert.match(sent.message, /^Your claim has been resolved\n/);
  assert.match(sent.message, /\nResult: We found no error\.\n/);
  assert.doesNotMatch(sent.message, /Amount refunded/);
  const { claimResolutionMessage } = await import("@/lib/platform/i18n/claim-messages");
  const html = claimResolutionMessage(
    { claimId, transferId: "trf_x", type: "LATE", outcome: "RESEND", resolutionAmount: null, resolutionCurrency: null, notice: "<b>late</b>" },
    "es",
  ).html;
  assert.match(html, /Enviamos el dinero de nuevo\./);
  assert.match(html, /&#60;b&#62;late&#60;\/b&#62;/);
});

test("no e-mail login identifier, or a claim not resolved: nothing is sent", async () => {
  const phoneOnly = await claimOf("es", false);
  await resolve(phoneOnly.claimId, "NO_ERROR");
  await runJob(phoneOnly.claimId);
  assert.deepEqual(await outbox(phoneOnly.email), []);
  const open = await claimOf("es");
  await runJob(open.claimId);
  assert.deepEqual(await outbox(open.email), []);
});
