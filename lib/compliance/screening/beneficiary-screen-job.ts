import { eq } from "drizzle-orm";
import { z } from "zod";
import { beneficiaries, subscriptions } from "@/db/schema";
import { defineJob } from "@/lib/platform/jobs/define";
import { screeningProvider, stronger } from "./provider";
import { recordScreening } from "./results";
import { raiseCase } from "../screening-cases/cases";
import { transitionBeneficiary, beneficiaryMayMoveMoney } from "@/lib/payments";

const TRIGGER = { CLEAR: "screening.valid", CLOSE_MATCH: "screening.monitored", HIT: "screening.blocked" } as const;

/**
 * Screening of a new beneficiary (spec 3.2; decisions section 5: exact BLOCKED, close MONITORED,
 * else VALID), and its rescreening after a new list version (listVersionId): a live VALID or
 * MONITORED beneficiary moves only on a result stronger than its stored one. The evidence is
 * stored with the beneficiary (lib/compliance/screening/results.ts), never returned by the API.
 *
 * A close match also raises a screening case (lib/compliance/screening-cases) for the entries not
 * already cleared for this beneficiary, on the first screening and on every rescreen: a MONITORED
 * beneficiary matching a new or changed entry gets a case too, and its transfers stop.
 */
export const screenBeneficiary = defineJob({
  kind: "beneficiaries.screen",
  schema: z.object({ beneficiaryId: z.string(), listVersionId: z.string().optional() }),
  run: async (tx, { payload, now }) => {
    const [row] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, payload.beneficiaryId)).for("update");
    const rescreen = payload.listVersionId !== undefined;
    if (!row) return;
    // First screening: decided meanwhile (sandbox force, operator, archive), it no longer applies.
    // Rescreen: only live records that can still tighten.
    if (rescreen ? !beneficiaryMayMoveMoney(row.state) : row.state !== "PENDING") return;
    const outcome = await screeningProvider().screen(row, tx);
    await recordScreening(tx, "beneficiary", row.id, outcome, now);
    // A HIT found by a rescreen raises a case too: transfers to the beneficiary may already be
    // validated, confirmed or funded, and none may pay out until a human decides.
    if (outcome.result === "CLOSE_MATCH" || (rescreen && outcome.result === "HIT")) {
      const [sub] = await tx.select({ customerId: subscriptions.customerId }).from(subscriptions).where(eq(subscriptions.id, row.subscriptionId));
      await raiseCase(tx, { subjectType: "beneficiary", subjectId: row.id, customerId: sub.customerId }, outcome, now);
    }
    if (!rescreen) {
      await transitionBeneficiary(tx, row, TRIGGER[outcome.result], now, { set: { screeningResult: outcome.result } });
      return;
    }
    if (!stronger(outcome.result, row.screeningResult) || (outcome.result === "CLOSE_MATCH" && row.state !== "VALID")) return;
    await transitionBeneficiary(tx, row, TRIGGER[outcome.result], now, { set: { screeningResult: outcome.result } });
  },
});
