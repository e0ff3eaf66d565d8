import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { productionEnv } from "../../support/production-env";
import { runUntilExit } from "../../support/spawned-server";

/**
 * A refused configuration ends the process before it serves or runs anything,
 * with one line per refused setting and exit code 78 (EX_CONFIG): `npm start` (scripts/start.mjs
 * checks before building or starting Next, so no build is needed here), `npm run worker` and the
 * import scripts. The plain `next start` path (instrumentation.ts) is
 * test/integration/production/refused-start.test.ts.
 */
const { SMS_WEBHOOK_URL: _url, SMS_WEBHOOK_SECRET: _secret, OTP_SMS_PROVIDER: _sms, ...withoutSms } = productionEnv;
const refused = {
  ...withoutSms,
  SMTP_URL: "smtp://remit:secret@smtp.example.com:587",
  COLLECTION_ACCOUNT_IBAN: "GB34BUKB20201555555555",
  PAYOUT_BANKS: JSON.stringify([
    { id: "bbva-mx", name: "BBVA Mexico", bic: "BCMRMXMMXXX", debtorIban: "002010077777777771", debtorName: "Remit", currencies: ["MXN"] },
  ]),
  // A start.mjs that wrongly went on would build into (and serve from) a directory nothing uses.
  NEXT_DIST_DIR: ".next-refused-start-test",
  PORT: "1",
};
const LINES = [
  "refused configuration: COLLECTION_ACCOUNT_IBAN: not a valid IBAN",
  'refused configuration: PAYOUT_BANKS: 0.debtorIban: not a valid IBAN (this is a CLABE: give it as "debtorAccount": {"scheme": "CLABE", "id": "..."})',
  "refused configuration: SMTP_URL: host smtp.example.com without TLS: production needs smtps://, or smtp://...?requireTLS=true (STARTTLS), for a host other than loopback",
  "refused configuration: OTP_SMS_PROVIDER is unset (sandbox): production needs sms-webhook (or LOGIN_IDENTIFIER_TYPES=email)",
];

async function assertRefused(args: string[]) {
  const { code, output, ms } = await runUntilExit(args, refused);
  assert.equal(code, 78, output);
  // Exactly one line per refused setting, and nothing started (no build, no server, no worker).
  assert.deepEqual(
    output.split("\n").filter((l) => l.startsWith("refused configuration: ")),
    LINES,
    output,
  );
  assert.doesNotMatch(output, /next build|Ready in|worker started/i);
  assert.ok(ms < 30_000, `exited after ${ms} ms`);
}

describe("a refused configuration exits before anything starts (issue 20 item 1)", () => {
  test("npm start (scripts/start.mjs): one line per refused setting, exit 78, no build", async () => {
    await assertRefused(["scripts/start.mjs"]);
  });

  test("npm run worker: the same lines, exit 78", async () => {
    await assertRefused(["--import", "tsx", "scripts/worker.ts"]);
  });

  test("production without DATABASE_URL, and a rate feed on ftp://: npm start exits 78 naming both (issue 36 item 4)", async () => {
    const { DATABASE_URL: _db, ...withoutDatabase } = productionEnv;
    const { code, output } = await runUntilExit(["scripts/start.mjs"], {
      ...withoutDatabase,
      REFERENCE_RATES_URL: "ftp://ftp.example.com/eurofxref-daily.xml",
      NEXT_DIST_DIR: ".next-refused-start-test",
      PORT: "1",
    });
    assert.equal(code, 78, output);
    assert.deepEqual(
      output.split("\n").filter((l) => l.startsWith("refused configuration: ")),
      [
        "refused configuration: REFERENCE_RATES_URL: scheme ftp: is not allowed: http: or https:",
        "refused configuration: APP_MODE=production needs DATABASE_URL (postgres://user:password@host:5432/database): the embedded database is for sandbox only",
      ],
      output,
    );
  });

  test("the import scripts: the same lines, exit 78, before reading their files", async () => {
    await assertRefused(["--import", "tsx", "scripts/statements-import.ts", "/nonexistent/statement.xml"]);
  });
});
