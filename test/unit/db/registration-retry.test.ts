import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { partners, sessions, subscriptions } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { inUnit, runUnit } from "@/lib/platform/unit-of-work";
import { freshDb } from "../../support/db";

/**
 * POST /v1/auth/register/set-password retried after a crash that completed it
 * (the answer was lost) answered 401 auth.otpInvalid "Verify the code before setting a password".
 * Now the same registration with the same password answers as the first success did (a token
 * response for the subscription it opened, nextStep COMPLETE_PROFILE); anything else is refused
 * as before, and wrong passwords count towards the identifier's login lockout.
 */
let db: Db;
let close: () => Promise<void>;
let partnerId: string;
const PASSWORD = "correct horse battery staple";

before(async () => {
  ({ db, close } = await freshDb());
  [{ id: partnerId }] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, "partner_demo"));
});
after(() => close());

async function verifiedRegistration(): Promise<{ registrationId: string; identifier: string }> {
  const { startRegistration, verifyRegistrationOtp } = await import("@/lib/identity/auth/registration");
  const { latestOtpMessage } = await import("@/lib/identity/auth/sandbox-outbox");
  const identifier = `retry-${randomUUID()}@example.com`;
  const started = await inUnit((u) => startRegistration(u.tx, { partnerId, identifier, clientAddress: "192.0.2.10", now: u.now }), { db });
  const { otp } = await latestOtpMessage(db, partnerId, identifier);
  assert.ok(otp, "the sandbox outbox holds the code");
  await inUnit((u) => verifyRegistrationOtp(u.tx, { partnerId, registrationId: started.registrationId, otp, now: u.now }), { db });
  return { registrationId: started.registrationId, identifier };
}

async function setPassword(registrationId: string, password: string, partner = partnerId) {
  const { completeRegistration } = await import("@/lib/identity/auth/registration");
  return runUnit((u) => completeRegistration(u.tx, { partnerId: partner, registrationId, password, now: u.now }), { db });
}

const refusedWith = (outcome: Awaited<ReturnType<typeof setPassword>>, code: string) => {
  assert.equal(outcome.ok, false, "refused");
  if (outcome.ok) return;
  assert.ok(outcome.error instanceof DomainError);
  assert.equal(outcome.error.code, code, outcome.error.message);
  return outcome.error;
};

describe("set-password retried after it completed (issue 36 item 6)", () => {
  test("the same registration and password answers as the first success did: a token response for the same subscription", async () => {
    const { registrationId } = await verifiedRegistration();
    const first = await setPassword(registrationId, PASSWORD);
    assert.ok(first.ok, first.ok ? "" : first.error.message);
    const retried = await setPassword(registrationId, PASSWORD);
    assert.ok(retried.ok, retried.ok ? "" : `${retried.error.code}: ${retried.error.message}`);
    assert.equal(retried.value.subscriptionId, first.value.subscriptionId);
    assert.equal(retried.value.nextStep, "COMPLETE_PROFILE");
    assert.equal(retried.value.tokenType, "Bearer");
    assert.deepEqual(Object.keys(retried.value).sort(), Object.keys(first.value).sort());
    assert.notEqual(retried.value.accessToken, first.value.accessToken, "a new token pair: the first answer's tokens were never seen");
    // One subscription, not two, and the new access token belongs to it.
    const subs = await db.select().from(subscriptions).where(eq(subscriptions.id, first.value.subscriptionId));
    assert.equal(subs.length, 1);
    const tokens = await db.select().from(sessions).where(eq(sessions.subscriptionId, first.value.subscriptionId));
    assert.equal(tokens.length, 2, "each answer issued its own token pair for the one subscription");
  });

  test("the completed registration with another password is refused, counted, and locks like a login", async () => {
    const { registrationId } = await verifiedRegistration();
    assert.ok((await setPassword(registrationId, PASSWORD)).ok);
    for (let i = 0; i < 5; i++) refusedWith(await setPassword(registrationId, `wrong password number ${i}`), "auth.otpInvalid");
    // Five wrong tries in the window: the right password is refused too, as /v1/auth/login would be.
    refusedWith(await setPassword(registrationId, PASSWORD), "auth.rateLimited");
  });

  test("another partner, an unverified registration and an expired one are refused as before", async () => {
    const { registrationId } = await verifiedRegistration();
    assert.ok((await setPassword(registrationId, PASSWORD)).ok);
    refusedWith(await setPassword(registrationId, PASSWORD, "partner_other"), "registration.notFound");

    const { startRegistration } = await import("@/lib/identity/auth/registration");
    const unverified = await inUnit(
      (u) => startRegistration(u.tx, { partnerId, identifier: `unverified-${randomUUID()}@example.com`, clientAddress: "192.0.2.11", now: u.now }),
      { db },
    );
    refusedWith(await setPassword(unverified.registrationId, PASSWORD), "auth.otpInvalid");

    // The registration lives three OTP lifetimes (30 minutes); a retry after that is a new start.
    clock.advance(31 * 60 * 1000);
    try {
      refusedWith(await setPassword(registrationId, PASSWORD), "auth.sessionExpired");
    } finally {
      clock.advance(-31 * 60 * 1000);
    }
  });
});
