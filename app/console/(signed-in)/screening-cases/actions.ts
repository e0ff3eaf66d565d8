"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { act, actedNotice } from "@/lib/dual-control/proposals";
import { recordAudit } from "@/lib/operators/audit";
import { decideCase } from "@/lib/screening-cases/cases";

// Decide a screening case (issue 19): FALSE_POSITIVE or TRUE_MATCH, with the reason; reviewers may.
// A false positive that releases held transfers is proposed for a second operator (lib/dual-control).
export const decideScreeningCase = consoleAction(
  "reviewer",
  z.object({ caseId: z.string().min(1), decision: z.enum(["FALSE_POSITIVE", "TRUE_MATCH"]), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    if (input.decision === "FALSE_POSITIVE") {
      return actedNotice(await act(tx, "screeningCase.falsePositive", { caseId: input.caseId }, { operator, reason: input.reason, now }));
    }
    const done = await decideCase(tx, { caseId: input.caseId, decision: input.decision, operator, reason: input.reason, now });
    const c = done.case;
    await recordAudit(
      tx,
      operator,
      {
        action: "screeningCase.trueMatch",
        targetType: c.subjectType,
        targetId: c.subjectId,
        before: { caseId: c.id, state: "OPEN" },
        after: {
          caseId: c.id,
          state: c.state,
          entries: c.entries.map((e) => ({ list: e.list, entryId: e.entryId, listVersionId: e.listVersionId })),
          subjectState: done.subjectState,
          transfers: done.transfers,
          ...(c.blockingReportDueOn ? { blockingReportDueOn: c.blockingReportDueOn } : {}),
        },
        reason: input.reason,
      },
      now,
    );
    const moved = Object.keys(done.transfers).length;
    return `Case ${c.id} confirmed: the ${c.subjectType} is ${done.subjectState}, ${moved} transfer(s) rejected; blocking report due ${c.blockingReportDueOn}.`;
  },
);

// Release a transfer's blocked money under a licence (issue 35): always proposed for a second
// operator (lib/dual-control), who releases it on approval: the payer is refunded.
export const releaseBlockedUnderLicence = consoleAction(
  "reviewer",
  z.object({
    caseId: z.string().min(1),
    transferId: z.string().min(1),
    licenceReference: z.string().trim().min(3).max(140),
    reason: z.string().trim().min(3).max(500),
  }),
  async ({ tx, input, operator, now }) =>
    actedNotice(
      await act(
        tx,
        "screeningCase.releaseUnderLicence",
        { caseId: input.caseId, transferId: input.transferId, licenceReference: input.licenceReference },
        { operator, reason: input.reason, now },
      ),
    ),
);
