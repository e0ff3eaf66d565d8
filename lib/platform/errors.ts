/**
 * Domain errors: every failure the service reports has a code from spec section 7 (or our additions
 * in docs/decisions.md), and the HTTP status of each code is fixed here once, in one table
 * (decisions section 8). The table's keys are the ErrorCode union, so a misspelt code in a
 * DomainError or a contract fails to compile. Domain code throws DomainError; only the HTTP layer
 * turns it into the envelope.
 */

/** Remediation hint identifiers of spec section 7. */
export type RemediationHint =
  | "retry_later"
  | "submit_profile_attributes"
  | "complete_kyc"
  | "contact_support"
  | "register_device"
  | "select_different_beneficiary"
  | "await_beneficiary_verification"
  /** Ours: a rolling limit was reached; source-of-funds evidence (ENHANCED KYC) raises it. */
  | "provide_source_of_funds";

/**
 * Every code and its status. A pair is [default, alternative] for the two codes decisions 8 gives
 * two statuses: quote.invalid is 422 at create and accept, 409 on reuse; quote.expired is 422 at
 * create and accept, 410 on reads. The alternative is chosen here, when the error is made, and
 * nowhere else (defaultStatusOf below, or DomainErrorOptions.status): the HTTP layer answers
 * err.status as it is.
 */
