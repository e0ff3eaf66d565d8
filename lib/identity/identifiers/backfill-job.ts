import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { customers, loginIdentifiers } from "@/db/schema";
import { defineJob } from "@/lib/platform/jobs/define";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { customerAddressKey, identifierMatchKey } from "./normal-form";

/** Rows per run: one batch is locked and rewritten, then the next batch is enqueued. */
const BATCH = 200;

/**
 * Fills (or refreshes, after a change of the word tables) the stored normal forms: customers'
 * address keys, then login identifiers' match keys. One locked batch per run, in id order; a key is
 * rewritten only where it differs, so a repeated batch changes nothing. Derived data: updatedAt
 * stays. Started by migration 0035.
 */
export const backfillNormalForms = defineJob({
  kind: "identifiers.backfillNormalForms",
  schema: z.object({ table: z.enum(["customers", "login_identifiers"]), afterId: z.string().nullable() }),
  run: async (tx, { payload, now }) => {
    let last: string | undefined;
    let count = 0;
    if (payload.table === "customers") {
      const rows = await tx
        .select({ id: customers.id, profile: customers.profile, addressKey: customers.addressKey })
        .from(customers)
        .where(and(isNotNull(customers.profile), payload.afterId ? gt(customers.id, payload.afterId) : undefined))
        .orderBy(asc(customers.id))
        .limit(BATCH)
        .for("no key update");
      for (const row of rows) {
        const addressKey = customerAddressKey(row.profile);
        if (addressKey !== row.addressKey) await tx.update(customers).set({ addressKey }).where(eq(customers.id, row.id));
      }
      [count, last] = [rows.length, rows.at(-1)?.id];
    } else {
      const rows = await tx
        .select({ id: loginIdentifiers.id, type: loginIdentifiers.type, value: loginIdentifiers.value, matchKey: loginIdentifiers.matchKey })
        .from(loginIdentifiers)
        .where(payload.afterId ? gt(loginIdentifiers.id, payload.afterId) : undefined)
        .orderBy(asc(loginIdentifiers.id))
        .limit(BATCH)
        .for("no key update");
      for (const row of rows) {
        const matchKey = identifierMatchKey(row);
        if (matchKey !== row.matchKey) await tx.update(loginIdentifiers).set({ matchKey }).where(eq(loginIdentifiers.id, row.id));
      }
      [count, last] = [rows.length, rows.at(-1)?.id];
    }
    const next =
      count === BATCH && last
        ? { table: payload.table, afterId: last }
        : payload.table === "customers"
          ? { table: "login_identifiers" as const, afterId: null }
          : null;
    if (next)
      await effectsOf(tx).jobs.schedule("identifiers.backfillNormalForms", next, {
        runAt: now,
        dedupeKey: `identifiers.backfillNormalForms:${next.table}:${next.afterId ?? "start"}`,
      });
  },
});
