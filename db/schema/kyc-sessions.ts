import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { customers } from "./customers";
import { subscriptions } from "./subscriptions";
import type { Language } from "@/lib/platform/i18n/language";
import type { KycCapture } from "./kyc-capture";

/**
 * What kyc_sessions.verification holds.
 * PENDING: the machine is verifying; APPROVED: cleared without a person; REVIEW: a person decides,
 * `reasons` saying what failed or could not be checked.
 */
export interface KycVerificationRecord {
  status: "PENDING" | "APPROVED" | "REVIEW";
  /** automatic, onfido, onfido-sandbox. */
  provider: string;
  startedAt: string;
  finishedAt?: string;
  /** Milliseconds the machine took (reading, checks, face match). */
  ms?: number;
  checks?: { check: string; passed: boolean; detail: string }[];
  extracted?: Record<string, string | null> | null;
  face?: {
    ran: boolean;
    score?: number;
    threshold?: number;
    matched?: boolean;
    liveness?: { passed: boolean; change: number };
    reason?: string;
    matcher?: string;
  } | null;
  reasons?: string[];
  /** The vendor's own result (clear, consider) and report breakdown, as received. */
  vendor?: { checkId: string; result?: string; reports?: { name: string; result: string | null }[] };
}

/** A provider's verdict on a KYC session (sandbox endpoint and hosted page). */
export const KYC_OUTCOMES = ["APPROVED", "REJECTED", "REMEDIATION_REQUIRED"] as const;

export type KycOutcome = (typeof KYC_OUTCOMES)[number];

/**
 * Why a KYC session was opened: chosen by the service from the KYC status (spec 2.3). ENHANCED
 * (ours) is the step-up of a tier-1 customer whose KYC is COMPLETED: source-of-funds
 * evidence, whose approval moves the customer to tier 2.
 */
export const KYC_SESSION_PURPOSES = ["NEW", "RESUME", "RESUBMISSION", "ENHANCED"] as const;

export type KycSessionPurpose = (typeof KYC_SESSION_PURPOSES)[number];

/** KycSessionState: the states its machine moves (`lib/identity/kyc/session-state-machine.ts`). */
export const KYC_SESSION_STATES = ["CREATED", "IN_PROGRESS", "COMPLETED", "EXPIRED", "FAILED"] as const;

export type KycSessionState = (typeof KYC_SESSION_STATES)[number];

/** A KYC capture session (spec 2.3; states in lib/identity/kyc/session-state-machine.ts). */
export const kycSessions = pgTable(
  "kyc_sessions",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    /** Chosen by the service from the KYC state (spec 2.3). */
    purpose: text("purpose").$type<KycSessionPurpose>().notNull(),
    state: text("state").$type<KycSessionState>().notNull(),
    /** Language of the hosted page: from Accept-Language at creation, else the profile preference. */
    locale: text("locale").$type<Language>().notNull(),
    /** What the customer entered in the hosted page (document type, number masked, country, expiry). */
    capture: jsonb("capture").$type<KycCapture & { capturedAt: string }>(),
    /** Set once decided. */
    outcome: text("outcome").$type<KycOutcome>(),
    /**
     * Operator mode: when the customer submitted the capture for review. A submitted session waits
     * in the console's KYC review queue and no longer expires (the customer's part is done).
     */
    submittedAt: tstz("submitted_at"),
    /** Operator mode: the reviewer's reason; for REMEDIATION_REQUIRED it is shown on the next capture. */
    decisionReason: text("decision_reason"),
    /**
     * The machine's verification (automatic or vendor): PENDING while it runs (the session is not
     * in the review queue yet), then every check's result, the fields read from the document and
     * the face-match score; REVIEW sends it to the queue with its reasons. Null: operators only.
     */
    verification: jsonb("verification").$type<KycVerificationRecord>(),
    /** The vendor's check id (KYC_DECISION_PROVIDER=onfido): its result webhook names it. */
    vendorCheckId: text("vendor_check_id"),
    openedAt: tstz("opened_at").notNull(),
    closedAt: tstz("closed_at"),
    /** 24 hours after openedAt (spec 8). */
    expiresAt: tstz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  // Session creation looks for the customer's in-progress session.
  (t) => [
    index("kyc_sessions_customer_idx").on(t.customerId, t.state),
    // The vendor's result webhook finds its session by check id.
    uniqueIndex("kyc_sessions_vendor_check_idx").on(t.vendorCheckId),
  ],
);
