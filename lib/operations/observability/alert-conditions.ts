import { isBusinessDay, nextDay, type ReturnedPayout } from "@/lib/payments";
import type { OperationsReadings } from "./readings";

/**
 * The alert conditions, as data: each row names a condition and its thresholds; `firing` below
 * says, from one reading of the database (lib/operations/observability/readings.ts), which subjects it holds for
 * now. The alert job (lib/operations/observability/alerts.ts) opens an incident when a condition starts to hold
 * for a subject and resolves it when it stops. A new threshold is a change to this table only.
 */
export const ALERT_CONDITIONS = [
  /** The newest publication of a rate source is older than a business day (a whole business day of its calendar passed without one). */
  { condition: "referenceRates.stale", calendar: "DE" },
  /** A list with sources set was not stored or confirmed unchanged for its refresh period (SANCTIONS_REFRESH_HOURS) plus this margin. */
  { condition: "sanctionsList.stale", marginHours: 6 },
  /** A job kind with this many jobs failing and being retried, or given up in the last day. */
  { condition: "jobs.failing", retrying: 3, deadLastDay: 3 },
  /** A partner with more than this many events waiting for delivery, or its endpoint failing. */
  { condition: "webhooks.backlog", pendingOver: 100 },
  /** E-mails failing: any retried after a failure, or given up since the last one sent. */
  { condition: "email.failing", failures: 1 },
  /** An unexplained difference between a bank closing balance and the ledger older than this. */
  { condition: "reconciliation.difference", olderThanDays: 1 },
  /** A screening case open longer than this, or a compliance case past its due date. */
  { condition: "cases.overdue", screeningCaseHours: 24 },
  /** A payout provider's prefunding cover under PREFUNDING_MIN_COVER_DAYS of forecast payouts, or a payout waiting for cover. */
  { condition: "prefunding.low" },
  /** A payout provider's latest balance statement differing from our prefunding account at the statement's time (per provider and currency). */
  { condition: "prefunding.statementDifference" },
  /** A funded payout for which every provider's route failed: no provider left, it waits for an operator (per corridor; at most this many ids named). */
  { condition: "payout.noRoute", namedTransfers: 5 },
  /** A paid payout the beneficiary's bank returned to its provider, waiting for an operator's refund (per provider and currency; at most this many ids named). */
  { condition: "payout.returned", namedTransfers: 5 },
] as const;

export type AlertCondition = (typeof ALERT_CONDITIONS)[number];
export type AlertConditionName = AlertCondition["condition"];

/** One subject a condition holds for, with what was seen. */
export interface Firing {
  condition: AlertConditionName;
  subject: string;
  summary: string;
}

const rule = <N extends AlertConditionName>(name: N) => ALERT_CONDITIONS.find((c) => c.condition === name) as Extract<AlertCondition, { condition: N }>;
const hours = (seconds: number) => `${(seconds / 3600).toFixed(1)} h`;

/** A business day of `calendar` strictly after `from` and strictly before `to` (both "YYYY-MM-DD"). */
function businessDayBetween(calendar: string, from: string, to: string): boolean {
  for (let d = nextDay(from); d < to; d = nextDay(d)) if (isBusinessDay(calendar, d)) return true;
  return false;
}

/** The screening cases' age threshold the readings must count (readOperations' caseHours). */
export const SCREENING_CASE_HOURS = rule("cases.overdue").screeningCaseHours;

