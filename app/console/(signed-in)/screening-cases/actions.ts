"use server";

import { z } from "zod";
import { decideScreeningCase as decide, releaseBlockedUnderLicence as release } from "@/lib/operations/commands/screening";
import { consoleCommand } from "@/lib/operations/console/action";

const reason = z.string().trim().min(3).max(500);

// Decide a screening case: FALSE_POSITIVE or TRUE_MATCH, with the reason; reviewers may. A false
// positive that releases held transfers is proposed for a second operator (the command says when).
export const decideScreeningCase = consoleCommand(
  "reviewer",
  z.object({ caseId: z.string().min(1), decision: z.enum(["FALSE_POSITIVE", "TRUE_MATCH"]), reason }),
  ({ caseId, decision, reason }) => ({ command: decide, input: { caseId, decision }, reason }),
);

// Release a transfer's blocked money under a licence: always proposed for a second operator, who
// releases it on approval: the payer is refunded.
export const releaseBlockedUnderLicence = consoleCommand(
  "reviewer",
  z.object({ caseId: z.string().min(1), transferId: z.string().min(1), licenceReference: z.string().trim().min(3).max(140), reason }),
  ({ reason, ...input }) => ({ command: release, input, reason }),
);
