/**
 * The actions that may be put under dual control (issue 23 item 5), by the name their audit
 * entries carry. Kept free of imports so the configuration (DUAL_CONTROL_OFF) can name them;
 * what each one does is in ./actions.ts.
 */
export const CONTROLLED_ACTIONS = [
  "transfer.review.approve",
  "transfer.hold.restore",
  "screeningCase.falsePositive",
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
] as const;
export type ControlledActionKind = (typeof CONTROLLED_ACTIONS)[number];

/**
 * Actions never taken out of dual control (DUAL_CONTROL_OFF naming one stops the process): money
 * leaving blocked:sanctions is always proposed by one operator and approved by another (issue 35).
 */
export const ALWAYS_CONTROLLED: readonly ControlledActionKind[] = ["screeningCase.releaseUnderLicence"];

export const isControlledAction = (v: string): v is ControlledActionKind => (CONTROLLED_ACTIONS as readonly string[]).includes(v);
