/**
 * KYC decided by operators, at the domain level on a real database (PGlite, or
 * PostgreSQL with TEST_DB_URL): a captured session waits in the console's review queue with its
 * photo; approval, correction and refusal go through completeKycSession, write the audit row and
 * emit customer.status.changed in one transaction; a second decision is refused; the reason of a
 * correction reaches the next capture.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { auditLog, customers, events, kycSessions, operators, partners, subscriptions } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";

process.env.KYC_DECISION_PROVIDER = "operator"; // before anything reads the configuration

let db: Db;
let close: () => Promise<void>;
let reviewer: Operator;
let other: Operator;

const kyc = () => import("@/lib/identity/kyc/webview");
const review = () => import("@/lib/identity/kyc/review");
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const CAPTURE = {
  documentType: "PASSPORT",
  documentNumber: "P9876543",
  issuingCountry: "FRA",
  expiryDate: "2031-05-31",
  photo: { size: PNG.length, type: "image/png" },
} as const;

async function newOperator(email: string): Promise<Operator> {
  const op = { id: newId("op"), email, name: email, role: "reviewer" as const };
  await db.insert(operators).values({ ...op, passwordHash: "x", createdAt: clock.now() });
  return op;
}

before(async () => {
  ({ db, close } = await freshDb());
  reviewer = await newOperator(`reviewer.${newId("x")}@example.com`);
  other = await newOperator(`other.${newId("x")}@example.com`);
});

after(async () => {
  await close();
});

/** A partner, a customer with a submitted profile (PENDING, KYC NOT_STARTED) and its subscription. */
async function newCustomer() {
  const now = clock.now();
  const partnerId = newId("partner_test");
  const customerId = newId("cus");
  const subscriptionId = newId("sub");
  await db.insert(partners).values({ id: partnerId, name: `Test ${partnerId}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
  await db.insert(customers).values({
    id: customerId,
    status: "PENDING",
    kycStatus: "NOT_STARTED",
    profile: { firstName: "Amina", lastName: "Diallo", dateOfBirth: "1990-04-02", nationality: "FRA" },
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
  const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId));
  return { partner, customerId, subscriptionId };
}

type Owner = Awaited<ReturnType<typeof newCustomer>>;

/** Starts a session as POST /kyc-sessions does and returns it with its webview token. */
async function startSession(owner: Owner) {
  const { createKycSession } = await import("@/lib/identity/kyc/sessions");
  const s = await db.transaction((tx) =>
    createKycSession(tx, { customerId: owner.customerId, subscriptionId: owner.subscriptionId, partner: owner.partner, language: "en", now: clock.now() }),
  );
  return { ...s, token: new URL(s.webviewUrl).pathname.split("/").pop()! };
}

/** Opens the hosted page, uploads the photo and submits the fields, as the page does in operator mode. */
async function submit(owner: Owner) {
  const { openKycWebview, storeKycPhoto, captureKycDocuments } = await kyc();
  const s = await startSession(owner);
  const model = await db.transaction((tx) => openKycWebview(tx, s.token, clock.now()));
  await db.transaction((tx) => storeKycPhoto(tx, s.token, { contentType: "image/png", bytes: PNG }, clock.now()));
  await db.transaction((tx) => captureKycDocuments(tx, s.token, CAPTURE, clock.now()));
  return { ...s, model };
}

/** A reviewer's decision through its command (kyc.review.decide), and where it left the session and the customer. */
const decide = async (operator: Operator, kycSessionId: string, decision: "APPROVE" | "CORRECTION" | "REFUSE", reason: string) => {
  const { execute } = await import("@/lib/operations/commands/run");
  const { decideKycSession } = await import("@/lib/operations/commands/customers");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const acted = await inUnit(({ tx, now }) => execute(tx, decideKycSession, { kycSessionId, decision, reason }, { operator, reason, now }), { db });
  assert.equal(acted.kind, "performed");
  const [row] = await db.select().from(kycSessions).where(eq(kycSessions.id, kycSessionId));
  const c = await customer(row.customerId);
  return { sessionState: row.state, outcome: row.outcome, customerStatus: c.status, kycStatus: c.kycStatus, tier: c.verificationTier };
};

const customer = async (id: string) => (await db.select().from(customers).where(eq(customers.id, id)))[0];
const statusEvents = async (subscriptionId: string) =>
  (
    await db
      .select()
      .from(events)
      .where(and(eq(events.subscriptionId, subscriptionId), eq(events.eventType, "customer.status.changed")))
  ).map((e) => (e.body as { data: { status: string; kycStatus: string } }).data);
const auditOf = (kycSessionId: string) => db.select().from(auditLog).where(eq(auditLog.targetId, kycSessionId));

describe("KYC review by operators", () => {
  test("a submitted capture waits in the queue with its fields and photo, and the sandbox outcome is refused", async () => {
    const owner = await newCustomer();
    const s = await submit(owner);
    const { kycReviewQueue, readKycPhoto } = await review();
    const queued = (await kycReviewQueue(db, 1)).items.find((i) => i.session.id === s.kycSessionId);
    assert.ok(queued, "the session is in the queue");
    assert.equal((queued.session.capture as { documentNumber?: string } | null)?.documentNumber, "P9876543"); // whole: the reviewer compares it with the photo
    assert.equal(queued.photoType, "image/png");
    assert.deepEqual((await readKycPhoto(db, s.kycSessionId))?.bytes, PNG);
    // The customer cannot submit twice nor decide with the sandbox buttons.
    const { captureKycDocuments, decideKycFromWebview } = await kyc();
    await assert.rejects(
      db.transaction((tx) => captureKycDocuments(tx, s.token, CAPTURE, clock.now())),
      (e: Error & { code?: string }) => e.code === "kyc.sessionStateInvalid",
    );
    await assert.rejects(
      db.transaction((tx) => decideKycFromWebview(tx, s.token, "APPROVED", clock.now())),
      (e: Error & { code?: string }) => e.code === "route.notFound",
    );
    assert.equal((await customer(owner.customerId)).status, "PENDING");
  });

  test("without the photo the capture is refused", async () => {
    const owner = await newCustomer();
    const s = await startSession(owner);
    const { captureKycDocuments } = await kyc();
    await assert.rejects(
      db.transaction((tx) => captureKycDocuments(tx, s.token, CAPTURE, clock.now())),
      (e: Error & { code?: string; details?: unknown }) =>
        e.code === "validation.fieldMissing" &&
        JSON.stringify(e.details) ===
          JSON.stringify({ issues: [{ field: "photo", code: "validation.fieldMissing", message: "Upload the document photo first." }] }),
    );
  });

  test("approval: VALID/COMPLETED, one audit row, the status event; a second operator sees 'already decided'", async () => {
    const owner = await newCustomer();
    const s = await submit(owner);
    const done = await decide(reviewer, s.kycSessionId, "APPROVE", "Passport matches the profile");
    assert.deepEqual([done.sessionState, done.outcome, done.customerStatus, done.kycStatus], ["COMPLETED", "APPROVED", "VALID", "COMPLETED"]);
    await assert.rejects(decide(other, s.kycSessionId, "REFUSE", "Looks forged"), /Already decided by someone else/);

    const c = await customer(owner.customerId);
    assert.deepEqual([c.status, c.kycStatus], ["VALID", "COMPLETED"]);
    const audit = await auditOf(s.kycSessionId);
    assert.equal(audit.length, 1);
    assert.deepEqual(
      [audit[0].action, audit[0].operatorEmail, audit[0].reason, audit[0].targetType],
      ["kyc.review.approve", reviewer.email, "Passport matches the profile", "kycSession"],
    );
    assert.deepEqual(audit[0].after, { sessionState: "COMPLETED", outcome: "APPROVED", status: "VALID", kycStatus: "COMPLETED", tier: 1 });
    assert.deepEqual(
      (await statusEvents(owner.subscriptionId)).map((e) => [e.status, e.kycStatus]),
      [
        ["PENDING", "IN_PROGRESS"],
        ["VALID", "COMPLETED"],
      ],
    );
    const { kycReviewQueue } = await review();
    assert.equal(
      (await kycReviewQueue(db, 1)).items.some((i) => i.session.id === s.kycSessionId),
      false,
    );
  });

  test("correction: RESTRICTED/REMEDIATION_REQUIRED, and the reason is shown on the next capture (RESUBMISSION)", async () => {
    const owner = await newCustomer();
    const first = await submit(owner);
    assert.equal(first.model.correctionReason, null);
    const reason = "The photo is blurred: take it again in daylight";
    const done = await decide(reviewer, first.kycSessionId, "CORRECTION", reason);
    assert.deepEqual([done.outcome, done.customerStatus, done.kycStatus], ["REMEDIATION_REQUIRED", "RESTRICTED", "REMEDIATION_REQUIRED"]);
    const events = await statusEvents(owner.subscriptionId);
    assert.deepEqual(
      events.map((e) => [e.status, e.kycStatus]),
      [
        ["PENDING", "IN_PROGRESS"],
        ["RESTRICTED", "REMEDIATION_REQUIRED"],
      ],
    );
    const audit = await auditOf(first.kycSessionId);
    assert.deepEqual(
      audit.map((a) => [a.action, a.reason]),
      [["kyc.review.correction", reason]],
    );

    // The next capture shows the reviewer's reason; once re-submitted it is approved.
    const second = await submit(owner);
    assert.equal(second.purpose, "RESUBMISSION");
    assert.equal(second.model.correctionReason, reason);
    const approved = await decide(other, second.kycSessionId, "APPROVE", "Clear photo now");
    assert.equal(approved.customerStatus, "VALID");
  });

  test("refusal: REJECTED/BLOCKED with its audit row and event", async () => {
    const owner = await newCustomer();
    const s = await submit(owner);
    const done = await decide(reviewer, s.kycSessionId, "REFUSE", "Document reported stolen");
    assert.deepEqual([done.outcome, done.customerStatus, done.kycStatus], ["REJECTED", "BLOCKED", "REJECTED"]);
    const c = await customer(owner.customerId);
    assert.deepEqual([c.status, c.kycStatus], ["BLOCKED", "REJECTED"]);
    assert.deepEqual((await statusEvents(owner.subscriptionId)).map((e) => [e.status, e.kycStatus]).at(-1), ["BLOCKED", "REJECTED"]);
    assert.deepEqual(
      (await auditOf(s.kycSessionId)).map((a) => [a.action, a.operatorId]),
      [["kyc.review.refuse", reviewer.id]],
    );
  });

  test("a submitted session waiting for review does not expire after its 24 hours", async () => {
    const owner = await newCustomer();
    const s = await submit(owner);
    const { expireKycSession } = await import("@/lib/identity/kyc/expire-job");
    const later = addSeconds(clock.now(), 25 * 3600);
    await db.transaction((tx) => expireKycSession.run!(tx, { payload: { kycSessionId: s.kycSessionId }, now: later } as never));
    const [row] = await db.select().from(kycSessions).where(eq(kycSessions.id, s.kycSessionId));
    assert.equal(row.state, "IN_PROGRESS");
    const { decideKycReview } = await review();
    const done = await db.transaction((tx) => decideKycReview(tx, { kycSessionId: s.kycSessionId, decision: "APPROVE", reason: "Late but fine" }, later));
    assert.equal(done.customerStatus, "VALID");
  });

  test("past its 24 hours, a submitted session's status page still gets a live URL", async () => {
    const owner = await newCustomer();
    const s = await submit(owner);
    const { createKycSession } = await import("@/lib/identity/kyc/sessions");
    const later = addSeconds(clock.now(), 25 * 3600);
    const again = await db.transaction((tx) =>
      createKycSession(tx, { customerId: owner.customerId, subscriptionId: owner.subscriptionId, partner: owner.partner, language: "en", now: later }),
    );
    assert.equal(again.kycSessionId, s.kycSessionId);
    assert.ok(new Date(again.expiresAt).getTime() > later.getTime(), `the webview URL expires at ${again.expiresAt}, before ${later.toISOString()}`);
  });

  test("step-up (issue 23): at tier 1 the next session is ENHANCED, takes source-of-funds evidence (not a document), and approval moves the customer to tier 2 with the event and the audit", async () => {
    const owner = await newCustomer();
    const first = await submit(owner);
    await decide(reviewer, first.kycSessionId, "APPROVE", "Passport matches the profile");
    const { openKycWebview, storeKycPhoto, captureKycDocuments } = await kyc();
    const s = await startSession(owner);
    assert.equal(s.purpose, "ENHANCED");
    const model = await db.transaction((tx) => openKycWebview(tx, s.token, clock.now()));
    assert.equal(model.purpose, "ENHANCED");
    await db.transaction((tx) => storeKycPhoto(tx, s.token, { contentType: "image/png", bytes: PNG }, clock.now()));
    await assert.rejects(
      db.transaction((tx) => captureKycDocuments(tx, s.token, CAPTURE, clock.now())),
      (e: { code?: string; details?: { issues?: { field: string }[] } }) =>
        e.code === "validation.fieldMissing" && e.details?.issues?.[0]?.field === "sourceOfFunds",
    );
    const evidence = {
      sourceOfFunds: "EMPLOYMENT",
      annualIncomeBand: "50K_100K",
      supportingDocumentType: "PAYSLIP",
      photo: { size: PNG.length, type: "image/png" },
    } as const;
    await db.transaction((tx) => captureKycDocuments(tx, s.token, evidence, clock.now()));
    const { kycReviewQueue } = await review();
    const queued = (await kycReviewQueue(db, 1)).items.find((i) => i.session.id === s.kycSessionId);
    assert.equal(queued?.session.purpose, "ENHANCED");
    assert.deepEqual({ ...queued?.session.capture, capturedAt: undefined }, { ...evidence, capturedAt: undefined });

    const done = await decide(reviewer, s.kycSessionId, "APPROVE", "Payslip supports the income");
    assert.deepEqual([done.outcome, done.customerStatus, done.kycStatus, done.tier], ["APPROVED", "VALID", "COMPLETED", 2]);
    assert.equal((await customer(owner.customerId)).verificationTier, 2);
    const last = (await statusEvents(owner.subscriptionId)).at(-1) as unknown as Record<string, unknown>;
    assert.deepEqual([last.status, last.kycStatus, last.tier, last.previousTier], ["VALID", "COMPLETED", 2, 1]);
    const audit = await auditOf(s.kycSessionId);
    assert.deepEqual([audit[0].action, (audit[0].before as { tier: number }).tier, (audit[0].after as { tier: number }).tier], ["kyc.review.approve", 1, 2]);
    // At the top tier there is nothing more to capture.
    await assert.rejects(startSession(owner), /top verification tier/);
  });

  test("step-up refused: the customer stays VALID, COMPLETED, tier 1, and may try again (ENHANCED)", async () => {
    const owner = await newCustomer();
    const first = await submit(owner);
    await decide(reviewer, first.kycSessionId, "APPROVE", "Passport matches the profile");
    const { openKycWebview, storeKycPhoto, captureKycDocuments } = await kyc();
    const s = await startSession(owner);
    await db.transaction((tx) => openKycWebview(tx, s.token, clock.now()));
    await db.transaction((tx) => storeKycPhoto(tx, s.token, { contentType: "image/png", bytes: PNG }, clock.now()));
    const evidence = {
      sourceOfFunds: "SAVINGS",
      annualIncomeBand: "UNDER_25K",
      supportingDocumentType: "BANK_STATEMENT",
      photo: { size: 1, type: "image/png" },
    } as const;
    await db.transaction((tx) => captureKycDocuments(tx, s.token, evidence, clock.now()));
    const done = await decide(reviewer, s.kycSessionId, "REFUSE", "Statement unreadable");
    assert.deepEqual([done.customerStatus, done.kycStatus, done.tier], ["VALID", "COMPLETED", 1]);
    assert.equal((await startSession(owner)).purpose, "ENHANCED");
  });
});
