import { and, gt, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { transfers } from "@/db/schema";
import { defineJob } from "@/lib/platform/jobs/define";
import { recomputeRating } from "./ratings";
import { requestRating } from "@/lib/identity";

/** Recomputes one customer's rating (./request.ts enqueues it after each change the rating reads). */
export const rateCustomer = defineJob({
  kind: "customers.rate",
  schema: z.object({ customerId: z.string().min(1), cause: z.string().max(100) }),
  run: async (tx, { payload, now }) => {
    await recomputeRating(tx, payload.customerId, now, payload.cause);
  },
});

/** At most this many customers asked for per daily sweep (a bound on one run's work). */
const SWEEP_MAX = 1000;

/**
 * Daily: the customers who sent in the last day are rated again, so behaviour against their own
 * past and the countries they sent to count without a job on every transfer's fast-check.
 */
export const rateRecentSenders = defineJob({
  kind: "customers.rateRecentSenders",
  every: 86_400,
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  run: async (tx, { now }) => {
    const senders = await tx
      .selectDistinct({ customerId: transfers.customerId })
      .from(transfers)
      .where(and(isNotNull(transfers.submittedAt), gt(transfers.submittedAt, new Date(now.getTime() - 86_400_000))))
      .limit(SWEEP_MAX);
    for (const s of senders) await requestRating(tx, s.customerId, now, "daily.senders");
  },
});
