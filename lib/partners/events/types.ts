/** Event types of decisions section 9. */
export const EVENT_TYPES = [
  "customer.status.changed",
  "transfer.state.changed",
  "beneficiary.state.changed",
  "refund.completed",
  "refund.failed",
  "claim.status.changed",
  "payout.repair.required",
  "payout.repaired",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EmitInput {
  subscriptionId: string;
  eventType: EventType;
  data: Record<string, unknown>;
  now: Date;
}
