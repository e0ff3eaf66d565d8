/**
 * Backtest: a rule set run over the transfers submitted in the last 30 days, each
 * as of its submit time (the windows end there, so later transfers do not count), beside what the
 * live evaluation recorded for it then. Reads only, apart from the summary kept on the set.
 */
import { and, desc, eq, gt, inArray, isNotNull } from "drizzle-orm";
import type { CaseOutcome } from "@/lib/compliance/cases/state-machine";
import type { Tx } from "@/db";
import {
  beneficiaries,
  complianceAlerts,
  complianceCases,
  customers,
  monitoringEvaluations,
  monitoringRuleSets,
  partners,
  payoutMethods,
  transfers,
} from "@/db/schema";
import { corridorByCode } from "@/lib/payments";
import { notFound } from "@/lib/platform/errors";
import { evaluateAgainst, type MonitoredTransfer } from "./evaluate";
import type { BacktestSummary, MonitoringOutcome } from "./types";

export const BACKTEST_DAYS = 30;
/** The most recent transfers a backtest reads (a bound on one console action's work). */
export const BACKTEST_MAX_TRANSFERS = 2000;

export async function backtestRuleSet(tx: Tx, ruleSetId: string, now: Date): Promise<BacktestSummary> {
  const [set] = await tx.select().from(monitoringRuleSets).where(eq(monitoringRuleSets.id, ruleSetId));
  if (!set) throw notFound("ruleSet", "No such rule set.");
  const from = new Date(now.getTime() - BACKTEST_DAYS * 86_400_000);
  const rows = await tx
    .select({
      t: transfers,
      beneficiaryCreatedAt: beneficiaries.createdAt,
      destinationKey: payoutMethods.destinationKey,
      customerStatus: customers.status,
      overrides: partners.monitoringParameters,
    })
    .from(transfers)
    .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
    .innerJoin(customers, eq(customers.id, transfers.customerId))
    .innerJoin(partners, eq(partners.id, transfers.partnerId))
    .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .where(and(isNotNull(transfers.submittedAt), gt(transfers.submittedAt, from)))
    .orderBy(desc(transfers.submittedAt))
    .limit(BACKTEST_MAX_TRANSFERS);
  const live = new Map<string, MonitoringOutcome>();
  const ids = rows.map((r) => r.t.id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = await tx
      .select({ transferId: monitoringEvaluations.transferId, outcome: monitoringEvaluations.outcome })
      .from(monitoringEvaluations)
      .where(and(inArray(monitoringEvaluations.transferId, ids.slice(i, i + 500)), eq(monitoringEvaluations.run, "live")));
    for (const e of chunk) live.set(e.transferId, e.outcome);
  }
  const judged = await judgedTransfers(tx, ids);
  const summary: BacktestSummary = {
    ranAt: now.toISOString(),
    from: from.toISOString(),
    transfers: 0,
    wouldHold: 0,
    liveHeld: 0,
    byRule: {},
    byTypology: Object.fromEntries(set.document.typologies.map((ty) => [ty.id, { held: 0, confirmed: 0, falsePositive: 0 }])),
    differences: [],
  };
  for (const { t, ...r } of rows) {
    const corridor = corridorByCode(t.corridor);
    if (!corridor || !t.submittedAt) continue;
    const monitored: MonitoredTransfer = {
      ...t,
      corridor,
      customerStatus: r.customerStatus,
      beneficiaryCreatedAt: r.beneficiaryCreatedAt,
      destinationKey: r.destinationKey,
    };
    const [result] = (await evaluateAgainst(tx, monitored, [set], r.overrides, t.submittedAt)).results;
    const recorded = live.get(t.id);
    summary.transfers++;
    for (const f of result.fired) summary.byRule[f.rule] = (summary.byRule[f.rule] ?? 0) + 1;
    const held = result.outcome !== "pass";
    if (held) summary.wouldHold++;
    for (const ty of result.typologies) {
      const counts = summary.byTypology![ty.typology];
      if (ty.outcome === "pass" || !counts) continue;
      counts.held++;
      if (judged.get(t.id) === "RISK_CONFIRMED") counts.confirmed++;
      else if (judged.get(t.id) === "FALSE_POSITIVE") counts.falsePositive++;
    }
    if (held && recorded && recorded !== "pass") summary.liveHeld++;
    if (result.outcome !== (recorded ?? "pass") && summary.differences.length < 20) {
      summary.differences.push({ transferId: t.id, draft: result.outcome, live: recorded ?? "none" });
    }
  }
  return summary;
}

/**
 * The transfers an analyst's closed case judged: RISK_CONFIRMED when any closed case naming the
 * transfer confirmed the risk, else FALSE_POSITIVE (shadow alerts included: their case judged them too).
 */
async function judgedTransfers(tx: Tx, ids: string[]): Promise<Map<string, CaseOutcome>> {
  const judged = new Map<string, CaseOutcome>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tx
      .select({ transferId: complianceAlerts.transferId, outcome: complianceCases.outcome })
      .from(complianceAlerts)
      .innerJoin(complianceCases, eq(complianceCases.id, complianceAlerts.caseId))
      .where(and(inArray(complianceAlerts.transferId, ids.slice(i, i + 500)), eq(complianceCases.state, "CLOSED")));
    for (const r of rows) {
      if (!r.transferId || !r.outcome) continue;
      if (r.outcome === "RISK_CONFIRMED" || !judged.has(r.transferId)) judged.set(r.transferId, r.outcome);
    }
  }
  return judged;
}
