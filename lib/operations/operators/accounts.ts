/**
 * Operator accounts a regulator accepts (docs/decisions.md "Operator accounts"):
 * a TOTP second factor (RFC 6238, the `otpauth` package) with recovery codes, password change,
 * one-time reset links an admin makes for another operator (shown once, only their sha256 kept),
 * disable and enable. Raising `session_epoch` ends the operator's console sessions at once (the
 * console compares it on every request: lib/operations/console/session.ts). Every change is audited, through
 * the unit of work's effects. Nothing here knows of HTTP or next-auth.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { operatorResetLinks, operators } from "@/db/schema";
import { assertPasswordPolicy, hashPassword, verifyPassword } from "@/lib/identity";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { randomToken, sha256Hex } from "@/lib/platform/crypto/hash";
import { DomainError, validationError } from "@/lib/platform/errors";
import { effectsOf } from "@/lib/platform/unit-of-work";
import type { Operator } from "./records";

export type OperatorRow = typeof operators.$inferSelect;

export const TOTP_ISSUER = "Remit Console";
const TOTP_PERIOD = 30;
export const RECOVERY_CODE_COUNT = 10;
/** A reset link is good for a day, once. */
export const RESET_LINK_TTL_SECONDS = 24 * 3600;
/** The cipher's context for the TOTP secret (the same keys as other encrypted fields). */
const SECRET_CONTEXT = "operator.totp";

const fieldError = (field: string, message: string) =>
  validationError([{ field, code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);

export async function lockOperatorRow(tx: Tx, operatorId: string): Promise<OperatorRow> {
  const [row] = await tx.select().from(operators).where(eq(operators.id, operatorId)).for("update");
  if (!row) throw fieldError("operatorId", "No such operator.");
  return row;
}

/**
 * Whether the operator must have a second factor before using the console: always in production;
 * in sandbox when CONSOLE_TOTP_REQUIRED is set, the seeded sandbox operator excepted (so a fresh
 * sandbox stays one password away).
 */
export function secondFactorRequired(
  row: Pick<OperatorRow, "email">,
  c: Pick<ReturnType<typeof config>, "sandbox" | "CONSOLE_TOTP_REQUIRED" | "OPERATOR_EMAIL"> = config(),
): boolean {
  if (!c.sandbox) return true;
  return c.CONSOLE_TOTP_REQUIRED && row.email !== c.OPERATOR_EMAIL?.toLowerCase();
}

function totpOf(secretBase32: string, email: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label: email, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD, secret: Secret.fromBase32(secretBase32) });
}

async function secretOf(db: Executor, row: OperatorRow): Promise<string | null> {
  return row.totpSecret ? (await destinationCipher(db)).decrypt(row.totpSecret, SECRET_CONTEXT) : null;
}

/** The pending (not yet confirmed) secret as an otpauth:// URI, creating one when there is none. */
export async function beginEnrolment(tx: Tx, operatorId: string): Promise<{ uri: string; secret: string }> {
  const row = await lockOperatorRow(tx, operatorId);
  if (row.totpEnrolledAt) throw fieldError("code", "A second factor is already set up.");
  let secret = await secretOf(tx, row);
  if (!secret) {
    secret = new Secret({ size: 20 }).base32;
    const stored = (await destinationCipher(tx)).encrypt(secret, SECRET_CONTEXT);
    await tx.update(operators).set({ totpSecret: stored }).where(eq(operators.id, row.id));
  }
  return { uri: totpOf(secret, row.email).toString(), secret };
}

/** The pending secret's URI, for the enrolment page (read only: null before beginEnrolment). */
export async function pendingEnrolment(db: Executor, row: OperatorRow): Promise<{ uri: string; secret: string } | null> {
  if (row.totpEnrolledAt) return null;
  const secret = await secretOf(db, row);
  return secret ? { uri: totpOf(secret, row.email).toString(), secret } : null;
}

