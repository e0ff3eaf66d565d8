import { sql, type SQL } from "drizzle-orm";
import { events, jobs } from "@/db/schema";
import { config } from "@/lib/platform/config";
import type { JobKind } from "./kinds";

/**
 * A lane: a share of one worker's job slots. Lanes fill independently, so jobs of one lane
 * (webhook deliveries waiting on slow partners) never hold back another's (a fast-check).
 */
export interface Lane {
  name: string;
  /** The kinds this lane runs; absent: every kind no other lane names. */
  kinds?: readonly string[];
  /** Jobs of this lane one worker runs at once. */
  concurrency: number;
  /** SQL over the `jobs` row naming the job's group; at most `perGroup` of a group run at once. */
  groupBy: SQL;
  perGroup: number;
}

export interface WorkerSettings {
  lanes: readonly Lane[];
  /** A claim's lease; renewed every `heartbeatMs` while the job runs. */
  leaseSeconds: number;
  heartbeatMs: number;
  /** The hard time limit of one run of a kind. */
  timeoutMs: (kind: string) => number;
  /**
   * How long a woken worker waits before it claims, so the jobs of the commits in that time are
   * claimed together (one claim statement, not one per commit); absent: claims at once.
   */
  wakeBatchMs?: number;
}

/**
 * A wake-up's wait before the claim. Under load, commits that enqueue a job due now come every
 * few milliseconds (the journey: about eight jobs each); claiming at each was a claim statement
 * per job. 10 ms adds that to a job's start, far inside its latency target (250 ms).
 */
const WAKE_BATCH_MS = 10;

/** A delivery's partner, from its event (the payload holds the event id only), or a probe's (its payload names it). */
const deliveryPartner = sql`coalesce((select ${events.partnerId} from ${events} where ${events.id} = ${jobs.payload}->>'eventId'), ${jobs.payload}->>'partnerId')`;

/** Short `run` jobs of one transfer each (rows locked, no outside I/O): milliseconds apiece. */
const TRANSFER_KINDS: readonly JobKind[] = ["transfers.fastCheck", "transfers.networkStep", "transfers.refundStep", "transfers.expire", "funding.expire"];

/** A job's kind as the group (one object, so each lane's claim is prepared once). */
const byKind = sql`${jobs.kind}`;

/** The settings of a worker process, from configuration (README, docs/decisions.md). */
export function workerSettings(): WorkerSettings {
  const c = config();
  return {
    lanes: [
      {
        name: "webhooks",
        kinds: ["webhooks.deliver", "webhooks.probe"],
        concurrency: c.WEBHOOK_CONCURRENCY,
        groupBy: deliveryPartner,
        perGroup: c.WEBHOOK_PARTNER_CONCURRENCY,
      },
      { name: "transfers", kinds: TRANSFER_KINDS, concurrency: c.TRANSFER_JOB_CONCURRENCY, groupBy: byKind, perGroup: c.TRANSFER_JOB_KIND_CONCURRENCY },
      // Reading a document takes about a second of CPU: one at a time, whatever else runs.
      { name: "kyc", kinds: ["kyc.verify"], concurrency: 1, groupBy: byKind, perGroup: 1 },
      { name: "default", concurrency: c.JOB_CONCURRENCY, groupBy: byKind, perGroup: c.JOB_KIND_CONCURRENCY },
    ],
    leaseSeconds: c.JOB_LEASE_SECONDS,
    // Three renewals per lease: one slow or lost heartbeat does not cost the job.
    heartbeatMs: Math.floor((c.JOB_LEASE_SECONDS * 1000) / 3),
    timeoutMs: (kind) => (kind === "webhooks.deliver" || kind === "webhooks.probe" ? c.WEBHOOK_JOB_TIMEOUT_MS : c.JOB_TIMEOUT_MS),
    wakeBatchMs: WAKE_BATCH_MS,
  };
}
