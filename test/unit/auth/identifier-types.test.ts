import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Tx } from "@/db";
import { parseAcceptedIdentifier } from "@/lib/identity/auth/identifiers";
import { startLogin } from "@/lib/identity/auth/login";
import { completePasswordReset, startPasswordReset } from "@/lib/identity/auth/password-reset";
import { startRegistration } from "@/lib/identity/auth/registration";
import { loadConfig } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";

/**
 * With LOGIN_IDENTIFIER_TYPES=email the Auth API refuses phone numbers with the
 * spec's auth.identifierInvalid (400), before anything is looked up: a transaction that fails on
 * any use proves it. Registration, login and both password-reset steps take the identifier.
 */
const KEY = Symbol.for("remit.config");
const g = globalThis as Record<symbol, unknown>;
let saved: unknown;
const untouchable = new Proxy({}, { get: () => assert.fail("the database was reached") }) as Tx;
const refused = (accepts: RegExp) => (e: unknown) =>
  e instanceof DomainError && e.code === "auth.identifierInvalid" && accepts.test(e.message) && JSON.stringify(e.details).includes('"identifier"');

const use = (types: string) => (g[KEY] = loadConfig({ LOGIN_IDENTIFIER_TYPES: types }));
before(() => (saved = g[KEY]));
after(() => (g[KEY] = saved));

describe("LOGIN_IDENTIFIER_TYPES (issue 20 item 2)", () => {
  test("email only: a phone number is refused at every entry point, an email accepted", async () => {
    use("email");
    const phone = "+14155550123";
    const now = new Date();
    const onlyEmail = refused(/^This service accepts email addresses only\.$/);
    assert.throws(() => parseAcceptedIdentifier(phone), onlyEmail);
    await assert.rejects(startRegistration(untouchable, { partnerId: "p", identifier: phone, clientAddress: "127.0.0.1", now }), onlyEmail);
    await assert.rejects(startLogin(untouchable, { partnerId: "p", identifier: phone, now }), onlyEmail);
    await assert.rejects(startPasswordReset(untouchable, { partnerId: "p", identifier: phone, clientAddress: "127.0.0.1", now }), onlyEmail);
    await assert.rejects(
      completePasswordReset(untouchable, { partnerId: "p", identifier: phone, otp: "123456", newPassword: "correct horse battery", now }),
      onlyEmail,
    );
    assert.deepEqual(parseAcceptedIdentifier(" Ada@Example.com "), { type: "EMAIL", value: "ada@example.com" });
  });

  test("phone only refuses an email; both (the default) accept either", () => {
    use("phone");
    assert.throws(() => parseAcceptedIdentifier("ada@example.com"), refused(/^This service accepts phone numbers in E\.164 form \(\+14155550123\) only\.$/));
    use("email,phone");
    assert.equal(parseAcceptedIdentifier("+14155550123").type, "PHONE");
    assert.equal(parseAcceptedIdentifier("ada@example.com").type, "EMAIL");
  });
});
