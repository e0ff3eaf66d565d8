/**
 * The vendor adapter (KYC_DECISION_PROVIDER=onfido-sandbox: Onfido's API simulated in-process) on a
 * real database: the capture creates an applicant, uploads, creates a check; the result arrives by
 * the HMAC-signed webhook, which is verified: clear approves, consider goes to a person, and a
 * forged or altered webhook is refused without changing anything.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { kycSessions } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { customerFor, runVerifyJob, submitDocument } from "../../support/kyc-verification";
import { syntheticPerson } from "../../../scripts/kyc/synthetic-document";

process.env.KYC_DECISION_PROVIDER = "onfido-sandbox"; // before anything reads the configuration
process.env.ONFIDO_WEBHOOK_TOKEN = "whtok_test_0123456789";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(async () => {
  await close();
});

const PICTURE = Buffer.from("/9j/4AAQSkZJRgABAQ", "base64");

describe("Onfido-shaped vendor adapter", () => {
  test("a clear check: the signed webhook approves the session", async () => {
    const p = syntheticPerson(11, clock.now());
    const owner = await customerFor(db, p);
    const s = await submitDocument(db, owner, p, { document: PICTURE, selfie: PICTURE });
    const session = await runVerifyJob(db, s.kycSessionId);
    assert.equal(session.verification?.status, "APPROVED");
    assert.equal(session.verification?.vendor?.result, "clear");
    assert.ok(session.vendorCheckId);
    assert.equal(session.state, "COMPLETED");
  });

  test("a consider check goes to a person with the reports that were not clear", async () => {
    const p = { ...syntheticPerson(12, clock.now()), lastName: "Consider" };
    const owner = await customerFor(db, p);
    const s = await submitDocument(db, owner, p, { document: PICTURE, selfie: PICTURE });
    const session = await runVerifyJob(db, s.kycSessionId);
    assert.equal(session.verification?.status, "REVIEW");
    assert.deepEqual(session.verification?.reasons, ["document: consider", "facial_similarity_photo: consider"]);
    const { kycReviewQueue } = await import("@/lib/identity/kyc/review");
    assert.ok((await kycReviewQueue(db, 1)).items.some((i) => i.session.id === s.kycSessionId));
  });

  test("the webhook's signature is verified: a forged or altered one is refused (401) and changes nothing", async () => {
    const { receiveOnfidoWebhook } = await import("@/lib/identity/kyc/verification/service");
    const { onfidoCompletedBody, onfidoSignature, simulatedOnfido } = await import("@/lib/identity/kyc/verification/onfido");
    const p = syntheticPerson(13, clock.now());
    const owner = await customerFor(db, p);
    const s = await submitDocument(db, owner, p, { document: PICTURE });
    // A check the session is waiting for (as the job leaves it for the real vendor).
    const applicant = await simulatedOnfido.createApplicant({ first_name: p.firstName, last_name: p.lastName, dob: p.dateOfBirth });
    await simulatedOnfido.uploadDocument(applicant.id, {
      bytes: PICTURE,
      contentType: "image/jpeg",
      type: "passport",
      side: "front",
      issuingCountry: p.issuingCountry,
    });
    const check = await simulatedOnfido.createCheck(applicant.id, []);
    await db.update(kycSessions).set({ vendorCheckId: check.id }).where(eq(kycSessions.id, s.kycSessionId));
    const body = onfidoCompletedBody(check.id, clock.now(), "https://onfido-sandbox.invalid");
    const refused = (e: Error & { code?: string; status?: number }) => e.code === "auth.tokenInvalid";
    await assert.rejects(receiveOnfidoWebhook(db, body, onfidoSignature(body, "not-the-token-at-all"), clock.now()), refused);
    await assert.rejects(
      receiveOnfidoWebhook(db, body.replace("check.completed", "check.completed "), onfidoSignature(body, "whtok_test_0123456789"), clock.now()),
      refused,
    );
    await assert.rejects(receiveOnfidoWebhook(db, body, null, clock.now()), refused);
    const [still] = await db.select().from(kycSessions).where(eq(kycSessions.id, s.kycSessionId));
    assert.equal(still.verification?.status, "PENDING");
    assert.equal(still.state, "IN_PROGRESS");
    const accepted = await receiveOnfidoWebhook(db, body, onfidoSignature(body, "whtok_test_0123456789"), clock.now());
    assert.deepEqual(accepted, { accepted: true, recorded: true });
    const [done] = await db.select().from(kycSessions).where(eq(kycSessions.id, s.kycSessionId));
    assert.equal(done.verification?.status, "APPROVED");
    assert.equal(done.outcome, "APPROVED");
  });
});
