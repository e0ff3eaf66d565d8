/**
 * Commands on a screening case: its decision, and the release of money it blocked under a licence.
 */
import { z } from "zod";
import { money } from "@/lib/operations/console/format";
import { DomainError } from "@/lib/platform/errors";
import { fromMinor } from "@/lib/finance";
import { checkRelease, releaseUnderLicence, decideCase, lockCase } from "@/lib/compliance";
import { command } from "./command";
import { transferOf } from "./transfers";

/**
 * An open case decided, with the reviewer's reason. FALSE_POSITIVE clears the subject and restores
 * the transfers the case held: when it held any, that releases money, so a second operator
 * approves it. TRUE_MATCH blocks the subject and rejects its active transfers (money to
 * blocked:sanctions, the blocking report due in 10 business days): one reviewer, at once.
 * The audit entry names the decision (screeningCase.falsePositive / screeningCase.trueMatch).
 */
export const decideScreeningCase = command({
  name: "screeningCase.decide",
  role: "reviewer",
  input: z.object({ caseId: z.string().min(1), decision: z.enum(["FALSE_POSITIVE", "TRUE_MATCH"]) }),
  subject: (p) => ({ type: "screeningCase", id: p.caseId }),
  locks: (p) => ({ screeningCase: p.caseId }),
  // A case that held no transfer releases no money: one operator clears it.
  needsSecondOperator: async (tx, p) => p.decision === "FALSE_POSITIVE" && (await lockCase(tx, p.caseId)).heldTransferIds.length > 0,
  describe: async (tx, p) => {
    const c = await lockCase(tx, p.caseId);
    if (c.state !== "OPEN") throw new DomainError("screeningCase.stateInvalid", { details: { currentState: c.state } });
    return {
      summary: `Clear screening case ${c.id} (${c.subjectType} ${c.subjectId}) as a false positive, releasing ${c.heldTransferIds.length} held transfer(s)`,
      before: { state: c.state, heldTransferIds: c.heldTransferIds },
      after: { decision: "FALSE_POSITIVE", releasedTransferIds: c.heldTransferIds },
    };
  },
  run: async ({ tx, operator, reason, now }, p) => {
    const done = await decideCase(tx, { caseId: p.caseId, decision: p.decision, operator, reason: reason ?? "", now });
    const c = done.case;
    const moved = Object.keys(done.transfers).length;
    return {
      action: p.decision === "TRUE_MATCH" ? "screeningCase.trueMatch" : "screeningCase.falsePositive",
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
      notice:
        p.decision === "TRUE_MATCH"
          ? `Case ${c.id} confirmed: the ${c.subjectType} is ${done.subjectState}, ${moved} transfer(s) rejected; blocking report due ${c.blockingReportDueOn}.`
          : `Case ${c.id} cleared as a false positive; ${moved} held transfer(s) restored.`,
    };
  },
});

/**
 * Money out of blocked:sanctions, only under a licence or authority reference, always with a
 * second operator (ALWAYS_CONTROLLED), back to the payer as the transfer's refund.
 */
export const releaseBlockedUnderLicence = command({
  name: "screeningCase.releaseUnderLicence",
  role: "reviewer",
  input: z.object({
    caseId: z.string().min(1),
    transferId: z.string().min(1),
    licenceReference: z.string().trim().min(3, "a licence or authority reference (e.g. an OFAC specific licence number)").max(140),
  }),
  subject: (p) => ({ type: "transfer", id: p.transferId }),
  describe: async (tx, p) => {
    const c = await lockCase(tx, p.caseId);
    const blocked = await checkRelease(tx, c, await transferOf(tx, p.transferId).catch(() => undefined));
    return {
      summary: `Release ${money(fromMinor(blocked.blockedMinor, blocked.currency), blocked.currency)} of transfer ${p.transferId} blocked under screening case ${c.id} under licence ${p.licenceReference}, refunding the payer`,
      before: { caseId: c.id, blockedMinor: blocked.blockedMinor.toString(), currency: blocked.currency },
      after: { caseId: c.id, blockedMinor: "0", licenceReference: p.licenceReference, refund: "to the payer" },
    };
  },
  run: async ({ tx, now }, p) => {
    const done = await releaseUnderLicence(tx, { ...p, now });
    return {
      targetType: "transfer",
      targetId: p.transferId,
      before: { caseId: done.case.id, blocked: done.released, currency: done.currency },
      after: { caseId: done.case.id, blocked: "0", released: done.released, licenceReference: p.licenceReference, refundStatus: done.refund?.state ?? null },
      notice: `Released ${done.released} ${done.currency} of ${p.transferId} under licence ${p.licenceReference}: ${done.refund ? `its refund is ${done.refund.state}` : "nothing is left to refund (claim refunds gave it back already)"}.`,
    };
  },
});
