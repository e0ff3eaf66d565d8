import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { customers, kycPhotos, kycSessions } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { defineJob } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf, inUnit } from "@/lib/platform/unit-of-work";
import { isEvidence } from "../capture";
import { completeKycSession, lockKycSession } from "../outcome";
import type { KycPhotoKind } from "../photo-kinds";
import type { KycProfileFacts } from "./document-checks";
import { onfidoApi, onfidoSignatureValid, onfidoWebhookCheckId } from "./onfido";
import { kycVerifier, kycVerifierFor, outcomeOf, recordOfVendorCheck, type VerificationPhotos } from "./provider";
import type { KycVerificationRecord } from "./record";
import { timed } from "./stage-timing";

/**
 * The machine's part of a KYC session: at submission the session is marked PENDING and the
 * kyc.verify job queued (same transaction); the job reads the pictures, runs the verifier outside
 * any transaction (OCR takes a second of CPU, a vendor is a network call), then records the result
 * in a short transaction: approved (through completeKycSession, the operators' path) or sent to
 * the review queue with its reasons. A vendor's verdict comes later through its signed webhook.
 */

/** In the capture's transaction: the session waits for the machine, not yet for a person. */
export async function queueVerification(tx: Tx, kycSessionId: string, provider: string, now: Date): Promise<void> {
  const record: KycVerificationRecord = { status: "PENDING", provider, startedAt: now.toISOString() };
  await tx.update(kycSessions).set({ verification: record }).where(eq(kycSessions.id, kycSessionId));
  // Few attempts: a verification that keeps failing goes to a person (onDead), not into a loop.
  await effectsOf(tx).jobs.schedule("kyc.verify", { kycSessionId }, { runAt: now, maxAttempts: 3, dedupeKey: dedupeKey("kyc.verify", kycSessionId) });
}

async function photosOf(db: Db, kycSessionId: string): Promise<VerificationPhotos> {
  const rows = await db
    .select({ kind: kycPhotos.kind, bytes: kycPhotos.bytes, contentType: kycPhotos.contentType })
    .from(kycPhotos)
    .where(eq(kycPhotos.kycSessionId, kycSessionId));
  const of = (kind: KycPhotoKind) => {
    const row = rows.find((r) => r.kind === kind);
    return row ? { bytes: row.bytes, contentType: row.contentType } : null;
  };
  return { document: of("DOCUMENT"), documentBack: of("DOCUMENT_BACK"), selfie: of("SELFIE"), selfieTurn: of("SELFIE_TURN") };
}

/**
 * Records a verifier's result on a session still waiting for it (a late or repeated result changes
 * nothing): APPROVED completes the session as an operator's approval would; REVIEW leaves it
 * submitted, now in the review queue.
 */
export async function settleVerification(tx: Tx, kycSessionId: string, record: KycVerificationRecord, now: Date) {
  const session = await lockKycSession(tx, kycSessionId);
  if (!session || session.state !== "IN_PROGRESS" || session.verification?.status !== "PENDING") return null;
  await tx.update(kycSessions).set({ verification: record }).where(eq(kycSessions.id, session.id));
  const outcome = outcomeOf(record);
  if (!outcome) return { kycSessionId, status: record.status };
  await tx
    .update(kycSessions)
    .set({ decisionReason: `Verified by ${record.provider}: every check passed.` })
    .where(eq(kycSessions.id, session.id));
  await completeKycSession(tx, { session: { ...session, verification: record }, outcome, now });
  return { kycSessionId, status: record.status };
}

export const verifyKycSession = defineJob({
  kind: "kyc.verify",
  schema: z.object({ kycSessionId: z.string() }),
  backoff: (failures) => 15 * failures,
  perform: async (db, { payload, now, signal }) => {
    const [row] = await timed("db.read", () =>
      db
        .select({ session: kycSessions, profile: customers.profile })
        .from(kycSessions)
        .innerJoin(customers, eq(customers.id, kycSessions.customerId))
        .where(eq(kycSessions.id, payload.kycSessionId)),
    );
    const session = row?.session;
    if (!session?.capture || isEvidence(session.capture) || session.verification?.status !== "PENDING") return;
    const verifier = kycVerifierFor(session.verification.provider, config().sandbox);
    const started = await verifier.start({
      kycSessionId: session.id,
      capture: session.capture,
      profile: row.profile as unknown as KycProfileFacts,
      photos: await timed("db.read", () => photosOf(db, session.id)),
      now,
      signal,
    });
    if (started.kind === "verdict") {
      await timed("db.settle", () => inUnit(({ tx }) => settleVerification(tx, session.id, started.record, now), { db, now }));
      return;
    }
    // Still PENDING: the record keeps the vendor's check id, by which its webhook finds the session.
    await inUnit(
      async ({ tx }) => {
        await tx.update(kycSessions).set({ verification: started.record, vendorCheckId: started.vendorCheckId }).where(eq(kycSessions.id, session.id));
      },
      { db, now },
    );
    if (started.simulatedWebhook) await receiveOnfidoWebhook(db, started.simulatedWebhook.body, started.simulatedWebhook.signature, now);
  },
  // The machine could not finish (OCR crashed, the vendor kept failing): a person decides.
  onDead: async (db, { payload, now }, error) => {
    await inUnit(
      async ({ tx }) => {
        const [session] = await tx.select().from(kycSessions).where(eq(kycSessions.id, payload.kycSessionId));
        if (!session?.verification) return;
        const record: KycVerificationRecord = {
          ...session.verification,
          status: "REVIEW",
          finishedAt: now.toISOString(),
          reasons: [`verification failed: ${error.slice(0, 200)}`],
        };
        await settleVerification(tx, session.id, record, now);
      },
      { db, now },
    );
  },
});

/**
 * POST /v1/kyc-vendor/onfido/webhook: Onfido's check.completed, signed with the webhook token. A
 * forged or altered body is refused (401) before anything is read; the check's result is fetched
 * from Onfido outside any transaction, then recorded on the session that started it.
 */
export async function receiveOnfidoWebhook(db: Db, rawBody: string, signature: string | null, now: Date) {
  const verifier = kycVerifier();
  const token = config().ONFIDO_WEBHOOK_TOKEN;
  if ((verifier.name !== "onfido" && verifier.name !== "onfido-sandbox") || !token) throw new DomainError("route.notFound", { message: "No such route." });
  if (!onfidoSignatureValid(rawBody, signature, token)) throw new DomainError("auth.tokenInvalid", { message: "The webhook signature does not match." });
  const checkId = onfidoWebhookCheckId(rawBody);
  if (!checkId) return { accepted: true, recorded: false };
  const [session] = await db
    .select({ id: kycSessions.id, verification: kycSessions.verification })
    .from(kycSessions)
    .where(eq(kycSessions.vendorCheckId, checkId));
  if (!session?.verification || session.verification.status !== "PENDING") return { accepted: true, recorded: false };
  const check = await onfidoApi(verifier.name).readCheck(checkId);
  const record = recordOfVendorCheck(session.verification, check, now);
  const settled = await inUnit(({ tx }) => settleVerification(tx, session.id, record, now), { db, now });
  return { accepted: true, recorded: settled !== null };
}
