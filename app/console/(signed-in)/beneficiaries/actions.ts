"use server";

import { eq } from "drizzle-orm";
import { z } from "zod";
import { beneficiaries } from "@/db/schema";
import { transitionBeneficiary } from "@/lib/beneficiaries/records";
import { consoleAction } from "@/lib/console/action";
import { DomainError, notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/operators/audit";

// Decide a beneficiary's screening: VALID, MONITORED or BLOCKED (the only way out of BLOCKED).
export const decideBeneficiary = consoleAction(
  "reviewer",
  z.object({
    beneficiaryId: z.string().min(1),
    decision: z.enum(["VALID", "MONITORED", "BLOCKED"]),
    reason: z.string().trim().min(3).max(500),
    expected: z.string(),
  }),
  async ({ tx, input, operator, now }) => {
    const [row] = await tx.select().from(beneficiaries).where(eq(beneficiaries.id, input.beneficiaryId)).for("update");
    // Refusals are thrown, not returned: a returned string is shown as a success notice.
    if (!row) throw notFound("beneficiary");
    // The state the operator saw: if someone decided meanwhile, this decision is stale (shown as
    // "Already decided by someone else (now …)").
    if (row.state !== input.expected)
      throw new DomainError("beneficiary.stateInvalid", { message: "The beneficiary was decided meanwhile.", details: { currentState: row.state } });
    const after = await transitionBeneficiary(tx, row, "operator.decide", now, { target: input.decision });
    await recordAudit(
      tx,
      operator,
      {
        action: "beneficiary.decide",
        targetType: "beneficiary",
        targetId: row.id,
        before: { state: row.state },
        after: { state: after.state },
        reason: input.reason,
      },
      now,
    );
    return `Beneficiary ${row.firstName} ${row.lastName} is now ${after.state}.`;
  },
);
