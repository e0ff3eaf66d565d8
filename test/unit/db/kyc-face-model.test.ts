/**
 * Automatic KYC with the on-device face model (KYC_FACE_MATCHER=face-api, production's matcher)
 * on a real database: a synthetic passport whose portrait is a photograph of a person
 * (scripts/kyc/face-pairs.ts) and that person's selfie is approved without a person; the same
 * passport with somebody else's selfie, and with the first selfie sent twice (no head turn), go
 * to the operator with the face's reason. The model is loaded once for the file.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Db } from "@/db";
import { freshDb } from "../../support/db";
import { customerFor, runVerifyJob, submitDocument } from "../../support/kyc-verification";
import { documentOf, selfieMirrored, selfieOf } from "../../../scripts/kyc/face-pairs";

process.env.KYC_DECISION_PROVIDER = "automatic"; // before anything reads the configuration
process.env.KYC_FACE_MATCHER = "face-api";

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

/** Two people of different photographs (face-pairs.ts), each found by the detector on the document and in the selfie. */
const PERSON = 0;
const SOMEONE_ELSE = 8;

async function verify(selfies: { selfie: Buffer; selfieTurn: Buffer }) {
  const { document, person } = await documentOf(PERSON, 0);
  const owner = await customerFor(db, person);
  const s = await submitDocument(db, owner, person, { document, ...selfies });
  return runVerifyJob(db, s.kycSessionId);
}

const failed = (session: { verification: { checks?: { check: string; passed: boolean }[] } | null }) =>
  (session.verification?.checks ?? []).filter((c) => !c.passed).map((c) => c.check);

describe("automatic KYC verification with the face model", () => {
  test("the document's person in the selfie, head turned in the second: approved without a person", async () => {
    const selfie = await selfieOf(PERSON, 0);
    const session = await verify({ selfie, selfieTurn: await selfieMirrored(selfie) });
    assert.equal(session.verification?.status, "APPROVED", JSON.stringify(session.verification?.reasons));
    assert.equal(session.outcome, "APPROVED");
    const face = session.verification?.face;
    assert.ok(face?.ran && face.matcher === "face-api", JSON.stringify(face));
    assert.ok((face.score ?? 0) >= (face.threshold ?? 1) && face.liveness?.passed, JSON.stringify(face));
  });

  test("somebody else's selfie: to the operator, reason faceMatch", async () => {
    const selfie = await selfieOf(SOMEONE_ELSE, 0);
    const session = await verify({ selfie, selfieTurn: await selfieMirrored(selfie) });
    assert.equal(session.verification?.status, "REVIEW");
    assert.ok(failed(session).includes("faceMatch"), JSON.stringify(session.verification?.checks));
    const face = session.verification?.face;
    assert.ok(face?.ran && (face.score ?? 1) < (face.threshold ?? 0), JSON.stringify(face));
  });

  test("the same selfie sent twice (no head turn): to the operator, reason liveness", async () => {
    const selfie = await selfieOf(PERSON, 0);
    const session = await verify({ selfie, selfieTurn: selfie });
    assert.equal(session.verification?.status, "REVIEW");
    assert.deepEqual(failed(session), ["liveness"]);
  });
});
