/**
 * The transactions of a period for an examiner: one row per transfer created in the range, with
 * its parties, amounts, fees and rate, dates, state, the parties' screening results and the
 * transfer's live monitoring outcome (the rules that fired). Read-only; CSV or JSON, the same
 * fields either way. Compliance data: console only, never a partner's.
 */
import { and, asc, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { beneficiaries, customers, monitoringEvaluations, transfers } from "@/db/schema";
import { csv } from "@/lib/finance";

export const TRANSACTION_EXPORT_FIELDS = [
  "transferId",
  "createdAt",
  "submittedAt",
  "state",
  "stateChangedAt",
  "partnerId",
  "customerId",
  "customerName",
  "customerScreening",
  "beneficiaryId",
  "beneficiaryName",
  "beneficiaryCountry",
  "beneficiaryScreening",
  "corridor",
  "payoutMethod",
  "purposeOfTransfer",
  "originAmount",
  "originCurrency",
  "destinationAmount",
  "destinationCurrency",
  "fxRate",
  "principalFee",
  "partnerFee",
  "totalCustomerCost",
  "rejectionReason",
  "monitoringOutcome",
  "monitoringMode",
  "monitoringRules",
] as const;

export type TransactionExportRow = Record<(typeof TRANSACTION_EXPORT_FIELDS)[number], string | null>;

/** Monitoring evaluations are read for this many transfers at a time (a bounded IN list). */
const CHUNK = 500;

const nameOf = (profile: Record<string, unknown> | null): string | null => {
  const parts = [profile?.firstName, profile?.lastName].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length > 0 ? parts.join(" ") : null;
};

export async function transactionsBetween(db: Executor, range: { from?: Date; to?: Date }): Promise<TransactionExportRow[]> {
  const where: SQL[] = [];
  if (range.from) where.push(gte(transfers.createdAt, range.from));
  if (range.to) where.push(lt(transfers.createdAt, range.to));
  const rows = await db
    .select({
      t: transfers,
      profile: customers.profile,
      customerScreening: customers.screeningResult,
      beneficiaryFirst: beneficiaries.firstName,
      beneficiaryLast: beneficiaries.lastName,
      beneficiaryCountry: beneficiaries.countryOfResidence,
      beneficiaryScreening: beneficiaries.screeningResult,
    })
    .from(transfers)
    .innerJoin(customers, eq(customers.id, transfers.customerId))
    .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
    .where(and(...where))
    .orderBy(asc(transfers.createdAt), asc(transfers.id));

  // The latest live evaluation of each transfer (a candidate set's never acted).
  const monitored = new Map<string, typeof monitoringEvaluations.$inferSelect>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const ids = rows.slice(i, i + CHUNK).map((r) => r.t.id);
    const evaluations = await db
      .select()
      .from(monitoringEvaluations)
      .where(and(inArray(monitoringEvaluations.transferId, ids), eq(monitoringEvaluations.run, "live")))
      .orderBy(asc(monitoringEvaluations.createdAt), asc(monitoringEvaluations.id));
    for (const e of evaluations) monitored.set(e.transferId, e);
  }

  return rows.map(({ t, ...r }) => {
    const m = monitored.get(t.id);
    return {
      transferId: t.id,
      createdAt: t.createdAt.toISOString(),
      submittedAt: t.submittedAt?.toISOString() ?? null,
      state: t.state,
      stateChangedAt: t.stateChangedAt.toISOString(),
      partnerId: t.partnerId,
      customerId: t.customerId,
      customerName: nameOf(r.profile ?? null),
      customerScreening: r.customerScreening,
      beneficiaryId: t.beneficiaryId,
      beneficiaryName: `${r.beneficiaryFirst} ${r.beneficiaryLast}`,
      beneficiaryCountry: r.beneficiaryCountry,
      beneficiaryScreening: r.beneficiaryScreening,
      corridor: t.corridor,
      payoutMethod: t.payoutMethod,
      purposeOfTransfer: t.purposeOfTransfer,
      originAmount: t.originAmount,
      originCurrency: t.originCurrency,
      destinationAmount: t.destinationAmount,
      destinationCurrency: t.destinationCurrency,
      fxRate: t.fxRate,
      principalFee: t.principalFee,
      partnerFee: t.partnerFee,
      totalCustomerCost: t.totalCustomerCost,
      rejectionReason: t.rejectionReason,
      monitoringOutcome: m?.outcome ?? null,
      monitoringMode: m?.mode ?? null,
      monitoringRules: m ? m.fired.map((f) => f.rule).join(";") : null,
    };
  });
}

/** The rows as CSV (RFC 4180, a header of the field names; an absent value is empty). */
export function transactionsCsv(rows: readonly TransactionExportRow[]): string {
  return csv(
    TRANSACTION_EXPORT_FIELDS,
    rows.map((r) => TRANSACTION_EXPORT_FIELDS.map((f) => r[f] ?? "")),
  );
}
