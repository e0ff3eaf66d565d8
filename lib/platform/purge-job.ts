import { z } from "zod";
import { purgeOldEvents } from "@/lib/events/purge";
import { purgeExpiredKeys } from "@/lib/idempotency/store";
import { defineJob } from "@/lib/jobs/define";
import { purgeStaleFailures } from "@/lib/lockouts/failure-counter";

/**
 * Housekeeping: drops Idempotency-Keys past their retention, counted failures (lockouts, OTP
 * send limits) older than every counter's window, and delivered events past their retention. Periodic: scheduled at worker start
 * and every hour after (lib/jobs/periodic.ts), well within the keys' 24-hour retention.
 */
export const purgeJob = defineJob({
  kind: "maintenance.purge",
  every: 3600,
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  run: async (tx, { now }) => {
    await purgeExpiredKeys(tx, now);
    await purgeStaleFailures(tx, now);
    await purgeOldEvents(tx, now);
  },
});
