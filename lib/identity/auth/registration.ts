import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { loginIdentifiers, registrations, subscriptions } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { openSubscription } from "@/lib/identity/customers/open-subscription";
import { DomainError } from "@/lib/platform/errors";
import { parseAcceptedIdentifier, parseIdentifier } from "./identifiers";
import { registrationMachine, type RegistrationState, type RegistrationTrigger } from "./registration-state-machine";
import { issueOtp, verifyOtp } from "./otp";
import { admitOtpSend } from "./otp-send-limits";
import { clearFailures, lockScope, lockedForSeconds, recordFailure } from "@/lib/identity/lockouts/failure-counter";
import { loginScope } from "./login";
import { assertPasswordPolicy, hashPassword, verifyPassword } from "./passwords";
import { issueTokens, type TokenResponse } from "./tokens";
import type { Language } from "@/lib/platform/i18n/language";

/**
 * Registration (decisions section 3): identifier, then OTP, then password. An identifier that is
 * already registered gets exactly the same answers; its message carries no code, so the flow
 * cannot complete and nothing reveals that the account exists.
 */
export async function startRegistration(tx: Tx, input: { partnerId: string; identifier: string; clientAddress: string; language?: Language; now: Date }) {
  const identifier = parseAcceptedIdentifier(input.identifier);
  await admitOtpSend(tx, {
    partnerId: input.partnerId,
    identifier: identifier.value,
    purpose: "REGISTRATION",
    clientAddress: input.clientAddress,
    now: input.now,
  });
  const [existing] = await tx
    .select({ id: loginIdentifiers.id })
    .from(loginIdentifiers)
    .where(and(eq(loginIdentifiers.partnerId, input.partnerId), eq(loginIdentifiers.value, identifier.value)));
  const otp = await issueOtp(tx, {
    partnerId: input.partnerId,
    identifier,
    language: input.language ?? "en",
    purpose: "REGISTRATION",
    deliverCode: !existing,
    now: input.now,
  });
  const registrationId = newId("reg");
  await tx.insert(registrations).values({
    id: registrationId,
    partnerId: input.partnerId,
    identifier: identifier.value,
    identifierType: identifier.type,
    state: registrationMachine.next("none", "otp.sent").to,
    otpId: otp.otpId,
    // The registration outlives its code a little, so set-password after a late verify still works.
    expiresAt: addSeconds(input.now, config().OTP_TTL_SECONDS * 3),
    createdAt: input.now,
  });
  return { registrationId, nextStep: "VERIFY_OTP" as const, otpExpiresAt: otp.expiresAt.toISOString() };
}

/** The one way a registration changes state: its machine decides. */
async function moveRegistration(tx: Tx, reg: { id: string; state: RegistrationState }, trigger: RegistrationTrigger): Promise<void> {
  await tx
    .update(registrations)
    .set({ state: registrationMachine.next(reg.state, trigger).to })
    .where(eq(registrations.id, reg.id));
}

async function registrationFor(tx: Tx, registrationId: string, partnerId: string, now: Date) {
  const [reg] = await tx.select().from(registrations).where(eq(registrations.id, registrationId)).for("update");
  if (!reg || reg.partnerId !== partnerId) throw new DomainError("registration.notFound", { message: "No such registration." });
  if (reg.expiresAt.getTime() <= now.getTime())
    throw new DomainError("auth.sessionExpired", { message: "The registration has expired. Start again.", hint: "restart_flow" });
  return reg;
}

export async function verifyRegistrationOtp(tx: Tx, input: { partnerId: string; registrationId: string; otp: string; now: Date }) {
  const reg = await registrationFor(tx, input.registrationId, input.partnerId, input.now);
  if (!registrationMachine.can(reg.state, "otp.verified"))
    throw new DomainError("auth.otpInvalid", { message: "This registration is already verified.", hint: "restart_flow" });
  await verifyOtp(tx, reg.otpId, input.otp, input.now);
  await moveRegistration(tx, reg, "otp.verified");
  return { registrationId: reg.id, nextStep: "SET_PASSWORD" as const };
}

