/** The closed vocabularies of transaction monitoring, shared by the schema and the domain. */

export const MONITORING_MODES = ["enforce", "shadow"] as const;
/** enforce: a review or block outcome acts on the transfer; shadow: recorded and alerted (marked shadow) only. */
export type MonitoringMode = (typeof MONITORING_MODES)[number];

export const MONITORING_OUTCOMES = ["pass", "review", "block"] as const;
export type MonitoringOutcome = (typeof MONITORING_OUTCOMES)[number];

/** A rule whose condition held: its score, or suppressed for this customer. */
export interface FiredRule {
  rule: string;
  score: number;
}

export interface TypologyScore {
  typology: string;
  score: number;
  outcome: MonitoringOutcome;
}

/** Aggregate values read for an evaluation, by their display key (e.g. "senderTransferCount(24h)"). */
export type AggregateValues = Record<string, string>;

/** What a draft would have held over the last 30 days, beside what the live set held. */
export interface BacktestSummary {
  ranAt: string;
  from: string;
  transfers: number;
  /** Transfers the draft sends to review or block. */
  wouldHold: number;
  /** Of those, recorded as held (review or block) by the live evaluation at the time. */
  liveHeld: number;
  /** Fired counts per rule of the draft. */
  byRule: Record<string, number>;
  /**
   * Per typology of the draft: the transfers it would hold, and of those, how many an analyst's
   * closed case judged (risk confirmed or false positive): the draft's precision before activation.
   * Absent on summaries kept before it was added.
   */
  byTypology?: Record<string, { held: number; confirmed: number; falsePositive: number }>;
  /** A few transfers where the draft and the live record differ (transfer id, draft outcome, live outcome). */
  differences: { transferId: string; draft: MonitoringOutcome; live: MonitoringOutcome | "none" }[];
}