/** Every condition's subjects that hold in `r`; `refreshHours`: SANCTIONS_REFRESH_HOURS. */
export function firing(r: OperationsReadings, settings: { refreshHours: number }): Firing[] {
  const out: Firing[] = [];
  const now = r.at.getTime();
  const today = r.at.toISOString().slice(0, 10);

  const rates = rule("referenceRates.stale");
  for (const s of r.referenceRates) {
    const published = s.publishedAt.toISOString().slice(0, 10);
    if (businessDayBetween(rates.calendar, published, today))
      out.push({ condition: rates.condition, subject: s.source, summary: `newest ${s.source} rates published ${published}` });
  }

  const lists = rule("sanctionsList.stale");
  const limitMs = (settings.refreshHours + lists.marginHours) * 3_600_000;
  for (const l of r.sanctionsLists) {
    if (!l.refreshed) continue;
    if (!l.loadedAt || now - l.loadedAt.getTime() > limitMs)
      out.push({
        condition: lists.condition,
        subject: l.list,
        summary: l.loadedAt ? `${l.list} last loaded ${l.loadedAt.toISOString()}` : `${l.list} never loaded`,
      });
  }

  const jobs = rule("jobs.failing");
  for (const f of r.jobFailures) {
    if (f.retrying >= jobs.retrying || f.deadLastDay >= jobs.deadLastDay)
      out.push({ condition: jobs.condition, subject: f.kind, summary: `${f.retrying} retrying after a failure, ${f.deadLastDay} given up in 24 h` });
  }

  const hooks = rule("webhooks.backlog");
  for (const w of r.webhooks) {
    if (w.pending > hooks.pendingOver || w.endpointFailing)
      out.push({
        condition: hooks.condition,
        subject: w.partnerId,
        summary: `${w.pending} events waiting (oldest ${hours(w.oldestPendingSeconds)})${w.endpointFailing ? ", endpoint failing" : ""}`,
      });
  }

  const email = rule("email.failing");
  if (r.email.retrying + r.email.failedSinceLastSent >= email.failures)
    out.push({
      condition: email.condition,
      subject: "",
      summary: `${r.email.retrying} e-mails retrying after a failure, ${r.email.failedSinceLastSent} given up since the last one sent`,
    });

  const recon = rule("reconciliation.difference");
  if (r.reconciliation.oldestDays !== null && r.reconciliation.oldestDays > recon.olderThanDays)
    out.push({
      condition: recon.condition,
      subject: "",
      summary: `${r.reconciliation.differences} unexplained differences, the oldest ${r.reconciliation.oldestDays} days old`,
    });

  const cases = rule("cases.overdue");
  if (r.screeningCasesOlder && r.screeningCasesOlder.n > 0)
    out.push({
      condition: cases.condition,
      subject: "screening",
      summary: `${r.screeningCasesOlder.n} screening cases open over ${cases.screeningCaseHours} h`,
    });
  if (r.complianceCasesOverdue > 0)
    out.push({ condition: cases.condition, subject: "compliance", summary: `${r.complianceCasesOverdue} compliance cases past their due date` });

  const prefunding = rule("prefunding.low");
  for (const p of r.prefunding ?? []) {
    if (p.short)
      out.push({
        condition: prefunding.condition,
        subject: `${p.provider}:${p.currency}`,
        summary: `${p.provider} ${p.currency} cover ${p.cover} against ${p.minimumCover} needed (3-day forecast ${p.forecast3Days}); ${p.heldCount} payouts held for cover`,
      });
  }

  const statementDifference = rule("prefunding.statementDifference");
  for (const p of r.prefundingStatements ?? []) {
    if (p.differs)
      out.push({
        condition: statementDifference.condition,
        subject: `${p.provider}:${p.currency}`,
        summary: `${p.provider} ${p.currency} statement ${p.reference} (${p.asOf.toISOString()}) shows ${p.statement}, our prefunding ${p.ledger}: difference ${p.difference}`,
      });
  }

  const noRoute = rule("payout.noRoute");
  const byCorridor = new Map<string, { transferId: string; since: Date }[]>();
  for (const p of r.payoutsWithoutRoute ?? []) byCorridor.set(p.corridor, [...(byCorridor.get(p.corridor) ?? []), p]);
  for (const [corridor, stuck] of byCorridor) {
    const named = stuck.slice(0, noRoute.namedTransfers).map((p) => p.transferId);
    out.push({
      condition: noRoute.condition,
      subject: corridor,
      summary: `${stuck.length} payouts with no provider left (oldest since ${stuck[0].since.toISOString()}): ${named.join(", ")}${stuck.length > named.length ? ", ..." : ""}`,
    });
  }

  const returned = rule("payout.returned");
  const bySubject = new Map<string, ReturnedPayout[]>();
  for (const p of r.returnedPayouts ?? []) bySubject.set(`${p.provider}:${p.currency}`, [...(bySubject.get(`${p.provider}:${p.currency}`) ?? []), p]);
  for (const [subject, waiting] of bySubject) {
    const named = waiting.slice(0, returned.namedTransfers).map((p) => `${p.transferId} (${p.reasonCode ?? "no reason"})`);
    out.push({
      condition: returned.condition,
      subject,
      summary: `${waiting.length} paid payouts returned by the beneficiary's bank, held for a refund (oldest since ${waiting[0].since.toISOString()}): ${named.join(", ")}${waiting.length > named.length ? ", ..." : ""}`,
    });
  }
  return out;
}
