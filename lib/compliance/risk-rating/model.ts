/**
 * The customer risk rating as data (data/risk-rating/factors.json) and the pure rating: the
 * factors that hold for a customer's evidence, their points and floors, the rating they give, and
 * whether an analyst's override stands over it. Nothing here reads the database (./evidence.ts
 * does); the same evidence always gives the same rating.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { Decimal, isWireDecimal } from "@/lib/platform/money/decimal";
import { readHighRiskFile } from "@/lib/compliance/monitoring/rule-set";
import { RATINGS, type Rating, type RatingReason, type RatingOverride } from "@/db/schema/customer-risk-ratings";
export { RATINGS, type Rating, type RatingReason, type RatingOverride } from "@/db/schema/customer-risk-ratings";

const RANK: Record<Rating, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };
export const higher = (a: Rating, b: Rating): Rating => (RANK[b] > RANK[a] ? b : a);

const Decimalish = z.string().refine(isWireDecimal, "a decimal string");
const base = {
  id: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/)
    .max(64),
  description: z.string().min(1).max(300),
  points: z.number().int().min(0).max(1000),
  /** The rating this factor makes the customer at least, whatever the points. */
  floor: z.enum(RATINGS).optional(),
};

const FactorSchema = z.discriminatedUnion("kind", [
  z.strictObject({ ...base, kind: z.literal("kycIncomplete") }),
  z.strictObject({ ...base, kind: z.literal("tier"), tier: z.number().int().min(1).max(2) }),
  z.strictObject({ ...base, kind: z.literal("nationality") }),
  z.strictObject({ ...base, kind: z.literal("residence") }),
  z.strictObject({ ...base, kind: z.literal("corridor"), days: z.number().int().min(1).max(730) }),
  /** A standing PEP flag, or an alert of one of these kinds on a case not cleared as a false positive. */
  z.strictObject({ ...base, kind: z.literal("pep"), alertKinds: z.array(z.string().min(1).max(64)).max(10) }),
  z.strictObject({ ...base, kind: z.literal("openCase") }),
  z.strictObject({ ...base, kind: z.literal("filedReport") }),
  z.strictObject({ ...base, kind: z.literal("riskFlag"), flag: z.string().min(1).max(64) }),
  z.strictObject({
    ...base,
    kind: z.literal("behaviour"),
    recentDays: z.number().int().min(1).max(365),
    baselineDays: z.number().int().min(1).max(730),
    ratio: Decimalish,
    minimum: Decimalish,
  }),
]);
export type Factor = z.infer<typeof FactorSchema>;

export const RatingModelSchema = z
  .strictObject({
    $comment: z.string().optional(),
    bands: z.strictObject({ MEDIUM: z.number().int().min(1), HIGH: z.number().int().min(1) }),
    extraHighRiskCountries: z.array(z.string().regex(/^[A-Z]{2}$/)),
    factors: z.array(FactorSchema).min(1).max(50),
    monitoring: z.strictObject({
      LOW: z.strictObject({ reviewThresholdRatio: Decimalish }),
      MEDIUM: z.strictObject({ reviewThresholdRatio: Decimalish }),
      HIGH: z.strictObject({ reviewThresholdRatio: Decimalish }),
    }),
    overrideDays: z.number().int().min(1).max(730),
  })
  .superRefine((m, ctx) => {
    if (m.bands.HIGH <= m.bands.MEDIUM) ctx.addIssue({ code: "custom", path: ["bands", "HIGH"], message: "HIGH must be above MEDIUM" });
    const ids = new Set<string>();
    m.factors.forEach((f, i) => {
      if (ids.has(f.id)) ctx.addIssue({ code: "custom", path: ["factors", i, "id"], message: `duplicate factor ${f.id}` });
      ids.add(f.id);
    });
  });
export type RatingModel = z.infer<typeof RatingModelSchema> & { highRiskCountries: ReadonlySet<string> };

let loaded: RatingModel | undefined;

