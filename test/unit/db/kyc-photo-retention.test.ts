/**
 * Retention of identity images (lib/identity/kyc/photo-retention.ts, run by the hourly
 * maintenance.purge job): counted from the session's close, selfies go after 30 days, the pictures
 * of a session nobody decided after 30 days, the document pictures of a decided session after
 * five years; a session still waiting for a decision keeps everything.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { kycPhotos } from "@/db/schema";
import rules from "@/data/kyc/verification.json";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { customerFor, submitDocument } from "../../support/kyc-verification";
import { syntheticPerson } from "../../../scripts/kyc/synthetic-document";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(async () => close());

const DAY = 86_400_000;
const picture = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);

async function kinds(kycSessionId: string) {
  const rows = await db.select({ kind: kycPhotos.kind }).from(kycPhotos).where(eq(kycPhotos.kycSessionId, kycSessionId));
  return rows.map((r) => r.kind).sort();
}

async function purgeAt(now: Date) {
  const { purgeJob } = await import("@/lib/operations/runtime/purge-job");
  await db.transaction((tx) => purgeJob.run!(tx, { payload: {}, jobId: "job_test", attempt: 1, now, signal: new AbortController().signal }));
}

/** A session with its four pictures, submitted; decided (approved) at `decidedAt` unless null. */
async function sessionWithPictures(n: number, decidedAt: Date | null) {
  const p = syntheticPerson(n, clock.now());
  const owner = await customerFor(db, p);
  const s = await submitDocument(db, owner, p, { document: picture, documentBack: picture, selfie: picture, selfieTurn: picture }, "ID_CARD");
  if (decidedAt) {
    const { lockKycSession, completeKycSession } = await import("@/lib/identity/kyc/outcome");
    await db.transaction(async (tx) => {
      const session = await lockKycSession(tx, s.kycSessionId);
      await completeKycSession(tx, { session: session!, outcome: "APPROVED", now: decidedAt });
    });
  }
  return s.kycSessionId;
}

describe("retention of identity images", () => {
  test("a decided session: selfies purged after the selfie period, the document pictures after the document period", async () => {
    const decidedAt = clock.now();
    const id = await sessionWithPictures(21, decidedAt);
    const all = ["DOCUMENT", "DOCUMENT_BACK", "SELFIE", "SELFIE_TURN"];
    await purgeAt(new Date(decidedAt.getTime() + (rules.retention.selfieDays - 1) * DAY));
    assert.deepEqual(await kinds(id), all, "kept within the period");
    await purgeAt(new Date(decidedAt.getTime() + (rules.retention.selfieDays + 1) * DAY));
    assert.deepEqual(await kinds(id), ["DOCUMENT", "DOCUMENT_BACK"]);
    await purgeAt(new Date(decidedAt.getTime() + (rules.retention.documentDays - 1) * DAY));
    assert.deepEqual(await kinds(id), ["DOCUMENT", "DOCUMENT_BACK"]);
    await purgeAt(new Date(decidedAt.getTime() + (rules.retention.documentDays + 1) * DAY));
    assert.deepEqual(await kinds(id), []);
  });

  test("an expired session nobody decided: every picture purged after the undecided period", async () => {
    const p = syntheticPerson(22, clock.now());
    const owner = await customerFor(db, p);
    const { createKycSession } = await import("@/lib/identity/kyc/sessions");
    const { openKycWebview, storeKycPhoto } = await import("@/lib/identity/kyc/webview");
    const { expireKycSession } = await import("@/lib/identity/kyc/expire-job");
    const s = await db.transaction((tx) =>
      createKycSession(tx, { customerId: owner.customerId, subscriptionId: owner.subscriptionId, partner: owner.partner, language: "en", now: clock.now() }),
    );
    const token = new URL(s.webviewUrl).pathname.split("/").pop()!;
    await db.transaction((tx) => openKycWebview(tx, token, clock.now()));
    await db.transaction((tx) => storeKycPhoto(tx, token, { kind: "DOCUMENT", contentType: "image/jpeg", bytes: picture }, clock.now()));
    const expiredAt = new Date(clock.now().getTime() + 2 * DAY);
    await db.transaction((tx) =>
      expireKycSession.run!(tx, {
        payload: { kycSessionId: s.kycSessionId },
        jobId: "job_test",
        attempt: 1,
        now: expiredAt,
        signal: new AbortController().signal,
      }),
    );
    await purgeAt(new Date(expiredAt.getTime() + (rules.retention.undecidedDays - 1) * DAY));
    assert.deepEqual(await kinds(s.kycSessionId), ["DOCUMENT"]);
    await purgeAt(new Date(expiredAt.getTime() + (rules.retention.undecidedDays + 1) * DAY));
    assert.deepEqual(await kinds(s.kycSessionId), []);
  });

  test("a submitted session waiting for a person keeps its pictures however old", async () => {
    const id = await sessionWithPictures(23, null);
    await purgeAt(new Date(clock.now().getTime() + (rules.retention.documentDays + 10) * DAY));
    assert.deepEqual(await kinds(id), ["DOCUMENT", "DOCUMENT_BACK", "SELFIE", "SELFIE_TURN"]);
  });
});
