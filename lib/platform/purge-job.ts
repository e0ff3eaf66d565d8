import { z } from "zod";
import { purgeExpiredKeys } from "@/lib/idempotency/store";
import { defineJob } from "@/lib/jobs/define";
import { purgeStaleFailures } from "@/lib/lockouts/failure-counter";

/**
 * Housekeeping: drops Idempotency-Keys past their retention and counted failures (lockouts, OTP
 * send limits) older than every counter's window. Periodic: scheduled at worker start
 * and every hour after (lib/jobs/periodic.ts), well within the keys' 24-hour retention.
 */
export const purgeJob = defineJob({
  kind: "maintenance.purge",
  every: 3600,
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  run: async (tx, { now }) => {
    await purgeExpiredKeys(tx, now);
    await purgeStaleFailures(tx, now);
  },
});