/** The shipped model, with the FATF lists as its high-risk countries; a bad file stops the process. */
export function ratingModel(): RatingModel {
  if (loaded) return loaded;
  const raw = JSON.parse(readFileSync(path.join(process.cwd(), "data/risk-rating/factors.json"), "utf8"));
  const parsed = RatingModelSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`data/risk-rating/factors.json: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const fatf = readHighRiskFile();
  const countries = [...fatf.callForAction, ...fatf.increasedMonitoring].map((c) => c.alpha2);
  return (loaded = { ...parsed.data, highRiskCountries: new Set([...countries, ...parsed.data.extraHighRiskCountries]) });
}

/** What the rating reads about a customer (./evidence.ts gathers it). Countries alpha-2. */
export interface RatingEvidence {
  kycStatus: string;
  tier: number;
  nationality: string | null;
  residence: string | null;
  /** Destination countries of the customer's transfers with the latest submit time, over the longest corridor window. */
  destinations: { country: string; lastAt: Date }[];
  /** Standing risk flags (PEP included) and when each was set. */
  flags: { flag: string; since: Date }[];
  /** Alerts not cleared as a false positive, by kind, with the latest raise. */
  alertKinds: { kind: string; since: Date }[];
  openCase: { id: string; since: Date } | null;
  /** Filed reports, newest first. */
  filedReports: { id: string; filedAt: Date }[];
  /** Per origin currency: sums of the recent window and of the baseline window before it (behaviour factors share one window pair). */
  volumes: { currency: string; recent: string; baseline: string }[];
}

export interface Rated {
  /** What the factors give. */
  computed: Rating;
  /** What stands: the override while it stands, else the computed rating. */
  rating: Rating;
  score: number;
  reasons: RatingReason[];
  /** The override standing over the computed rating, if any. */
  override: RatingOverride | null;
}

const iso = (d: Date) => d.toISOString();

function holds(
  f: Factor,
  e: RatingEvidence,
  m: RatingModel,
  ctx: { now: Date; reviewedAt: Date | null },
): Omit<RatingReason, "factor" | "description" | "points" | "floor"> | null {
  switch (f.kind) {
    case "kycIncomplete":
      return e.kycStatus === "COMPLETED" ? null : { detail: `KYC ${e.kycStatus}` };
    case "tier":
      return e.tier === f.tier ? { detail: `tier ${e.tier}` } : null;
    case "nationality":
      return e.nationality && m.highRiskCountries.has(e.nationality) ? { detail: `nationality ${e.nationality}` } : null;
    case "residence":
      return e.residence && m.highRiskCountries.has(e.residence) ? { detail: `residence ${e.residence}` } : null;
    case "corridor": {
      const from = ctx.now.getTime() - f.days * 86_400_000;
      const hit = e.destinations.filter((d) => m.highRiskCountries.has(d.country) && d.lastAt.getTime() > from);
      if (!hit.length) return null;
      const last = new Date(Math.max(...hit.map((d) => d.lastAt.getTime())));
      return { detail: `sent to ${hit.map((d) => d.country).join(", ")}`, since: iso(last) };
    }
    case "pep": {
      const flag = e.flags.find((x) => x.flag === "PEP");
      const alert = e.alertKinds.find((a) => f.alertKinds.includes(a.kind));
      if (!flag && !alert) return null;
      const since = new Date(Math.max(...[flag?.since, alert?.since].filter((d): d is Date => !!d).map((d) => d.getTime())));
      return { detail: [flag && "PEP flag standing", alert && `${alert.kind} alert`].filter(Boolean).join("; "), since: iso(since) };
    }
    case "openCase":
      return e.openCase ? { detail: `case ${e.openCase.id}`, since: iso(e.openCase.since) } : null;
    case "filedReport": {
      // Reviewed: an override approved after the filing says what the customer is now.
      const unreviewed = e.filedReports.filter((r) => !ctx.reviewedAt || r.filedAt > ctx.reviewedAt);
      return unreviewed.length ? { detail: `report ${unreviewed[0].id} filed`, since: iso(unreviewed[0].filedAt) } : null;
    }
    case "riskFlag": {
      const flag = e.flags.find((x) => x.flag === f.flag);
      return flag ? { detail: `${f.flag} flag standing`, since: iso(flag.since) } : null;
    }
    case "behaviour": {
      const months = new Decimal(f.baselineDays).div(f.recentDays);
      for (const v of e.volumes) {
        const recent = new Decimal(v.recent);
        const average = new Decimal(v.baseline).div(months);
        if (average.isZero() || recent.lt(f.minimum)) continue;
        if (recent.gte(average.mul(f.ratio))) {
          return { detail: `${recent.toFixed(2)} ${v.currency} in ${f.recentDays} days against an average of ${average.toFixed(2)} ${v.currency}` };
        }
      }
      return null;
    }
  }
}

/** The rating of the evidence, with the override kept while it stands (unexpired, no newer floor). */
export function rate(e: RatingEvidence, m: RatingModel, ctx: { now: Date; override: RatingOverride | null; reviewedAt: Date | null }): Rated {
  const reasons: RatingReason[] = [];
  for (const f of m.factors) {
    const held = holds(f, e, m, ctx);
    if (held) reasons.push({ factor: f.id, description: f.description, points: f.points, ...(f.floor ? { floor: f.floor } : {}), ...held });
  }
  const score = reasons.reduce((sum, r) => sum + r.points, 0);
  let computed: Rating = score >= m.bands.HIGH ? "HIGH" : score >= m.bands.MEDIUM ? "MEDIUM" : "LOW";
  for (const r of reasons) if (r.floor) computed = higher(computed, r.floor);
  const o = ctx.override;
  const stands =
    o !== null &&
    new Date(o.expiresAt) > ctx.now &&
    !reasons.some((r) => r.floor && RANK[r.floor] > RANK[o.rating] && r.since !== undefined && new Date(r.since) > new Date(o.at));
  return { computed, rating: stands ? o.rating : computed, score, reasons, override: stands ? o : null };
}

/** The share of a corridor's review threshold at which a customer of this rating goes to review. */
export function reviewThresholdRatio(rating: Rating | null | undefined): Decimal {
  return new Decimal(ratingModel().monitoring[rating ?? "LOW"].reviewThresholdRatio);
}