export const ERROR_STATUS = {
  // 400: validation.* except contentTypeUnsupported (and bodyTooLarge, headersTooLarge, ours), auth.identifierInvalid
  "validation.fieldInvalid": 400,
  "validation.fieldMissing": 400,
  "validation.fieldUnknown": 400,
  "validation.fieldFormatInvalid": 400,
  "validation.bodyMalformed": 400,
  "validation.payoutMethodConflict": 400,
  "validation.destinationIdentifierMissing": 400,
  "validation.payoutMethodTypeMismatch": 400,
  "validation.methodNotAvailableForCorridor": 400,
  "validation.nationalityNotAccepted": 400,
  "validation.residenceCountryNotAccepted": 400,
  "auth.identifierInvalid": 400,
  // 401
  "auth.tokenExpired": 401,
  "auth.tokenInvalid": 401,
  "auth.tokenRevoked": 401,
  "auth.credentialMismatch": 401,
  "auth.mfaRequired": 401,
  "auth.sessionExpired": 401,
  "auth.otpInvalid": 401,
  "auth.otpExpired": 401,
  "auth.subscriptionKeyInvalid": 401,
  // 403
  "customer.statusInsufficient": 403,
  "customer.statusBlocking": 403,
  "subscription.spended": 403,
  "subscription.closed": 403,
  "beneficiary.stateInsufficient": 403,
  "beneficiary.stateBlocking": 403,
  // 403 (ours): console: the author of a rule set may not activate it (a second operator does)
  "ruleSet.authorMayNotActivate": 403,
  // 404: *.notFound (also for another customer's resource)
  "apiKey.notFound": 404,
  "bankCredit.notFound": 404,
  // 404 (ours): console: no such manual journal or statement balance
  "journal.notFound": 404,
  "statementBalance.notFound": 404,
  "beneficiary.notFound": 404,
  "customer.notFound": 404,
  "device.notFound": 404,
  "deviceRegistration.notFound": 404,
  "event.notFound": 404,
  "fundingSession.notFound": 404,
  "kycSession.notFound": 404,
  "otp.notFound": 404,
  "partner.notFound": 404,
  "quote.notFound": 404,
  "registration.notFound": 404,
  "route.notFound": 404,
  "subscription.notFound": 404,
  "transfer.notFound": 404,
  // 404 (ours): console only
  "screeningCase.notFound": 404,
  // 404 (ours): console only
  "complianceCase.notFound": 404,
  "suspiciousActivityReport.notFound": 404,
  "riskFlag.notFound": 404,
  // 404 (ours): console only
  "proposal.notFound": 404,
  "ruleSet.notFound": 404,
  // 404 (ours): an error claim of another transfer, or none such (console)
  "claim.notFound": 404,
  // 405 (ours): wrong method, with Allow
  "route.methodNotAllowed": 405,
  // 409
  "idempotency.conflict": 409,
  "transfer.stateInvalid": 409,
  "beneficiary.archived": 409,
  "beneficiary.archiveBlocked": 409,
  "customer.profileLocked": 409,
  // 409 (ours): KYC already decided, and the transition tables' refusals
  "kyc.notRequired": 409,
  "customer.statusInvalid": 409,
  "beneficiary.stateInvalid": 409,
  "kyc.sessionStateInvalid": 409,
  "funding.sessionStateInvalid": 409,
  "refund.stateInvalid": 409,
  "webhookEndpoint.stateInvalid": 409,
  // 409 (ours): a bank credit already resolved; bank transfer for a currency the collection account does not take
  "bankCredit.stateInvalid": 409,
  // 409 (ours): console: a screening case already decided
  "screeningCase.stateInvalid": 409,
  // 409 (ours): console: a hold a screening case owns resolved outside it; a release
  // under licence of a transfer with no money in blocked:sanctions (or of a case not confirmed)
  "screeningCase.holdsTransfer": 409,
  "screeningCase.nothingBlocked": 409,
  // 409 (ours): console: a compliance case or a suspicious-activity report already moved on,
  // a risk flag already cleared
  "complianceCase.stateInvalid": 409,
  "suspiciousActivityReport.stateInvalid": 409,
  "riskFlag.stateInvalid": 409,
  // 409 (ours): console: a PEP's transfer approved out of review before an admin approved the
  // PEP; a PEP approved before their ENHANCED KYC; 403: a report approved by one of its authors
  "pep.approvalPending": 409,
  "pep.enhancedKycRequired": 409,
  "suspiciousActivityReport.selfApproval": 403,
  // 409 (ours): console: a proposal already decided or lapsed, one already open for the
  // same action and subject; 403: its author (or an operator without the action's role) approving it
  "proposal.stateInvalid": 409,
  "proposal.duplicate": 409,
  "proposal.selfApproval": 403,
  "proposal.roleInsufficient": 403,
  // 409 (ours): console: a rule set moved out of the state the action needs
  "ruleSet.stateInvalid": 409,
  // 409 (ours): console: a posting dated in a closed month; a period, manual journal or
  // statement difference already moved
  "ledger.periodClosed": 409,
  "ledgerPeriod.stateInvalid": 409,
  // 409 (ours): console: closing the running month (one that has not ended)
  "ledgerPeriod.notEnded": 409,
  "journal.stateInvalid": 409,
  "reconciliation.stateInvalid": 409,
  // 409 (ours): a partner-fee payment above what the partner is owed in that currency
  "ledger.partnerFeesExceeded": 409,
  "funding.methodUnavailable": 409,
  // 409 (ours): console: a claim already resolved
  "claim.stateInvalid": 409,
  // 409 (ours): a claim of that type already unresolved on the transfer
  "claim.alreadyOpen": 409,
  // 410
  "transfer.quoteExpired": 410,
  "kyc.sessionExpired": 410,
  "funding.sessionExpired": 410,
  // 412
  "device.notRegistered": 412,
  "device.registrationRequired": 412,
  "device.deactivated": 412,
  // 413 (ours): the body is over the limit
  "validation.bodyTooLarge": 413,
  // 415
  "validation.contentTypeUnsupported": 415,
  // 431 (ours): request headers over Node's 16 KiB limit, answered by lib/platform/http/request-guard.ts
  "validation.headersTooLarge": 431,
  // 422: quote.* at create and accept (quote.corridorUnavailable is ours), device.assertionInvalid
  "quote.invalid": [422, 409],
  "quote.expired": [422, 410],
  "quote.envelopeBreach": 422,
  "quote.signatureInvalid": 422,
  "quote.bindingMismatch": 422,
  "quote.sequenceGap": 422,
  "quote.amountChanged": 422,
  "quote.corridorUnavailable": 422,
  "device.assertionInvalid": 422,
  // 422 (ours): an error claim more than 180 days after the date available
  "claim.windowClosed": 422,
  // 422 (ours): the accept would take the customer over a rolling limit of their tier
  "customer.limitExceeded": 422,
  // 429
  "auth.rateLimited": 429,
  "device.assertionLockout": 429,
  // 500 / 502 / 503
  "server.unexpected": 500,
  "network.unavailable": 502,
  "internal.unavailable": 503,
} as const satisfies Record<string, number | readonly [number, number]>;

type StatusTable = typeof ERROR_STATUS;
export type ErrorCode = keyof StatusTable;
/** The statuses a code may answer with (one for all but the two pairs above). */
export type StatusOf<C extends ErrorCode> = StatusTable[C] extends readonly (infer N)[] ? N : StatusTable[C];
/** Resources with a `<resource>.notFound` code (for notFound()). */
export type NotFoundResource = ErrorCode extends infer C ? (C extends `${infer R}.notFound` ? R : never) : never;
/** The validation.* codes: summary codes and per-field issue codes. */
export type ValidationCode = Extract<ErrorCode, `validation.${string}`>;

