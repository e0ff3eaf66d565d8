/** The names a rule set may use for aggregates and windows (the functions: ./aggregates.ts). */
export const WINDOWS = ["24h", "7d", "30d"] as const;
export type Window = (typeof WINDOWS)[number];
export const WINDOW_SECONDS: Record<Window, number> = { "24h": 86_400, "7d": 7 * 86_400, "30d": 30 * 86_400 };

export const AGGREGATE_NAMES = [
  "senderTransferCount",
  "senderTransferSum",
  "senderBandCount",
  "senderBandSum",
  "linkedBandCount",
  "linkedBandSum",
  "beneficiaryTransferSum",
  "destinationDistinctSenders",
  "senderBeneficiariesCreated",
  "senderNewBeneficiariesPaid",
  "customersSharingDevice",
  "customersSharingPhone",
  "customersSharingEmail",
  "customersSharingAddress",
  "senderFundedThenCancelled",
  "beneficiaryPriorTransfers",
] as const;
export type AggregateName = (typeof AGGREGATE_NAMES)[number];
