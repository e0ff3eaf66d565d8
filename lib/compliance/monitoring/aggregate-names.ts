import { type Window } from "@/db/schema/monitoring";
export { WINDOWS, type Window, AGGREGATE_NAMES, type AggregateName } from "@/db/schema/monitoring";

export const WINDOW_SECONDS: Record<Window, number> = { "24h": 86_400, "7d": 7 * 86_400, "30d": 30 * 86_400 };
