/**
 * What kyc_sessions.verification holds (a leaf module: the table types its column with it).
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
