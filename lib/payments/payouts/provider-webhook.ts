/**
 * The payout aggregator's signed status webhook (POST /payout-aggregator/webhook): the signature is
 * checked before anything is read, a delivery signed too long ago is refused (a replay), and the
 * status is applied to the aggregator's own try by the routed payout's one path
 * (applyProviderStatus), in one unit of work. Applying is idempotent: a try that already ended
 * changes no more, so the aggregator's retries and duplicate deliveries are answered and ignored.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { payoutProviderAttempts } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/log";
import { inUnit } from "@/lib/platform/unit-of-work";
import { payoutAggregator } from "@/lib/payments/providers/payout-aggregator";
import type { ProviderAttemptState } from "./provider-attempt-state-machine";
import { applyProviderStatus, isRouted } from "./routed";

/** How far the signing time may be from ours (either way): older deliveries are replays or lost in transit. */
export const AGGREGATOR_WEBHOOK_TOLERANCE_SECONDS = 300;

/** What the aggregator is answered: its delivery was received, whether it changed a try, and the try's state now. */
export interface AggregatorWebhookAnswer {
  received: true;
  applied: boolean;
  attemptState: ProviderAttemptState | null;
}

export async function receiveAggregatorWebhook(db: Db, rawBody: string, signature: string | null, now: Date): Promise<AggregatorWebhookAnswer> {
  if (!isRouted()) throw new DomainError("route.notFound", { message: "No such route." });
  const read = payoutAggregator().readWebhook(rawBody, signature);
  if (read.kind === "unsigned") throw new DomainError("auth.tokenInvalid", { message: "The webhook signature does not match." });
  if (read.kind === "malformed")
    throw new DomainError("validation.bodyMalformed", {
      message: "The webhook body is not a payout status (external_id, and status COMPLETED, REJECTED, CANCELLED or REVERSED).",
    });
  if (Math.abs(now.getTime() - read.signedAt.getTime()) > AGGREGATOR_WEBHOOK_TOLERANCE_SECONDS * 1000)
    throw new DomainError("auth.tokenExpired", {
      message: `The webhook was signed at ${read.signedAt.toISOString()}, more than ${AGGREGATOR_WEBHOOK_TOLERANCE_SECONDS} s from now: refused as a replay.`,
    });
  const { status } = read;
  return inUnit(
    async ({ tx, now: at }) => {
      const [attempt] = await tx
        .select({ provider: payoutProviderAttempts.provider, state: payoutProviderAttempts.state })
        .from(payoutProviderAttempts)
        .where(eq(payoutProviderAttempts.id, status.externalId));
      // A try we never made, or one of another provider's (the bank file's): the aggregator cannot settle it.
      if (!attempt || attempt.provider !== "aggregator") {
        logger().warn({ externalId: status.externalId, status: status.status }, "aggregator status for no aggregator try of ours: ignored");
        return { received: true, applied: false, attemptState: null };
      }
      const after = await applyProviderStatus(
        tx,
        { externalId: status.externalId, status: status.status, reasonCode: status.reasonCode, reference: status.reference, raw: status.raw },
        at,
      );
      const state = after?.state ?? attempt.state;
      return { received: true, applied: state !== attempt.state, attemptState: state };
    },
    { db, now, actor: { kind: "system" } },
  );
}
