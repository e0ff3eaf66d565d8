/**
 * Per-client-address throttles, with small limits set through the
 * configuration: OTP messages per address, console sign-in failures per address (and the audit
 * entry of the lockout). PGlite here; PostgreSQL too when TEST_DB_URL is set.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog, partners } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { freshDb } from "../../support/db";

process.env.OTP_SEND_MAX_PER_ADDRESS = "3";
process.env.CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS = "4";

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await freshDb()));
after(async () => close());

const address = () => `test-${randomUUID()}`;
const email = () => `${randomUUID().slice(0, 8)}@example.com`;

async function rateLimited(p: Promise<unknown>): Promise<number> {
  const err = await p.then(
    () => assert.fail("expected auth.rateLimited"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DomainError && err.code === "auth.rateLimited", String(err));
  assert.ok(err.retryAfterSeconds! > 0 && err.retryAfterSeconds! <= 3600);
  return err.retryAfterSeconds!;
}

describe("OTP messages per client address", () => {
  it("three identifiers from one address are sent, the fourth (registration or reset) is refused; another address is not", async () => {
    const { startRegistration } = await import("@/lib/identity/auth/registration");
    const { startPasswordReset } = await import("@/lib/identity/auth/password-reset");
    const [{ id: partnerId }] = await db.select({ id: partners.id }).from(partners).limit(1);
    const [a, b] = [address(), address()];
    const register = (clientAddress: string) =>
      db.transaction((tx) => startRegistration(tx, { partnerId, identifier: email(), clientAddress, now: clock.now() }));
    for (let i = 0; i < 3; i++) await register(a);
    await rateLimited(register(a));
    await rateLimited(db.transaction((tx) => startPasswordReset(tx, { partnerId, identifier: email(), clientAddress: a, now: clock.now() })));
    assert.ok((await register(b)).registrationId);
  });
});

describe("console sign-in failures per client address", () => {
  it("four wrong passwords from one address lock it, even for the right password of another operator; the lock is audited", async () => {
    const { signInOperator } = await import("@/lib/operations/operators/sign-in");
    const { createOperator } = await import("@/lib/operations/operators/records");
    const who = { email: email(), password: `pw-${randomUUID()}` };
    await db.transaction((tx) => createOperator(tx, { ...who, name: "Throttle test", role: "reviewer", now: clock.now() }));
    const [a, b] = [address(), address()];
    const signIn = (e: string, password: string, clientAddress: string) => signInOperator(db, { email: e, password, clientAddress, now: clock.now() });

    for (let i = 0; i < 4; i++) assert.equal((await signIn(email(), "wrong password", a)).kind, "wrong");
    const locked = await signIn(who.email, who.password, a);
    assert.equal(locked.kind, "locked");
    assert.ok(locked.kind === "locked" && locked.retryAfterSeconds > 0 && locked.retryAfterSeconds <= 900);
    const elsewhere = await signIn(who.email, who.password, b);
    assert.equal(elsewhere.kind, "ok");

    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "operator.signIn.locked"), eq(auditLog.targetId, a)));
    assert.equal(entries.length, 1);
    assert.equal(entries[0].targetType, "client_address");
    assert.equal(entries[0].operatorId, "system");
    const { lockedForSeconds, ...rest } = entries[0].after as { lockedForSeconds: number };
    assert.deepEqual(rest, { failures: 4, windowSeconds: 900, clientAddress: a });
    assert.ok(lockedForSeconds > 800 && lockedForSeconds <= 900, `lockedForSeconds ${lockedForSeconds}`);
  });
});
