import type { ErrorCode } from "@/lib/platform/errors";
import { EX } from "./ids";

/**
 * The error envelope's example for each code, for the reference (lib/interface/api/openapi-responses.ts):
 * the message and details shapes the service sends (spec section 7's details shapes). Codes not
 * listed get a message from the code itself.
 */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  "validation.fieldInvalid": "The request has invalid fields.",
  "validation.fieldMissing": "The request has invalid fields.",
  "validation.fieldFormatInvalid": "The request has invalid fields.",
  "validation.bodyMalformed": "The body is not valid JSON.",
  "validation.contentTypeUnsupported": "Send Content-Type: application/json.",
  "validation.bodyTooLarge": "The body is larger than 1 MiB.",
  "validation.headersTooLarge": "The request headers are larger than 16384 bytes.",
  "validation.payoutMethodConflict": "Send destinationIdentifier or payoutMethodId, not both.",
  "validation.destinationIdentifierMissing": "Send destinationIdentifier or payoutMethodId.",
  "validation.payoutMethodTypeMismatch": "The saved payout method has another methodType.",
  "validation.methodNotAvailableForCorridor": "This payout method is not offered in the corridor.",
  "validation.nationalityNotAccepted": "This nationality is not accepted.",
  "validation.residenceCountryNotAccepted": "This country of residence is not accepted.",
  "auth.identifierInvalid": "Use an email address or an E.164 phone number.",
  "auth.subscriptionKeyInvalid": "Missing or unknown Ocp-Apim-Subscription-Key.",
  "auth.tokenInvalid": "The access token is not valid.",
  "auth.tokenExpired": "The access token has expired: refresh it.",
  "auth.tokenRevoked": "The access token was revoked: log in again.",
  "auth.credentialMismatch": "The identifier or the password is wrong.",
  "auth.sessionExpired": "This flow has expired: start again.",
  "auth.otpInvalid": "The code is wrong.",
  "auth.otpExpired": "The code has expired: request a new one.",
  "auth.rateLimited": "Too many attempts. Try again later.",
  "customer.statusInsufficient": "Complete KYC before this action.",
  "customer.statusBlocking": "The customer cannot use this service. Contact support.",
  "customer.profileLocked": "The profile can no longer be changed.",
  "subscription.spended": "The customer's subscription is suspended.",
  "subscription.closed": "The customer's subscription is closed.",
  "beneficiary.stateInsufficient": "The beneficiary is still being verified.",
  "beneficiary.stateBlocking": "This beneficiary cannot receive transfers.",
  "beneficiary.archived": "The beneficiary is already archived.",
  "beneficiary.archiveBlocked": "The beneficiary has a transfer in progress.",
  "beneficiary.stateInvalid": "The beneficiary is not in a state this decision applies to.",
  "kyc.notRequired": "KYC is already decided for this customer.",
  "kyc.sessionExpired": "The KYC session has expired.",
  "kyc.sessionStateInvalid": "The KYC session is already closed.",
  "quote.expired": "The quote has expired: create a new one.",
  "quote.invalid": "This quote was already accepted.",
  "quote.envelopeBreach": "The quote's price is outside the pricing envelope.",
  "quote.signatureInvalid": "The partner quote's signature does not verify.",
  "quote.bindingMismatch": "The partner quote is bound to another customer.",
  "quote.sequenceGap": "partner_quote_seq is not above the last one used.",
  "quote.amountChanged": "The partner quote's amounts differ from the request.",
  "quote.corridorUnavailable": "No corridor serves this currency pair and payout method.",
  "customer.limitExceeded": "This transfer is over the customer's P1D limit. Providing proof of the source of funds raises the limits.",
  "transfer.stateInvalid": "The transfer is not in a state that allows this.",
  "transfer.quoteExpired": "The quote expired before submission; the transfer is expired.",
  "device.notRegistered": "Register a device key first.",
  "device.deactivated": "The device is deactivated.",
  "device.assertionInvalid": "The device assertion does not verify.",
  "device.assertionLockout": "Too many failed assertions. Try again in 15 minutes.",
  "funding.sessionExpired": "The funding session has expired.",
  "funding.sessionStateInvalid": "The funding session is already closed.",
  "idempotency.conflict": "This Idempotency-Key was used with another request.",
  "route.notFound": "No such route.",
  "server.unexpected": "Something went wrong on our side. Retry with the same Idempotency-Key.",
  "network.unavailable": "The payout network is unavailable. Retry later.",
  "internal.unavailable": "The service is temporarily unavailable. Retry later.",
};

type Extras = { hint?: string; remediation?: string; details?: Record<string, unknown> };

function extrasOf(code: ErrorCode, field: string): Extras {
  if (code.startsWith("validation.") && !["validation.bodyMalformed", "validation.contentTypeUnsupported", "validation.bodyTooLarge"].includes(code)) {
    return { hint: "fix_request", details: { issues: [{ field, code, message: MESSAGES[code] ?? "Invalid value." }] } };
  }
  switch (code) {
    case "customer.statusInsufficient":
      return { remediation: "complete_kyc", details: { currentStatus: "PENDING", remediationHint: "complete_kyc" } };
    case "customer.statusBlocking":
      return { remediation: "contact_support", details: { currentStatus: "BLOCKED", remediationHint: "contact_support" } };
    case "beneficiary.stateInsufficient":
      return {
        remediation: "await_beneficiary_verification",
        details: { beneficiaryId: EX.beneficiaryId, currentState: "PENDING", remediationHint: "await_beneficiary_verification" },
      };
    case "beneficiary.stateBlocking":
      return {
        remediation: "select_different_beneficiary",
        details: { beneficiaryId: EX.beneficiaryId, currentState: "BLOCKED", remediationHint: "select_different_beneficiary" },
      };
    case "quote.expired":
    case "transfer.quoteExpired":
      return { remediation: "retry_later", details: { quoteId: EX.quoteId, quoteExpiredAt: EX.at(1), remediationHint: "retry_later" } };
    case "device.assertionLockout":
      return { remediation: "retry_later", details: { retryAfterSeconds: 900, remediationHint: "retry_later" } };
    case "auth.rateLimited":
      return { hint: "retry_later", remediation: "retry_later", details: { retryAfterSeconds: 1800 } };
    case "customer.limitExceeded":
      return {
        remediation: "provide_source_of_funds",
        details: { window: "P1D", limit: "2999.000000", remaining: "99.000000", currency: "USD", remediationHint: "provide_source_of_funds" },
      };
    case "device.notRegistered":
      return { remediation: "register_device", details: { remediationHint: "register_device" } };
    case "server.unexpected":
    case "internal.unavailable":
    case "network.unavailable":
      return { hint: "retry_later", remediation: "retry_later", details: code === "server.unexpected" ? undefined : { remediationHint: "retry_later" } };
    default:
      return {};
  }
}

/** The envelope a code answers with; `field` names the request field a validation issue points at. */
export function errorExample(code: ErrorCode, field = "originAmount") {
  const { hint, remediation, details } = extrasOf(code, field);
  return {
    error: {
      code,
      message: MESSAGES[code] ?? `${code.replace(/\./g, ": ")}.`,
      hint: hint ?? null,
      remediation: remediation ?? null,
      details: details ?? null,
    },
    correlationId: EX.correlationId,
  };
}
