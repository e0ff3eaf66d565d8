import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { SMTPServer } from "smtp-server";
import { productionEnv } from "../../support/production-env";
import { runUntilExit } from "../../support/spawned-server";

/**
 * The start-up check on a plain `next start` of the production build (the instrumentation
 * hook's start-up check): a refused configuration, and in production an SMTP login the server
 * refuses, end the process with exit code 78 and one line per problem, before it serves anything
 * (today: the line, then 500 to every request from a live process). npm start, npm run worker and
 * the import scripts: test/unit/config/refused-start.test.ts.
 */
const NEXT = path.resolve("node_modules/next/dist/bin/next");
let smtp: SMTPServer;
let smtpPort = 0;
const dirs: string[] = [];

before(async () => {
  // An SMTP server that requires a login and accepts only remit / right-password.
  smtp = new SMTPServer({
    authOptional: false,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === "remit" && auth.password === "right-password") return cb(null, { user: auth.username });
      cb(Object.assign(new Error("Authentication credentials invalid"), { responseCode: 535 }));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `next start` on a free port of its own with this configuration, until it exits (at most a minute). */
async function nextStart(env: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "remit-refused-"));
  dirs.push(dir);
  return runUntilExit([NEXT, "start", "-p", "0", "-H", "127.0.0.1"], { NODE_ENV: "production", PGLITE_DIR: dir, LOG_LEVEL: "warn", ...env });
}

const refusedLines = (output: string) => output.split("\n").filter((l) => l.startsWith("refused configuration: "));

describe("a plain next start refuses to serve (issue 20 items 1 and 3)", () => {
  test("refused settings: exit 78 with one line each", async () => {
    const { OTP_SMS_PROVIDER: _p, SMS_WEBHOOK_URL: _u, SMS_WEBHOOK_SECRET: _s, ...env } = productionEnv;
    const { code, output } = await nextStart({
      ...env,
      COLLECTION_ACCOUNT_IBAN: "GB34BUKB20201555555555",
      SERVICE_SIGNING_KEYS: JSON.stringify([{ kty: "RSA", n: "AwAB", e: "AQAB" }]),
    });
    assert.equal(code, 78, output);
    assert.deepEqual(refusedLines(output), [
      "refused configuration: SERVICE_SIGNING_KEYS: key 1: a public key: the private key is needed (d, p, q, dp, dq, qi)",
      "refused configuration: COLLECTION_ACCOUNT_IBAN: not a valid IBAN",
      "refused configuration: OTP_SMS_PROVIDER is unset (sandbox): production needs sms-webhook (or LOGIN_IDENTIFIER_TYPES=email)",
    ]);
  });

  test("production: an SMTP login the server refuses (535) ends the process with one line naming SMTP_URL", async () => {
    const { code, output } = await nextStart({ ...productionEnv, SMTP_URL: `smtp://remit:wrong-password@127.0.0.1:${smtpPort}` });
    assert.equal(code, 78, output);
    const lines = refusedLines(output);
    assert.equal(lines.length, 1, output);
    assert.match(
      lines[0],
      /^refused configuration: SMTP_URL: the SMTP server did not accept a connection and login \(Invalid login: 535 .*Authentication credentials invalid\)$/,
    );
    assert.doesNotMatch(output, /wrong-password/, "the password is never printed");
  });
});
