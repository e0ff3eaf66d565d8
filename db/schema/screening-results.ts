import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** Why a match was reported: what lib/compliance/screening stores with the subject for operators. */
export interface ScreeningEvidence {
  /** The list ("ofac-sdn", "ofac-consolidated", "un-consolidated", or "sandbox-watchlist" for the sandbox magic names). */
  list: string;
  /** The list's name as an operator reads it ("OFAC SDN", "UN Security Council Consolidated List"); absent on older rows. */
  listName?: string;
  listVersionId: string | null;
  entryId: string;
  /** The list's reference for the entry besides its number (UN "CDi.001"), when it has one. */
  reference?: string | null;
  /** The entry's published name, and the name or alias that matched. */
  entryName: string;
  matchedName: string;
  matchedAlias: boolean;
  /** Programs (OFAC) or regimes (UN) the entry is listed under. */
  programs: string[];
  /** Similarity after the date-of-birth and nationality adjustments, 0..1 as a decimal string. */
  score: string;
  result: "CLOSE_MATCH" | "HIT";
  /** The subject's fields that agreed with the entry, and those that differed. */
  agreed: string[];
  differed: string[];
}

/**
 * Every screening of a customer profile or a beneficiary, with its evidence (console only: never
 * returned through the partner API). The newest row per subject is its current evidence.
 */
export const screeningResults = pgTable(
  "screening_results",
  {
    id: text("id").primaryKey(),
    /** customer or beneficiary. */
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    result: text("result").notNull(),
    /** The list versions screened against (list key → version id). */
    listVersions: jsonb("list_versions").$type<Record<string, string>>().notNull(),
    /** The best matches, strongest first (empty when CLEAR). */
    evidence: jsonb("evidence").$type<ScreeningEvidence[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("screening_results_subject_idx").on(t.subjectType, t.subjectId, t.createdAt)],
);
