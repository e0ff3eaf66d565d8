import { DomainError } from "@/lib/platform/errors";

/**
 * quote.signatureInvalid (spec 5.4 and 7) for every token, header, key and signature failure.
 * details name the failed check only: never key material, token content or library messages.
 */
export function signatureInvalid(failedCheck: string): DomainError {
  return new DomainError("quote.signatureInvalid", {
    message: "The signed quote could not be verified.",
    details: { failedCheck },
  });
}
