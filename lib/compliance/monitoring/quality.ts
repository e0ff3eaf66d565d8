/**
 * Rule quality: for each typology, over the last 90 days, the alerts it raised (its
 * evaluation reached review or block and an alert was recorded, shadow ones included: the typology
 * fired), how many of those alerts sit in a case closed as RISK_CONFIRMED or as FALSE_POSITIVE, and
 * the precision: confirmed over decided (an alert whose case is still open is not yet a hit or a
 * miss; docs/decisions.md, "Rule quality"). Console only.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { rowsOf } from "@/db";
import { complianceAlerts, complianceCases, monitoringEvaluations } from "@/db/schema";

export const QUALITY_DAYS = 90;

export interface TypologyQuality {
  typology: string;
  alerts: number;
  confirmed: number;
  falsePositive: number;
  /** confirmed / (confirmed + falsePositive), as a decimal string with 4 places; null while none is decided. */
  precision: string | null;
}

/** confirmed / decided with 4 places, computed on integers (no float reaches the page). */
export function precisionOf(confirmed: number, falsePositive: number): string | null {
  const decided = confirmed + falsePositive;
  if (decided === 0) return null;
  const tenThousandths = Math.round((confirmed * 10_000) / decided);
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, "0")}`;
}

/** Every typology that raised an alert since `now` − 90 days, most alerts first. */
export async function ruleQuality(db: Executor, now: Date): Promise<TypologyQuality[]> {
  const from = new Date(now.getTime() - QUALITY_DAYS * 86_400_000);
  const t = sql`t`;
  const result = await db.execute(sql`
    select ${t}.value->>'typology' as typology,
      count(*)::int as alerts,
      (count(*) filter (where ${complianceCases.outcome} = 'RISK_CONFIRMED'))::int as confirmed,
      (count(*) filter (where ${complianceCases.outcome} = 'FALSE_POSITIVE'))::int as false_positive
    from ${complianceAlerts}
    join ${monitoringEvaluations} on ${monitoringEvaluations.id} = ${complianceAlerts.evaluationId}
    left join ${complianceCases} on ${complianceCases.id} = ${complianceAlerts.caseId} and ${complianceCases.state} = 'CLOSED'
    cross join lateral jsonb_array_elements(${monitoringEvaluations.typologies}) as ${t}
    where ${complianceAlerts.kind} in ('MONITORING_REVIEW', 'MONITORING_BLOCK', 'SHADOW_ALERT')
      and ${complianceAlerts.raisedAt} > ${sql.param(from, complianceAlerts.raisedAt)}
      and ${t}.value->>'outcome' <> 'pass'
    group by 1
    order by 2 desc, 1`);
  return rowsOf<{ typology: string; alerts: number; confirmed: number; false_positive: number }>(result).map((r) => ({
    typology: r.typology,
    alerts: Number(r.alerts),
    confirmed: Number(r.confirmed),
    falsePositive: Number(r.false_positive),
    precision: precisionOf(Number(r.confirmed), Number(r.false_positive)),
  }));
}
