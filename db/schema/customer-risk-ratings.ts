import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { customers } from "./customers";

/** Rating (its rules: `lib/compliance/risk-rating/model.ts`). */
export const RATINGS = ["LOW", "MEDIUM", "HIGH"] as const;

export type Rating = (typeof RATINGS)[number];

/** Why a factor held: shown on the console, kept in the history. */
export interface RatingReason {
  factor: string;
  description: string;
  points: number;
  floor?: Rating;
  detail: string;
  /** When its evidence arose (a floor newer than an override replaces it). */
  since?: string;
}

export interface RatingOverride {
  rating: Rating;
  reason: string;
  proposedBy: string | null;
  approvedBy: string;
  at: string;
  expiresAt: string;
}

/**
 * A customer's risk rating as it stands (lib/compliance/risk-rating): what the factors give (computed), what
 * stands (rating: an analyst's override while it stands, else computed), the points and the reasons,
 * one row per customer, rewritten by each recompute. The fast-check reads `rating` beside
 * monitoring's aggregates. Console only: never read by the partner API, webhooks or webviews.
 */
export const customerRiskRatings = pgTable("customer_risk_ratings", {
  customerId: text("customer_id")
    .primaryKey()
    .references(() => customers.id),
  rating: text("rating").$type<Rating>().notNull(),
  computedRating: text("computed_rating").$type<Rating>().notNull(),
  score: integer("score").notNull(),
  reasons: jsonb("reasons").$type<RatingReason[]>().notNull(),
  /** The analyst's override (dual control) while it stands; null once it lapses or a newer floor replaces it. */
  override: jsonb("override").$type<RatingOverride>(),
  /** When an override was last approved: a report filed before it counts as reviewed. */
  reviewedAt: tstz("reviewed_at"),
  computedAt: tstz("computed_at").notNull(),
  createdAt: createdAt(),
});

/**
 * Every change of a customer's rating or of its reasons, append-only: what stood before and after,
 * why it was recomputed (cause) and by whom (an override's approver).
 */
export const customerRiskRatingHistory = pgTable(
  "customer_risk_rating_history",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    previousRating: text("previous_rating").$type<Rating>(),
    rating: text("rating").$type<Rating>().notNull(),
    computedRating: text("computed_rating").$type<Rating>().notNull(),
    score: integer("score").notNull(),
    reasons: jsonb("reasons").$type<RatingReason[]>().notNull(),
    override: jsonb("override").$type<RatingOverride>(),
    /** What asked for the recompute (e.g. "case.opened", "report.filed", "override"). */
    cause: text("cause").notNull(),
    createdAt: createdAt(),
  },
  // The customer's page lists the history newest first.
  (t) => [index("customer_risk_rating_history_customer_idx").on(t.customerId, t.createdAt)],
);
