import { eq } from "drizzle-orm";
import { z } from "zod";
import { beneficiaries } from "@/db/schema";
import { defineJob } from "@/lib/jobs/define";
import { screeningProvider } from "@/lib/screening/provider";
import { transitionBeneficiary } from "./records";

const TRIGGER = { CLEAR: "screening.valid", CLOSE_MATCH: "screening.monitored", HIT: "screening.blocked" } as const;

/** Screening of a new beneficiary (spec 3.2; decisions section 5: exact BLOCKED, close MONITORED, else VALID). */
export const screenBeneficiary = defineJob({
  kind: "beneficiaries.screen",
  schema: z.object({ beneficiaryId: z.string() }),
  run: async (tx, { payload, now }) => {
    const [row] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, payload.beneficiaryId)).for("update");
    // Decided meanwhile (sandbox force, operator, archive): screening no longer applies.
    if (!row || row.state !== "PENDING") return;
    const result = await screeningProvider().screen(row);
    await transitionBeneficiary(tx, row, TRIGGER[result], now, { set: { screeningResult: result } });
  },
});
