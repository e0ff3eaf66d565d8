/**
 * The commands that may be put under dual control, by their name (the one their proposals and
 * audit entries carry). The configuration's vocabulary: DUAL_CONTROL_OFF names them, and the
 * platform imports no context, so they are declared here; what each one does is in
 * lib/operations/commands (its `needsSecondOperator` says which instances wait).
 */
export const CONTROLLED_ACTIONS = [
  "transfer.review.approve",
  "transfer.hold.restore",
  "screeningCase.decide",
  "screeningCase.releaseUnderLicence",
  "bankCredit.match",
  "bankCredit.return",
  "transfer.refund.paid",
  "partner.update",
  "partner.apiKey.issue",
  "partner.apiKey.revoke",
  "ledger.journal.post",
  "ledger.partnerFees.pay",
  "transfer.payout.repair",
  "partner.limits.update",
  "prefunding.topUp",
  "customer.rating.override",
  "configuration.version.publish",
] as const;
export type ControlledActionKind = (typeof CONTROLLED_ACTIONS)[number];

/**
 * Actions never taken out of dual control (DUAL_CONTROL_OFF naming one stops the process): money
 * leaving blocked:sanctions, and a customer's risk rating set by hand, are always proposed by one
 * operator and approved by another.
 */
export const ALWAYS_CONTROLLED: readonly ControlledActionKind[] = ["screeningCase.releaseUnderLicence", "customer.rating.override"];

export const isControlledAction = (v: string): v is ControlledActionKind => (CONTROLLED_ACTIONS as readonly string[]).includes(v);

/**
 * Names a proposal or DUAL_CONTROL_OFF may still carry from before a use case became one command:
 * the command they are now, and what their input implied. A false positive was its own action; it
 * is now the decision FALSE_POSITIVE of screeningCase.decide (a true match never waits).
 */
export const RENAMED: Readonly<Record<string, { to: ControlledActionKind; input: Record<string, unknown> }>> = {
  "screeningCase.falsePositive": { to: "screeningCase.decide", input: { decision: "FALSE_POSITIVE" } },
};