/** Default HTTP status of a code. */
export function httpStatusOf(code: ErrorCode): number {
  const status: number | readonly number[] = ERROR_STATUS[code];
  return typeof status === "number" ? status : status[0];
}

/** Every status a code may answer with (default first). */
export function statusesOf(code: ErrorCode): readonly number[] {
  const status: number | readonly number[] = ERROR_STATUS[code];
  return typeof status === "number" ? [status] : status;
}

/**
 * quote.invalid is 409 when the quote (or its quote_id / jti) was already used (decisions 8:
 * "quote.invalid (reuse)"): the failed check says so, so no caller has to pick the status.
 */
const REUSE_CHECKS = new Set(["reuse", "alreadyAccepted"]);

function defaultStatusOf(code: ErrorCode, details: Record<string, unknown> | undefined): number {
  if (code === "quote.invalid" && REUSE_CHECKS.has(String(details?.failedCheck))) return 409;
  return httpStatusOf(code);
}

export interface DomainErrorOptions<C extends ErrorCode = ErrorCode> {
  /** Safe, human-readable explanation; never contains secrets or internal detail. */
  message?: string;
  details?: Record<string, unknown>;
  /** Identifier guiding the partner app (what the integration should do next). */
  hint?: string;
  /** Identifier guiding the customer UX (one of the spec's remediation hints); also details.remediationHint. */
  remediation?: RemediationHint;
  /** Seconds until a retry can succeed; also sent as Retry-After. */
  retryAfterSeconds?: number;
  /**
   * Commit the transaction's writes before answering with this error (a recorded failed login,
   * a transfer moved to expired at submit). Without it, the error rolls everything back.
   */
  keepChanges?: boolean;
  /** The other status of a code that has two in the table (quote.invalid on reuse, quote.expired on reads). */
  status?: StatusOf<C>;
}

export class DomainError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly hint: string | undefined;
  readonly remediation: RemediationHint | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly keepChanges: boolean;

  constructor(code: C, options: DomainErrorOptions<NoInfer<C>> = {}) {
    super(options.message ?? code);
    this.name = "DomainError";
    this.code = code;
    this.status = (options.status as number | undefined) ?? defaultStatusOf(code, options.details);
    // Spec 7's details shapes carry the remediation hint too (RemediationHintDetails and kin).
    this.details = options.remediation ? { ...options.details, remediationHint: options.remediation } : options.details;
    this.hint = options.hint;
    this.remediation = options.remediation;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.keepChanges = options.keepChanges ?? false;
  }

  /** The same error (every field kept), committing the transaction's writes before it answers. */
  keepingChanges(): DomainError<C> {
    const { message, details, hint, remediation, retryAfterSeconds } = this;
    return new DomainError(this.code, { message, details, hint, remediation, retryAfterSeconds, status: this.status as StatusOf<C>, keepChanges: true });
  }
}

/** One field problem, as spec section 7's ValidationIssue: dotted path with bracket indices. */
export interface ValidationIssue {
  field: string;
  code: ValidationCode;
  message?: string;
}

/** A request that fails validation: the summary code plus one issue per field. */
export function validationError(
  issues: ValidationIssue[],
  // The summary is the issues' common code (as for schema validation), else fieldInvalid.
  code: ValidationCode = new Set(issues.map((i) => i.code)).size === 1 ? issues[0].code : "validation.fieldInvalid",
  message = "The request has invalid fields.",
): DomainError {
  return new DomainError(code, { message, details: { issues }, hint: "fix_request" });
}

export function notFound(resource: NotFoundResource, message = `No such ${resource}.`): DomainError {
  return new DomainError(`${resource}.notFound`, { message });
}

/** Anything that is not a DomainError becomes server.unexpected: no stack, no SQL, no message. */
export function unexpected(): DomainError {
  return new DomainError("server.unexpected", {
    message: "Something went wrong on our side. Retry with the same Idempotency-Key.",
    hint: "retry_later",
    remediation: "retry_later",
  });
}

/** The database cannot be reached or refuses work for now: 503 with Retry-After, a temporary problem the client retries (spec 7). */
export function unavailable(): DomainError {
  return new DomainError("internal.unavailable", {
    message: "The service is temporarily unavailable. Retry later.",
    hint: "retry_later",
    remediation: "retry_later",
    retryAfterSeconds: 5,
  });
}
