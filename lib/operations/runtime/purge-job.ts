import { z } from "zod";
import { purgeOldEvents } from "@/lib/partners";
import { purgeExpiredKeys } from "@/lib/platform/idempotency/store";
import { defineJob } from "@/lib/platform/jobs/define";
import { purgeStaleFailures, purgeKycPhotos } from "@/lib/identity";

/**
 * Housekeeping: drops Idempotency-Keys past their retention, counted failures (lockouts, OTP
 * send limits) older than every counter's window, delivered events past their retention, and KYC
 * identity pictures past theirs (lib/identity/kyc/photo-retention.ts). Periodic: scheduled at worker start
 * and every hour after (lib/platform/jobs/periodic.ts), well within the keys' 24-hour retention.
 */
export const purgeJob = defineJob({
  kind: "maintenance.purge",
  every: 3600,
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  run: async (tx, { now }) => {
    await purgeExpiredKeys(tx, now);
    await purgeStaleFailures(tx, now);
    await purgeOldEvents(tx, now);
    await purgeKycPhotos(tx, now);
  },
});
