import { and, asc, gt, inArray, isNotNull, ne } from "drizzle-orm";
import { z } from "zod";
import { beneficiaries, customers } from "@/db/schema";
import { MONEY_MOVING_STATES } from "@/lib/payments";
import { defineJob } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf } from "@/lib/platform/unit-of-work";

/** Subjects per run: a batch enqueues their screenings, then the next batch. */
const BATCH = 200;

/**
 * Rescreens every active subject after a new list version (lib/compliance/screening/list-store.ts): active
 * customers (a profile, not CLOSED) and live beneficiaries (VALID, MONITORED), or after a PEP
 * list's version the active customers against the PEP lists, in id order, one
 * batch per run. Each subject's screening is its own job, deduplicated per list version, so a
 * repeated batch changes nothing; its state changes go through the subject's state machine.
 */
export const rescreenSubjects = defineJob({
  kind: "sanctions.rescreen",
  schema: z.object({ listVersionId: z.string(), subjectType: z.enum(["customer", "beneficiary", "pep"]), afterId: z.string().nullable() }),
  run: async (tx, { payload, now }) => {
    const { listVersionId, subjectType, afterId } = payload;
    let ids: string[];
    if (subjectType === "customer" || subjectType === "pep") {
      // "pep": a PEP list's new version screens the customers against the PEP lists only.
      const kind = subjectType === "pep" ? "customers.screenPep" : "customers.screen";
      const rows = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(and(isNotNull(customers.profile), ne(customers.status, "CLOSED"), afterId ? gt(customers.id, afterId) : undefined))
        .orderBy(asc(customers.id))
        .limit(BATCH);
      ids = rows.map((r) => r.id);
      for (const customerId of ids) {
        await effectsOf(tx).jobs.schedule(kind, { customerId, listVersionId }, { runAt: now, dedupeKey: dedupeKey(kind, customerId, listVersionId) });
      }
    } else {
      const rows = await tx
        .select({ id: beneficiaries.id })
        .from(beneficiaries)
        .where(and(inArray(beneficiaries.state, [...MONEY_MOVING_STATES]), afterId ? gt(beneficiaries.id, afterId) : undefined))
        .orderBy(asc(beneficiaries.id))
        .limit(BATCH);
      ids = rows.map((r) => r.id);
      for (const beneficiaryId of ids) {
        await effectsOf(tx).jobs.schedule(
          "beneficiaries.screen",
          { beneficiaryId, listVersionId },
          { runAt: now, dedupeKey: dedupeKey("beneficiaries.screen", beneficiaryId, listVersionId) },
        );
      }
    }
    if (ids.length === BATCH) {
      const last = ids[ids.length - 1];
      await effectsOf(tx).jobs.schedule(
        "sanctions.rescreen",
        { listVersionId, subjectType, afterId: last },
        { runAt: now, dedupeKey: `sanctions.rescreen:${listVersionId}:${subjectType}:${last}` },
      );
    }
  },
});
