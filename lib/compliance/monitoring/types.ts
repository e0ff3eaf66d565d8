/**
 * The closed vocabularies of transaction monitoring (modes, outcomes) and the shapes an evaluation
 * and a backtest keep: declared beside their columns in db/schema/monitoring.ts, named here for the domain.
 */
export {
  MONITORING_MODES,
  type MonitoringMode,
  MONITORING_OUTCOMES,
  type MonitoringOutcome,
  type FiredRule,
  type TypologyScore,
  type AggregateValues,
  type BacktestSummary,
} from "@/db/schema/monitoring";