export async function completeRegistration(tx: Tx, input: { partnerId: string; registrationId: string; password: string; now: Date }): Promise<TokenResponse> {
  assertPasswordPolicy(input.password);
  const reg = await registrationFor(tx, input.registrationId, input.partnerId, input.now);
  if (reg.state === "COMPLETED") return answerCompletedAgain(tx, reg, input);
  if (!registrationMachine.can(reg.state, "password.set")) {
    throw new DomainError("auth.otpInvalid", { message: "Verify the code before setting a password.", hint: "verify_otp" });
  }
  const identifier = parseIdentifier(reg.identifier);
  // Another registration of the same identifier may have completed since this one started (two
  // codes were sent, both verified): refuse like any other unusable registration, not with the
  // unique-index violation (500) that inserting a second login identifier would cause.
  const [taken] = await tx
    .select({ id: loginIdentifiers.id })
    .from(loginIdentifiers)
    .where(and(eq(loginIdentifiers.partnerId, input.partnerId), eq(loginIdentifiers.value, identifier.value)));
  if (taken) {
    throw new DomainError("auth.otpInvalid", { message: "This registration can no longer be completed. Log in or reset the password.", hint: "restart_flow" });
  }
  const { subscriptionId } = await openSubscription(tx, {
    partnerId: input.partnerId,
    identifier,
    passwordHash: await hashPassword(input.password),
    now: input.now,
  });
  await moveRegistration(tx, reg, "password.set");
  return issueTokens(tx, { subscriptionId, partnerId: input.partnerId, now: input.now, nextStep: "COMPLETE_PROFILE" });
}

/**
 * set-password retried after it completed: the first answer was lost (the
 * process died after the commit, the connection dropped), and the client asks again. The
 * registration id alone proves too little (it passes through logs and proxies): the password must
 * be the one this registration set, checked like a login, with wrong ones counted towards the
 * identifier's login lockout; and only while the registration lives (registrationFor refuses it
 * after expiresAt). Then it answers as the first success did: 201, a token response for the
 * subscription the registration opened. The pair is new (only hashes are stored, so the first
 * cannot be given again); the first pair was never seen and expires unused.
 */
async function answerCompletedAgain(tx: Tx, reg: { partnerId: string; identifier: string }, input: { password: string; now: Date }): Promise<TokenResponse> {
  const c = config();
  const scope = loginScope(reg.partnerId, reg.identifier);
  await lockScope(tx, scope);
  const locked = await lockedForSeconds(tx, scope, { limit: c.LOGIN_MAX_FAILURES, windowSeconds: c.LOGIN_FAILURE_WINDOW_SECONDS }, input.now);
  if (locked > 0) {
    throw new DomainError("auth.rateLimited", {
      message: "Too many failed attempts. Try again later or reset the password.",
      retryAfterSeconds: locked,
      details: { retryAfterSeconds: locked },
      remediation: "retry_later",
    });
  }
  // The identifier's login identifier is the one this registration opened: once a registration
  // completes no other can (completeRegistration refuses a taken identifier), and nothing changes
  // or removes a login identifier.
  const [owner] = await tx
    .select({ subscriptionId: subscriptions.id, passwordHash: subscriptions.passwordHash, status: subscriptions.status })
    .from(loginIdentifiers)
    .innerJoin(subscriptions, eq(subscriptions.id, loginIdentifiers.subscriptionId))
    .where(and(eq(loginIdentifiers.partnerId, reg.partnerId), eq(loginIdentifiers.value, reg.identifier)));
  if (!owner || !(await verifyPassword(owner.passwordHash, input.password))) {
    await recordFailure(tx, scope, input.now);
    throw new DomainError("auth.otpInvalid", {
      message: "This registration is already complete: retry with the password it set, or log in.",
      hint: "restart_flow",
      keepChanges: true,
    });
  }
  if (owner.status === "closed")
    throw new DomainError("subscription.closed", { message: "This customer relationship is closed.", remediation: "contact_support" });
  await clearFailures(tx, scope);
  return issueTokens(tx, { subscriptionId: owner.subscriptionId, partnerId: reg.partnerId, now: input.now });
}
