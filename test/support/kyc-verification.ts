import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, kycSessions, partners, subscriptions } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { SyntheticPerson } from "../../scripts/kyc/synthetic-document";

/**
 * The set-up of the KYC verification tests: a customer whose profile is a synthetic person, a
 * session through the hosted page's steps (pictures uploaded, fields submitted), and the
 * kyc.verify job run as the worker runs it.
 */
export async function customerFor(db: Db, p: SyntheticPerson, profile: Partial<SyntheticPerson> = {}) {
  const now = clock.now();
  const partnerId = newId("partner_test");
  const customerId = newId("cus");
  const subscriptionId = newId("sub");
  await db.insert(partners).values({ id: partnerId, name: `Test ${partnerId}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
  const q = { ...p, ...profile };
  await db.insert(customers).values({
    id: customerId,
    status: "PENDING",
    kycStatus: "NOT_STARTED",
    profile: { firstName: q.firstName, lastName: q.lastName, dateOfBirth: q.dateOfBirth, nationality: q.nationality },
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
  const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId));
  return { partner, customerId, subscriptionId };
}

export async function submitDocument(
  db: Db,
  owner: Awaited<ReturnType<typeof customerFor>>,
  p: SyntheticPerson,
  pictures: { document: Buffer; documentBack?: Buffer; selfie?: Buffer; selfieTurn?: Buffer },
  documentType: "PASSPORT" | "ID_CARD" = "PASSPORT",
) {
  const { createKycSession } = await import("@/lib/identity/kyc/sessions");
  const { openKycWebview, storeKycPhoto, captureKycDocuments } = await import("@/lib/identity/kyc/webview");
  const s = await db.transaction((tx) =>
    createKycSession(tx, { customerId: owner.customerId, subscriptionId: owner.subscriptionId, partner: owner.partner, language: "en", now: clock.now() }),
  );
  const token = new URL(s.webviewUrl).pathname.split("/").pop()!;
  await db.transaction((tx) => openKycWebview(tx, token, clock.now()));
  const put = (kind: "DOCUMENT" | "DOCUMENT_BACK" | "SELFIE" | "SELFIE_TURN", bytes: Buffer) =>
    db.transaction((tx) => storeKycPhoto(tx, token, { kind, contentType: "image/jpeg", bytes }, clock.now()));
  await put("DOCUMENT", pictures.document);
  if (pictures.documentBack) await put("DOCUMENT_BACK", pictures.documentBack);
  if (pictures.selfie) await put("SELFIE", pictures.selfie);
  if (pictures.selfieTurn) await put("SELFIE_TURN", pictures.selfieTurn);
  const capture = {
    documentType,
    documentNumber: p.documentNumber,
    issuingCountry: p.issuingCountry,
    expiryDate: p.expiryDate,
    photo: { size: pictures.document.length, type: "image/jpeg" },
  } as const;
  await db.transaction((tx) => captureKycDocuments(tx, token, capture, clock.now()));
  return { kycSessionId: s.kycSessionId, token };
}

/** Runs the kyc.verify job of a session as the worker does (perform: outside any transaction). */
export async function runVerifyJob(db: Db, kycSessionId: string) {
  const { verifyKycSession } = await import("@/lib/identity/kyc/verification/service");
  await verifyKycSession.perform!(db, { payload: { kycSessionId }, jobId: "job_test", attempt: 1, now: clock.now(), signal: AbortSignal.timeout(60_000) });
  const [session] = await db.select().from(kycSessions).where(eq(kycSessions.id, kycSessionId));
  return session;
}
