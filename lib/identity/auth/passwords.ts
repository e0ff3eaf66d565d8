import { hash, verify } from "@node-rs/argon2";
import { DomainError } from "@/lib/platform/errors";

/**
 * Passwords are hashed with argon2id (@node-rs/argon2, OWASP's first choice, memory-hard), at the
 * library's defaults: 19 MiB, 2 iterations.
 */
export const MIN_PASSWORD_LENGTH = 12;

export function assertPasswordPolicy(password: string, field = "password"): void {
  if ([...password].length < MIN_PASSWORD_LENGTH || password.length > 256) {
    throw new DomainError("validation.fieldInvalid", {
      message: `The password must have between ${MIN_PASSWORD_LENGTH} and 256 characters.`,
      details: { issues: [{ field, code: "validation.fieldInvalid", message: `At least ${MIN_PASSWORD_LENGTH} characters.` }] },
      hint: "fix_request",
    });
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verifying against a fixed hash when the account is unknown keeps the timing of both answers alike.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    await verify(await (dummyHash ??= hash("not-a-real-password-0000")), password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
