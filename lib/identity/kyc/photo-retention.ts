import { and, eq, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Tx } from "@/db";
import { kycPhotos, kycSessions } from "@/db/schema";
import rules from "@/data/kyc/verification.json";

/**
 * Retention of identity images (docs/decisions.md, "Identity images are kept only as long as
 * needed"): counted from the session's close (decided or expired), the selfies go after
 * `retention.selfieDays` (biometric data: the face-match score and its result stay in the
 * session's verification record), the pictures of a session nobody decided (expired) after
 * `retention.undecidedDays`, and the document pictures of a decided session after
 * `retention.documentDays` (the record-keeping period of customer due diligence). An open or
 * submitted session keeps everything. Run by the hourly housekeeping job, a batch at a time.
 */
const BATCH = 500;
const DAY_MS = 86_400_000;

export async function purgeKycPhotos(tx: Tx, now: Date): Promise<number> {
  const { selfieDays, undecidedDays, documentDays } = rules.retention;
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const due = await tx
    .select({ kycSessionId: kycPhotos.kycSessionId, kind: kycPhotos.kind })
    .from(kycPhotos)
    .innerJoin(kycSessions, eq(kycSessions.id, kycPhotos.kycSessionId))
    .where(
      and(
        isNotNull(kycSessions.closedAt),
        or(
          and(inArray(kycPhotos.kind, ["SELFIE", "SELFIE_TURN"]), lt(kycSessions.closedAt, before(selfieDays))),
          and(isNull(kycSessions.outcome), lt(kycSessions.closedAt, before(undecidedDays))),
          lt(kycSessions.closedAt, before(documentDays)),
        ),
      ),
    )
    .limit(BATCH);
  if (due.length === 0) return 0;
  await tx.delete(kycPhotos).where(or(...due.map((d) => and(eq(kycPhotos.kycSessionId, d.kycSessionId), eq(kycPhotos.kind, d.kind)))));
  return due.length;
}
