import { z } from "zod";
import { purgeExpiredKeys } from "@/lib/idempotency/store";
import { defineJob } from "@/lib/jobs/define";

/** Housekeeping: drops Idempotency-Keys past their retention. */
export const purgeJob = defineJob({
  kind: "maintenance.purge",
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  run: async (tx, { now }) => {
    await purgeExpiredKeys(tx, now);
  },
});
