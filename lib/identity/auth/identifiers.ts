import { parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "zod";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { type IdentifierType } from "@/db/schema/login-identifiers";
export { IDENTIFIER_TYPES, type IdentifierType } from "@/db/schema/login-identifiers";

export interface LoginIdentifier {
  type: IdentifierType;
  /** Normalised: lower-case email, or E.164 phone. */
  value: string;
}

const email = z.email();

/** An email address or an E.164 phone number (decisions section 3), normalised; else auth.identifierInvalid. */
export function parseIdentifier(raw: string): LoginIdentifier {
  const trimmed = raw.trim();
  if (trimmed.startsWith("+")) {
    const phone = parsePhoneNumberFromString(trimmed);
    if (phone?.isValid()) return { type: "PHONE", value: phone.number };
  } else if (trimmed.length <= 254 && email.safeParse(trimmed).success) {
    return { type: "EMAIL", value: trimmed.toLowerCase() };
  }
  throw new DomainError("auth.identifierInvalid", {
    message: "The identifier must be an email address or a phone number in E.164 form (+14155550123).",
    details: { issues: [{ field: "identifier", code: "auth.identifierInvalid" }] },
    hint: "fix_request",
  });
}

const ONLY = { EMAIL: "email addresses", PHONE: "phone numbers in E.164 form (+14155550123)" } as const;

/**
 * parseIdentifier, for an identifier a customer gives (register, login, password reset): its type
 * must also be one this service accepts (LOGIN_IDENTIFIER_TYPES), else the same
 * auth.identifierInvalid, saying what is accepted. Nothing is looked up first, so the answer
 * reveals nothing about who is registered.
 */
export function parseAcceptedIdentifier(raw: string): LoginIdentifier {
  const identifier = parseIdentifier(raw);
  const accepted = config().LOGIN_IDENTIFIER_TYPES;
  if (accepted.includes(identifier.type)) return identifier;
  throw new DomainError("auth.identifierInvalid", {
    message: `This service accepts ${accepted.map((t) => ONLY[t]).join(" or ")} only.`,
    details: { issues: [{ field: "identifier", code: "auth.identifierInvalid" }] },
    hint: "fix_request",
  });
}

/** For IdentifierSummary and logs: keeps enough to recognise, hides the rest. */
export function maskIdentifier(id: LoginIdentifier): string {
  if (id.type === "PHONE") return `${"*".repeat(Math.max(0, id.value.length - 4))}${id.value.slice(-4)}`;
  const [local, domain] = id.value.split("@");
  return `${local.slice(0, 1)}***@${domain}`;
}
