/**
 * Operator accounts on the database: TOTP enrolment (a code confirms it, ten
 * recovery codes answered once, only hashes stored), a code is good once, a recovery code once;
 * sign-in asks the code after the right password; disabling raises the session epoch and refuses
 * sign-in; a reset link is stored hashed, used once, and raises the epoch.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { Db } from "@/db";
import { auditLog, operatorResetLinks, operators } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import type { Operator } from "@/lib/operations/operators/records";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

async function lib() {
  const accounts = await import("@/lib/operations/operators/accounts");
  const { createOperator } = await import("@/lib/operations/operators/records");
  const { signInOperator } = await import("@/lib/operations/operators/sign-in");
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { execute } = await import("@/lib/operations/commands/run");
  // Disabling and enabling is a command (audited by the runner); the domain call alone audits nothing.
  const { setOperatorEnabled } = await import("@/lib/operations/commands/operations");
  return { ...accounts, setOperatorEnabled, execute, createOperator, signInOperator, inUnit };
}

const PASSWORD = "correct horse battery";
const code = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at.getTime() });

async function newOperator(): Promise<Operator> {
  const { createOperator, inUnit } = await lib();
  const email = `op.${Math.random().toString(36).slice(2, 10)}@example.com`;
  return inUnit(({ tx, now }) => createOperator(tx, { email, name: "Op", role: "reviewer", password: PASSWORD, now }), { db });
}

const rowOf = async (id: string) => (await db.select().from(operators).where(eq(operators.id, id)))[0];

test("TOTP: enrolment confirmed by a code; recovery codes once and hashed; sign-in asks the code; each code is good once", async () => {
  const { beginEnrolment, confirmEnrolment, signInOperator, inUnit } = await lib();
  const op = await newOperator();
  const { uri, secret } = await inUnit(({ tx }) => beginEnrolment(tx, op.id), { db });
  assert.match(uri, /^otpauth:\/\/totp\/Remit%20Console:.+\?.*secret=/);
  const stored = await rowOf(op.id);
  assert.ok(stored.totpSecret && !stored.totpSecret.includes(secret), "the secret is stored encrypted");

  const t0 = new Date(Math.floor(clock.now().getTime() / 30_000) * 30_000 + 5_000);
  await assert.rejects(inUnit(({ tx }) => confirmEnrolment(tx, op, "123456", t0), { db }));
  const recovery = await inUnit(({ tx }) => confirmEnrolment(tx, op, code(secret, t0), t0), { db });
  assert.equal(recovery.length, 10);
  const enrolled = await rowOf(op.id);
  assert.ok(enrolled.totpEnrolledAt);
  assert.deepEqual(
    enrolled.recoveryCodes,
    recovery.map((c) => sha256Hex(c)),
    "only hashes stored",
  );
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.targetId, op.id));
  assert.equal(audit.action, "operator.totp.enrol");

  const attempt = (c: string | undefined, now: Date) => signInOperator(db, { email: op.email, password: PASSWORD, code: c, clientAddress: "203.0.113.9", now });
  const t1 = addSeconds(t0, 30);
  assert.equal((await attempt(undefined, t1)).kind, "codeRequired");
  assert.equal((await attempt("000000", t1)).kind, "wrong");
  assert.equal((await attempt(code(secret, t0), t1)).kind, "wrong", "the enrolment's code (an earlier step) is spent");
  const ok = await attempt(code(secret, t1), t1);
  assert.equal(ok.kind, "ok");
  assert.equal((await attempt(code(secret, t1), t1)).kind, "wrong", "the same code twice: refused");
  assert.deepEqual((await rowOf(op.id)).lastSignInAt, t1);

  // A recovery code signs in once.
  assert.equal((await attempt(recovery[0], t1)).kind, "ok");
  assert.equal((await attempt(recovery[0], t1)).kind, "wrong");
  assert.equal((await rowOf(op.id)).recoveryCodes.length, 9);
});

test("disable: the session epoch rises and sign-in is refused; enable restores sign-in; nobody disables themselves", async () => {
  const { execute, setOperatorEnabled, signInOperator, inUnit } = await lib();
  const admin = await newOperator();
  const op = await newOperator();
  const before = (await rowOf(op.id)).sessionEpoch;
  await inUnit(({ tx, now }) => execute(tx, setOperatorEnabled, { operatorId: op.id, enabled: false }, { operator: { ...admin, role: "admin" }, now }), { db });
  const disabled = await rowOf(op.id);
  assert.ok(disabled.disabledAt);
  assert.equal(disabled.sessionEpoch, before + 1, "open sessions end");
  const signIn = () => signInOperator(db, { email: op.email, password: PASSWORD, clientAddress: "203.0.113.10", now: clock.now() });
  assert.equal((await signIn()).kind, "wrong");
  await inUnit(({ tx, now }) => execute(tx, setOperatorEnabled, { operatorId: op.id, enabled: true }, { operator: { ...admin, role: "admin" }, now }), { db });
  assert.equal((await signIn()).kind, "ok");
  await assert.rejects(
    inUnit(({ tx, now }) => execute(tx, setOperatorEnabled, { operatorId: admin.id, enabled: false }, { operator: { ...admin, role: "admin" }, now }), { db }),
  );
  const actions = (await db.select().from(auditLog).where(eq(auditLog.targetId, op.id))).map((a) => a.action).sort();
  assert.deepEqual(actions, ["operator.disable", "operator.enable"]);
});

test("reset link: stored hashed, ends the sessions, sets the password once; a second-factor link removes the factor with the password", async () => {
  const { beginEnrolment, confirmEnrolment, createResetLink, redeemResetLink, signInOperator, inUnit } = await lib();
  const admin: Operator = { ...(await newOperator()), role: "admin" };
  const op = await newOperator();
  const { token } = await inUnit(({ tx, now }) => createResetLink(tx, admin, op.id, "password", now), { db });
  const [link] = await db.select().from(operatorResetLinks).where(eq(operatorResetLinks.operatorId, op.id));
  assert.equal(link.tokenHash, sha256Hex(token), "only the hash is kept");
  assert.equal((await rowOf(op.id)).sessionEpoch, 1);
  await inUnit(({ tx, now }) => redeemResetLink(tx, token, "a brand new password", now), { db });
  await assert.rejects(
    inUnit(({ tx, now }) => redeemResetLink(tx, token, "another new password", now), { db }),
    /used or expired/,
  );
  const signIn = (password: string, c?: string) => signInOperator(db, { email: op.email, password, code: c, clientAddress: "203.0.113.11", now: clock.now() });
  assert.equal((await signIn("a brand new password")).kind, "ok");

  // A lost authenticator: the link, with the password, removes it.
  const { secret } = await inUnit(({ tx }) => beginEnrolment(tx, op.id), { db });
  const now = clock.now();
  await inUnit(({ tx }) => confirmEnrolment(tx, op, code(secret, now), now), { db });
  assert.equal((await signIn("a brand new password")).kind, "codeRequired");
  const second = await inUnit(({ tx, now }) => createResetLink(tx, admin, op.id, "totp", now), { db });
  await assert.rejects(inUnit(({ tx, now }) => redeemResetLink(tx, second.token, "wrong password", now), { db }));
  await inUnit(({ tx, now }) => redeemResetLink(tx, second.token, "a brand new password", now), { db });
  assert.equal((await rowOf(op.id)).totpEnrolledAt, null);
  assert.equal((await signIn("a brand new password")).kind, "ok");
});

test("second factor required: always in production; in sandbox only with CONSOLE_TOTP_REQUIRED, the seeded operator exempt", async () => {
  const { loadConfig } = await import("@/lib/platform/config");
  const { secondFactorRequired } = await lib();
  const someone = { email: "someone@example.com" };
  const seeded = { email: "admin@example.com" };
  assert.equal(secondFactorRequired(someone, loadConfig({})), false, "sandbox default: not asked");
  assert.equal(secondFactorRequired(someone, loadConfig({ CONSOLE_TOTP_REQUIRED: "true" })), true);
  assert.equal(secondFactorRequired(seeded, loadConfig({ CONSOLE_TOTP_REQUIRED: "true" })), false, "the seeded sandbox operator is exempt");
  const production = { sandbox: false, CONSOLE_TOTP_REQUIRED: false, OPERATOR_EMAIL: "admin@example.com" };
  assert.equal(secondFactorRequired(seeded, production), true, "production: every operator, the seeded one too");
  assert.equal(secondFactorRequired(someone, production), true);
});