/** The 30-second step a code is good for now (one step of drift either way), or null. */
function acceptedStep(secret: string, email: string, code: string, now: Date): number | null {
  const totp = totpOf(secret, email);
  const delta = totp.validate({ token: code.replace(/\s/g, ""), timestamp: now.getTime(), window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

const newRecoveryCodes = () =>
  Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const hex = randomBytes(5).toString("hex");
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });

/** The first code confirms the pending secret; answers the recovery codes (shown once, stored hashed). */
export async function confirmEnrolment(tx: Tx, operator: Operator, code: string, now: Date): Promise<string[]> {
  const row = await lockOperatorRow(tx, operator.id);
  const secret = row.totpEnrolledAt ? null : await secretOf(tx, row);
  if (!secret) throw fieldError("code", "Start the set-up first.");
  const step = acceptedStep(secret, row.email, code, now);
  if (step === null) throw fieldError("code", "That code is not right: check the device's clock and enter the current code.");
  const codes = newRecoveryCodes();
  await tx
    .update(operators)
    .set({ totpEnrolledAt: now, totpLastStep: step, recoveryCodes: codes.map((c) => sha256Hex(c)) })
    .where(eq(operators.id, row.id));
  await effectsOf(tx).audit.record(
    { action: "operator.totp.enrol", targetType: "operator", targetId: row.id, after: { recoveryCodes: codes.length } },
    operator,
  );
  return codes;
}

/**
 * The second factor at sign-in: a current TOTP code not used before, or an unused recovery code
 * (then spent). Locks the row: two sign-ins with one code cannot both pass.
 */
export async function checkSecondFactor(tx: Tx, operatorId: string, code: string, now: Date): Promise<"totp" | "recovery" | null> {
  const row = await lockOperatorRow(tx, operatorId);
  const secret = await secretOf(tx, row);
  if (!row.totpEnrolledAt || !secret) return null;
  const step = acceptedStep(secret, row.email, code, now);
  if (step !== null) {
    if (row.totpLastStep !== null && step <= row.totpLastStep) return null;
    await tx.update(operators).set({ totpLastStep: step }).where(eq(operators.id, row.id));
    return "totp";
  }
  const hash = sha256Hex(code.trim().toLowerCase());
  if (!row.recoveryCodes.includes(hash)) return null;
  await tx
    .update(operators)
    .set({ recoveryCodes: row.recoveryCodes.filter((h) => h !== hash) })
    .where(eq(operators.id, row.id));
  return "recovery";
}

/** A successful sign-in: the time shown on the Operators page. */
export async function recordSignIn(tx: Tx, operatorId: string, now: Date): Promise<void> {
  await tx.update(operators).set({ lastSignInAt: now }).where(eq(operators.id, operatorId));
}

/** The operator changes their own password (the current one proves it is them). */
export async function changePassword(tx: Tx, operator: Operator, input: { current: string; next: string }, now: Date): Promise<void> {
  const row = await lockOperatorRow(tx, operator.id);
  if (!(await verifyPassword(row.passwordHash, input.current))) throw fieldError("current", "The current password is not right.");
  assertPasswordPolicy(input.next, "next");
  await tx
    .update(operators)
    .set({ passwordHash: await hashPassword(input.next), passwordChangedAt: now })
    .where(eq(operators.id, row.id));
  await effectsOf(tx).audit.record({ action: "operator.password.change", targetType: "operator", targetId: row.id }, operator);
}

/**
 * An admin disables or enables another operator. Disabling ends their sessions at once (epoch
 * raised) and they can no longer sign in; an admin cannot disable themselves (nor the last admin
 * be locked out by their own hand).
 */
export async function setOperatorEnabled(
  tx: Tx,
  by: Operator,
  operatorId: string,
  enabled: boolean,
  now: Date,
): Promise<{ before: OperatorRow; after: OperatorRow }> {
  if (operatorId === by.id) throw fieldError("operatorId", "You cannot disable or enable yourself.");
  const row = await lockOperatorRow(tx, operatorId);
  const [updated] = await tx
    .update(operators)
    .set(enabled ? { disabledAt: null } : { disabledAt: row.disabledAt ?? now, sessionEpoch: sql`${operators.sessionEpoch} + 1` })
    .where(eq(operators.id, row.id))
    .returning();
  return { before: row, after: updated };
}

export type ResetKind = "password" | "totp";

/**
 * An admin makes a one-time link for another operator: set a new password, or replace a lost
 * second factor. The token is answered once (the console shows it once, never e-mails it); its
 * sha256 is kept. The operator's sessions end now, and earlier unused links of the kind lapse.
 */
export async function createResetLink(
  tx: Tx,
  by: Operator,
  operatorId: string,
  kind: ResetKind,
  now: Date,
): Promise<{ token: string; expiresAt: Date; operator: OperatorRow }> {
  if (operatorId === by.id) throw fieldError("operatorId", "Reset your own account from the Account page.");
  const row = await lockOperatorRow(tx, operatorId);
  await tx
    .update(operatorResetLinks)
    .set({ usedAt: now })
    .where(and(eq(operatorResetLinks.operatorId, row.id), eq(operatorResetLinks.kind, kind), isNull(operatorResetLinks.usedAt)));
  const token = randomToken(32);
  const expiresAt = addSeconds(now, RESET_LINK_TTL_SECONDS);
  await tx
    .insert(operatorResetLinks)
    .values({ id: newId("orl"), operatorId: row.id, kind, tokenHash: sha256Hex(token), createdBy: by.id, expiresAt, createdAt: now });
  await tx
    .update(operators)
    .set({ sessionEpoch: sql`${operators.sessionEpoch} + 1` })
    .where(eq(operators.id, row.id));
  return { token, expiresAt, operator: row };
}

/** The unused, unexpired link a token names (read only: for the reset page), or null. */
export async function resetLinkOf(db: Executor, token: string, now: Date) {
  const [link] = await db
    .select({ link: operatorResetLinks, email: operators.email })
    .from(operatorResetLinks)
    .innerJoin(operators, eq(operators.id, operatorResetLinks.operatorId))
    .where(and(eq(operatorResetLinks.tokenHash, sha256Hex(token)), isNull(operatorResetLinks.usedAt), gt(operatorResetLinks.expiresAt, now)));
  return link ?? null;
}

/**
 * The operator uses their link: a password link sets the new password; a second-factor link
 * (the password proves the person) removes the lost factor, to be set up again at the next
 * sign-in. The link is spent either way.
 */
export async function redeemResetLink(tx: Tx, token: string, password: string, now: Date): Promise<{ email: string; kind: ResetKind }> {
  const [link] = await tx
    .select()
    .from(operatorResetLinks)
    .where(and(eq(operatorResetLinks.tokenHash, sha256Hex(token)), isNull(operatorResetLinks.usedAt), gt(operatorResetLinks.expiresAt, now)))
    .for("update");
  if (!link) throw new DomainError("validation.fieldInvalid", { message: "This link is used or expired: ask an admin for a new one." });
  const row = await lockOperatorRow(tx, link.operatorId);
  const actor: Operator = { id: row.id, email: row.email, name: row.name, role: row.role as Operator["role"] };
  if (link.kind === "password") {
    assertPasswordPolicy(password, "password");
    await tx
      .update(operators)
      .set({ passwordHash: await hashPassword(password), passwordChangedAt: now })
      .where(eq(operators.id, row.id));
  } else {
    if (!(await verifyPassword(row.passwordHash, password))) throw fieldError("password", "The password is not right.");
    await tx.update(operators).set({ totpSecret: null, totpEnrolledAt: null, totpLastStep: null, recoveryCodes: [] }).where(eq(operators.id, row.id));
  }
  await tx.update(operatorResetLinks).set({ usedAt: now }).where(eq(operatorResetLinks.id, link.id));
  await effectsOf(tx).audit.record({ action: `operator.reset.${link.kind}.used`, targetType: "operator", targetId: row.id, after: { linkId: link.id } }, actor);
  return { email: row.email, kind: link.kind };
}
