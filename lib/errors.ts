/**
 * Domain errors: every failure the service reports has a code from spec section 7 (or decisions.md),
 * and the HTTP status of each code is fixed here once (decisions section 8). Domain code throws
 * DomainError; only the HTTP layer turns it into the envelope.
 */

/** Remediation hint identifiers of spec section 7. */
export type RemediationHint =
  | "retry_later"
  | "submit_profile_attributes"
  | "complete_kyc"
  | "contact_support"
  | "register_device"
  | "select_different_beneficiary"
  | "await_beneficiary_verification";

const STATUS_BY_CODE: Record<string, number> = {
  "auth.identifierInvalid": 400,
  "auth.tokenExpired": 401,
  "auth.tokenInvalid": 401,
  "auth.tokenRevoked": 401,
  "auth.credentialMismatch": 401,
  "auth.mfaRequired": 401,
  "auth.sessionExpired": 401,
  "auth.otpInvalid": 401,
  "auth.otpExpired": 401,
  "auth.subscriptionKeyInvalid": 401,
  "customer.statusInsufficient": 403,
  "customer.statusBlocking": 403,
  "subscription.spended": 403,
  "subscription.closed": 403,
  "beneficiary.stateInsufficient": 403,
  "beneficiary.stateBlocking": 403,
  "idempotency.conflict": 409,
  "transfer.stateInvalid": 409,
  "quote.invalid": 422,
  "beneficiary.archived": 409,
  "beneficiary.archiveBlocked": 409,
  "customer.profileLocked": 409,
  "customer.statusInvalid": 409,
  "kyc.notRequired": 409,
  "beneficiary.stateInvalid": 409,
  "kyc.sessionStateInvalid": 409,
  "funding.sessionStateInvalid": 409,
  "refund.stateInvalid": 409,
  "transfer.quoteExpired": 410,
  "kyc.sessionExpired": 410,
  "funding.sessionExpired": 410,
  "device.notRegistered": 412,
  "device.registrationRequired": 412,
  "device.deactivated": 412,
  "validation.contentTypeUnsupported": 415,
  "validation.bodyTooLarge": 413,
  "device.assertionInvalid": 422,
  "auth.rateLimited": 429,
  "device.assertionLockout": 429,
  "server.unexpected": 500,
  "network.unavailable": 502,
  "internal.unavailable": 503,
  "route.notFound": 404,
  "route.methodNotAllowed": 405,
};

/** HTTP status of a code: exact entries first, then the family rules of decisions section 8. */
export function httpStatusOf(code: string): number {
  const exact = STATUS_BY_CODE[code];
  if (exact !== undefined) return exact;
  if (code.endsWith(".notFound")) return 404;
  if (code.startsWith("validation.")) return 400;
  if (code.startsWith("quote.")) return 422;
  if (code.startsWith("device.")) return 422;
  return 500;
}

export interface DomainErrorOptions {
  /** Safe, human-readable explanation; never contains secrets or internal detail. */
  message?: string;
  details?: Record<string, unknown>;
  /** Identifier guiding the partner app (what the integration should do next). */
  hint?: string;
  /** Identifier guiding the customer UX (one of the spec's remediation hints). */
  remediation?: RemediationHint;
  /** Seconds until a retry can succeed; also sent as Retry-After. */
  retryAfterSeconds?: number;
  /**
   * Commit the transaction's writes before answering with this error (a recorded failed login,
   * a transfer moved to expired at submit). Without it, the error rolls everything back.
   */
  keepChanges?: boolean;
  /** Override the HTTP status of the code (for codes whose status depends on the endpoint). */
  status?: number;
}

export class DomainError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly hint: string | undefined;
  readonly remediation: RemediationHint | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly keepChanges: boolean;

  constructor(code: string, options: DomainErrorOptions = {}) {
    super(options.message ?? code);
    this.name = "DomainError";
    this.code = code;
    this.status = options.status ?? httpStatusOf(code);
    this.details = options.details;
    this.hint = options.hint;
    this.remediation = options.remediation;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.keepChanges = options.keepChanges ?? false;
  }
}

/** One field problem, as spec section 7's ValidationIssue: dotted path with bracket indices. */
export interface ValidationIssue {
  field: string;
  code: string;
  message?: string;
}

/** A request that fails validation: the summary code plus one issue per field. */
export function validationError(
  issues: ValidationIssue[],
  // The summary is the issues' common code (as for schema validation), else fieldInvalid.
  code = new Set(issues.map((i) => i.code)).size === 1 ? issues[0].code : "validation.fieldInvalid",
  message = "The request has invalid fields.",
): DomainError {
  return new DomainError(code, { message, details: { issues }, hint: "fix_request" });
}

export function notFound(resource: string, message = `No such ${resource}.`): DomainError {
  return new DomainError(`${resource}.notFound`, { message });
}
