/**
 * Automatic KYC (KYC_DECISION_PROVIDER=automatic) on a real database (PGlite, or PostgreSQL with
 * TEST_DB_URL): synthetic passports read by tesseract.js from the npm traineddata, checked against
 * the profile, the faces compared by the sandbox matcher. A clean passport with its selfies is
 * approved without a person; a date of birth that differs, an expired passport and a spoiled
 * check digit each go to the review queue with the reason. A small fixed sample: the 200-image
 * run is scripts/kyc/quality.ts (docs/kyc-quality.md).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { customers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { customerFor, runVerifyJob, submitDocument } from "../../support/kyc-verification";
import { syntheticIdCard, syntheticPassport, syntheticPerson, type SyntheticPerson } from "../../../scripts/kyc/synthetic-document";

process.env.KYC_DECISION_PROVIDER = "automatic"; // before anything reads the configuration
process.env.KYC_FACE_MATCHER = "sandbox-fingerprint";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(async () => {
  const { stopMrzReader } = await import("@/lib/identity/kyc/verification/mrz-read");
  await stopMrzReader();
  await close();
});

const CLEAN = { blur: 0.6, angle: 0, quality: 80 }; // the sandbox face matcher needs the page straight

async function verify(p: SyntheticPerson, opts: { profile?: Partial<SyntheticPerson>; breakDigit?: boolean; selfies?: boolean; seed?: number } = {}) {
  const owner = await customerFor(db, p, opts.profile);
  const doc = await syntheticPassport(p, CLEAN, { seed: opts.seed ?? 7, breakDigit: opts.breakDigit });
  const s = await submitDocument(db, owner, p, opts.selfies === false ? { document: doc.document } : doc);
  const { kycReviewQueue } = await import("@/lib/identity/kyc/review");
  const queuedBefore = (await kycReviewQueue(db, 1)).items.some((i) => i.session.id === s.kycSessionId);
  assert.equal(queuedBefore, false, "not a person's while the machine verifies");
  const session = await runVerifyJob(db, s.kycSessionId);
  const queued = (await kycReviewQueue(db, 1)).items.find((i) => i.session.id === s.kycSessionId);
  const [customer] = await db.select().from(customers).where(eq(customers.id, owner.customerId));
  return { session, queued, customer };
}

/** An identity card, front (portrait) and back (the three-line zone). */
async function verifyIdCard(p: SyntheticPerson, opts: { breakDigit?: boolean } = {}) {
  const owner = await customerFor(db, p);
  const card = await syntheticIdCard(p, CLEAN, { seed: 11, breakDigit: opts.breakDigit });
  const s = await submitDocument(db, owner, p, card, "ID_CARD");
  return runVerifyJob(db, s.kycSessionId);
}

const failed = (session: { verification: { checks?: { check: string; passed: boolean }[] } | null }) =>
  (session.verification?.checks ?? []).filter((c) => !c.passed).map((c) => c.check);

describe("automatic KYC verification", () => {
  test("a clean passport and matching selfies: approved without a person, every check recorded", async () => {
    const p = syntheticPerson(4, clock.now());
    const { session, queued, customer } = await verify(p);
    assert.equal(session.verification?.status, "APPROVED", JSON.stringify(session.verification?.reasons));
    assert.equal(session.state, "COMPLETED");
    assert.equal(session.outcome, "APPROVED");
    assert.equal(queued, undefined);
    assert.equal(customer.kycStatus, "COMPLETED");
    assert.equal(customer.status, "VALID");
    const checks = session.verification?.checks?.map((c) => c.check) ?? [];
    for (const c of ["mrzRead", "checkDigits", "documentType", "expiry", "name", "dateOfBirth", "age", "faceMatch", "liveness"])
      assert.ok(checks.includes(c), c);
    assert.equal(session.verification?.extracted?.documentNumber, p.documentNumber);
    assert.ok((session.verification?.face?.score ?? 0) >= 0.9);
  });

  test("a date of birth that differs from the profile: to the operator, reason dateOfBirth", async () => {
    const p = syntheticPerson(5, clock.now());
    const { session, queued, customer } = await verify(p, { profile: { dateOfBirth: "1988-01-15" } });
    assert.equal(session.verification?.status, "REVIEW");
    assert.deepEqual(failed(session), ["dateOfBirth"]);
    assert.ok(session.verification?.reasons?.some((r) => r.startsWith("dateOfBirth:") && r.includes("1988-01-15")));
    assert.ok(queued, "in the review queue");
    assert.equal(customer.kycStatus, "IN_PROGRESS");
  });

  test("an expired passport: to the operator, reason expiry", async () => {
    const p = { ...syntheticPerson(6, clock.now()), expiryDate: "2021-03-14" };
    const { session, queued } = await verify(p);
    assert.equal(session.verification?.status, "REVIEW");
    assert.deepEqual(failed(session), ["expiry"]);
    assert.ok(session.verification?.reasons?.some((r) => r.includes("expired on 2021-03-14")));
    assert.ok(queued);
  });

  test("a wrong check digit: to the operator, reason checkDigits", async () => {
    const p = syntheticPerson(8, clock.now());
    const { session, queued } = await verify(p, { breakDigit: true });
    assert.equal(session.verification?.status, "REVIEW");
    assert.ok(failed(session).includes("checkDigits"), JSON.stringify(session.verification?.checks));
    assert.ok(session.verification?.reasons?.some((r) => r.startsWith("checkDigits:") && r.includes("documentNumber")));
    assert.ok(queued);
  });

  test("no selfie: the face is not compared, and the session goes to a person, never approved", async () => {
    const p = syntheticPerson(9, clock.now());
    const { session, queued } = await verify(p, { selfies: false });
    assert.equal(session.verification?.status, "REVIEW");
    assert.deepEqual(failed(session), ["faceMatch"]);
    assert.ok(queued);
  });

  test("a clean identity card (front, and back with its three-line zone) and matching selfies: approved without a person", async () => {
    const p = { ...syntheticPerson(2, clock.now()), issuingCountry: "DEU", nationality: "DEU" };
    const session = await verifyIdCard(p);
    assert.equal(session.verification?.status, "APPROVED", JSON.stringify(session.verification?.reasons));
    assert.equal(session.outcome, "APPROVED");
    assert.equal(session.verification?.extracted?.documentType, "ID_CARD");
    assert.equal(session.verification?.extracted?.documentNumber, p.documentNumber);
    assert.equal(session.verification?.extracted?.dateOfBirth, p.dateOfBirth);
  });

  test("an identity card with a wrong check digit: to the operator, reason checkDigits", async () => {
    const p = { ...syntheticPerson(14, clock.now()), issuingCountry: "FRA", nationality: "FRA" };
    const session = await verifyIdCard(p, { breakDigit: true });
    assert.equal(session.verification?.status, "REVIEW");
    assert.ok(failed(session).includes("checkDigits"), JSON.stringify(session.verification?.checks));
  });
});
