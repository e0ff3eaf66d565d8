/**
 * What the rating reads about one customer (./model.ts RatingEvidence): the profile's countries,
 * KYC and tier, standing flags, alerts not cleared as false positives, the open case, filed
 * reports, where they sent and how much against their own past. A few small reads by the
 * customer's indexes; run by the rating job, never by the fast-check.
 */
import { and, desc, eq, gt, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { complianceAlerts, complianceCases, customerRiskFlags, customers, suspiciousActivityReports, transfers } from "@/db/schema";
import { corridorByCode } from "@/lib/payments";
import countries from "@/lib/platform/i18n/iso-countries";
import type { RatingEvidence, RatingModel } from "./model";

const DAY = 86_400_000;
/** Transfers that moved or may still move money count towards behaviour; refused or abandoned ones do not. */
const NOT_COUNTED = ["rejected", "expired", "aborted", "canceled"];

const alpha2 = (code: unknown): string | null => {
  if (typeof code !== "string" || !code) return null;
  if (code.length === 2) return code.toUpperCase();
  return countries.alpha3ToAlpha2(code.toUpperCase()) ?? null;
};

/** The customer's evidence as of `now`; undefined for an unknown customer. */
export async function readEvidence(tx: Tx, customerId: string, m: RatingModel, now: Date): Promise<RatingEvidence | undefined> {
  const [c] = await tx
    .select({ kycStatus: customers.kycStatus, tier: customers.verificationTier, profile: customers.profile })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!c) return undefined;
  const flags = await tx
    .select({ flag: customerRiskFlags.flag, since: customerRiskFlags.createdAt })
    .from(customerRiskFlags)
    .where(and(eq(customerRiskFlags.customerId, customerId), isNull(customerRiskFlags.clearedAt)));
  const alertKinds = await tx
    .select({ kind: complianceAlerts.kind, since: sql<Date>`max(${complianceAlerts.raisedAt})`.mapWith(complianceAlerts.raisedAt) })
    .from(complianceAlerts)
    .leftJoin(complianceCases, eq(complianceCases.id, complianceAlerts.caseId))
    .where(
      and(
        eq(complianceAlerts.customerId, customerId),
        eq(complianceAlerts.shadow, false),
        or(isNull(complianceCases.outcome), ne(complianceCases.outcome, "FALSE_POSITIVE")),
      ),
    )
    .groupBy(complianceAlerts.kind);
  const [openCase] = await tx
    .select({ id: complianceCases.id, since: complianceCases.detectedAt })
    .from(complianceCases)
    .where(and(eq(complianceCases.customerId, customerId), ne(complianceCases.state, "CLOSED")));
  const filed = await tx
    .select({ id: suspiciousActivityReports.id, filedAt: suspiciousActivityReports.filedAt })
    .from(suspiciousActivityReports)
    .where(and(eq(suspiciousActivityReports.customerId, customerId), eq(suspiciousActivityReports.status, "FILED")))
    .orderBy(desc(suspiciousActivityReports.filedAt))
    .limit(5);

  const corridorDays = Math.max(0, ...m.factors.map((f) => (f.kind === "corridor" ? f.days : 0)));
  const used = corridorDays
    ? await tx
        .select({ corridor: transfers.corridor, lastAt: sql<Date>`max(${transfers.submittedAt})`.mapWith(transfers.submittedAt) })
        .from(transfers)
        .where(and(eq(transfers.customerId, customerId), gt(transfers.submittedAt, new Date(now.getTime() - corridorDays * DAY))))
        .groupBy(transfers.corridor)
    : [];
  const byCountry = new Map<string, Date>();
  for (const u of used) {
    const country = corridorByCode(u.corridor)?.destinationCountry.alpha2;
    if (country && (!byCountry.has(country) || byCountry.get(country)! < u.lastAt)) byCountry.set(country, u.lastAt);
  }

  const behaviour = m.factors.find((f) => f.kind === "behaviour");
  let volumes: RatingEvidence["volumes"] = [];
  if (behaviour?.kind === "behaviour") {
    const recentFrom = new Date(now.getTime() - behaviour.recentDays * DAY);
    const baselineFrom = new Date(recentFrom.getTime() - behaviour.baselineDays * DAY);
    // Sums as numeric, read back as text: amounts never become floats.
    volumes = await tx
      .select({
        currency: transfers.originCurrency,
        recent: sql<string>`coalesce(sum(${transfers.originAmount}::numeric) filter (where ${transfers.submittedAt} > ${sql.param(recentFrom, transfers.submittedAt)}), 0)::text`,
        baseline: sql<string>`coalesce(sum(${transfers.originAmount}::numeric) filter (where ${transfers.submittedAt} <= ${sql.param(recentFrom, transfers.submittedAt)}), 0)::text`,
      })
      .from(transfers)
      .where(and(eq(transfers.customerId, customerId), gt(transfers.submittedAt, baselineFrom), notInArray(transfers.state, NOT_COUNTED as never[])))
      .groupBy(transfers.originCurrency);
  }
  const profile = (c.profile ?? {}) as Record<string, unknown>;
  return {
    kycStatus: c.kycStatus,
    tier: c.tier,
    nationality: alpha2(profile.nationality),
    residence: alpha2(profile.residenceCountry),
    destinations: [...byCountry].map(([country, lastAt]) => ({ country, lastAt })),
    flags,
    alertKinds,
    openCase: openCase ?? null,
    filedReports: filed.filter((r): r is { id: string; filedAt: Date } => r.filedAt !== null),
    volumes,
  };
}
