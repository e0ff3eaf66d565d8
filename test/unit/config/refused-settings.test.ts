import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { parseEnv } from "node:util";
import { ConfigurationError, loadConfig, SETTINGS } from "@/lib/platform/config";
import { buildPain001 } from "@/lib/payments/payouts/pain001";
import { productionEnv } from "../../support/production-env";
import { pain001SchemaErrors } from "../../support/iso20022";

/**
 * Each refused setting is one line naming it (what the start-up check
 * prints before it exits: test/integration/production/refused-start.test.ts), and the settings
 * real deployments need are accepted.
 */
function refusal(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    assert.ok(e instanceof ConfigurationError, String(e));
    return e.lines;
  }
  assert.fail("configuration was accepted");
}

const production = (changes: Record<string, string | undefined>) => {
  const env: Record<string, string | undefined> = { ...productionEnv, ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete env[k];
  return env;
};

const rsaJwk = (bits: number) => generateKeyPairSync("rsa", { modulusLength: bits }).privateKey.export({ format: "jwk" });
const bank = { id: "b1", name: "BBVA Mexico", bic: "BCMRMXMMXXX", debtorName: "Remit", currencies: ["MXN"] };
// Banamex's published example CLABE (check digit 1), and the same with a wrong check digit.
const CLABE = "002010077777777771";

describe("SMTP_URL (issue 20 item 2)", () => {
  test("a relay without credentials is valid; in production a loopback relay needs no TLS", () => {
    for (const url of ["smtp://127.0.0.1:25", "smtp://localhost:25", "smtp://[::1]:25", "smtp://relay:s3cret@127.0.0.1:2525"]) {
      assert.equal(loadConfig(production({ SMTP_URL: url })).SMTP_URL, url, url);
    }
  });

  test("in production another host needs smtps:// or STARTTLS required, with the certificate checked", () => {
    assert.deepEqual(refusal(production({ SMTP_URL: "smtp://user:pw@smtp.example.com:587" })), [
      "SMTP_URL: host smtp.example.com without TLS: production needs smtps://, or smtp://...?requireTLS=true (STARTTLS), for a host other than loopback",
    ]);
    assert.deepEqual(refusal(production({ SMTP_URL: "smtps://user:pw@smtp.example.com:465?tls.rejectUnauthorized=false" })), [
      "SMTP_URL: host smtp.example.com with tls.rejectUnauthorized=false: production checks the server's certificate",
    ]);
    for (const url of ["smtps://user:pw@smtp.example.com:465", "smtp://user:pw@smtp.example.com:587?requireTLS=true", "smtp://10.0.0.5:25?requireTLS=true"]) {
      assert.equal(loadConfig(production({ SMTP_URL: url })).SMTP_URL, url, url);
    }
    // The sandbox sends to whatever it is given (a test SMTP server).
    assert.equal(loadConfig({ SMTP_URL: "smtp://smtp.example.com:25", OTP_EMAIL_FROM: "a@example.com" }).providers.otpEmail, "smtp");
  });

  test("a URL nodemailer cannot use is refused in any mode", () => {
    const from = { OTP_EMAIL_FROM: "a@example.com" };
    assert.deepEqual(refusal({ ...from, SMTP_URL: "smtp://user@127.0.0.1:25" }), ["SMTP_URL: a user without a password"]);
    assert.deepEqual(refusal({ ...from, SMTP_URL: "mail.example.com" }), [
      "SMTP_URL: not a URL: smtp://host:port, smtps://host:port or smtp://host:587?requireTLS=true, user:password@ optional",
    ]);
  });
});

describe("LOGIN_IDENTIFIER_TYPES and the SMS gateway (issue 20 items 1 and 2)", () => {
  const noSms = { OTP_SMS_PROVIDER: undefined, SMS_WEBHOOK_URL: undefined, SMS_WEBHOOK_SECRET: undefined };

  test("phone identifiers accepted (the default) without an SMS gateway: refused with one line", () => {
    assert.deepEqual(loadConfig({}).LOGIN_IDENTIFIER_TYPES, ["EMAIL", "PHONE"]);
    assert.deepEqual(refusal(production(noSms)), ["OTP_SMS_PROVIDER is unset (sandbox): production needs sms-webhook (or LOGIN_IDENTIFIER_TYPES=email)"]);
  });

  test("email only: no SMS gateway needed", () => {
    const c = loadConfig(production({ ...noSms, LOGIN_IDENTIFIER_TYPES: "email" }));
    assert.deepEqual(c.LOGIN_IDENTIFIER_TYPES, ["EMAIL"]);
    assert.deepEqual(refusal(production({ ...noSms, LOGIN_IDENTIFIER_TYPES: "email,phone" })).length, 1);
    assert.deepEqual(loadConfig({ LOGIN_IDENTIFIER_TYPES: " Phone , email " }).LOGIN_IDENTIFIER_TYPES, ["PHONE", "EMAIL"]);
  });

  test("an unknown type is refused", () => {
    assert.deepEqual(refusal({ LOGIN_IDENTIFIER_TYPES: "email,username" }), ["LOGIN_IDENTIFIER_TYPES: email, phone or email,phone (not email,username)"]);
    assert.deepEqual(refusal({ LOGIN_IDENTIFIER_TYPES: "," }), ["LOGIN_IDENTIFIER_TYPES: email, phone or email,phone (not ,)"]);
  });
});

describe("collection and payout bank accounts (issue 20 items 1 and 2)", () => {
  test("an invalid COLLECTION_ACCOUNT_IBAN: one line", () => {
    assert.deepEqual(refusal(production({ COLLECTION_ACCOUNT_IBAN: "GB34BUKB20201555555555" })), ["COLLECTION_ACCOUNT_IBAN: not a valid IBAN"]);
  });

  test("a CLABE given as debtorIban is refused with where it goes; with its scheme it is accepted", () => {
    assert.deepEqual(refusal(production({ PAYOUT_BANKS: JSON.stringify([{ ...bank, debtorIban: CLABE }]) })), [
      'PAYOUT_BANKS: 0.debtorIban: not a valid IBAN (this is a CLABE: give it as "debtorAccount": {"scheme": "CLABE", "id": "..."})',
    ]);
    const c = loadConfig(production({ PAYOUT_BANKS: JSON.stringify([{ ...bank, debtorAccount: { scheme: "CLABE", id: "002 010 077777777771" } }]) }));
    assert.deepEqual(c.PAYOUT_BANKS[0].debtorAccount, { scheme: "CLABE", id: CLABE });
    assert.equal(c.PAYOUT_BANKS[0].debtorIban, undefined);
  });

  test("a CLABE with a wrong check digit, an unknown scheme, and neither or both accounts are refused", () => {
    const banks = (b: object) => production({ PAYOUT_BANKS: JSON.stringify([{ ...bank, ...b }]) });
    assert.deepEqual(refusal(banks({ debtorAccount: { scheme: "CLABE", id: "002010077777777772" } })), [
      "PAYOUT_BANKS: 0.debtorAccount.id: not a valid CLABE (18 digits, check digit)",
    ]);
    assert.deepEqual(refusal(banks({ debtorAccount: { scheme: "ABA", id: "123" } })), ["PAYOUT_BANKS: 0.debtorAccount.scheme: one of CLABE, BBAN"]);
    assert.deepEqual(refusal(banks({})), ["PAYOUT_BANKS: 0: exactly one of debtorIban and debtorAccount ({scheme, id}) is needed"]);
    assert.deepEqual(refusal(banks({ debtorIban: "DE89370400440532013000", debtorAccount: { scheme: "BBAN", id: "12345" } })), [
      "PAYOUT_BANKS: 0: exactly one of debtorIban and debtorAccount ({scheme, id}) is needed",
    ]);
  });

  test("a payout bank's time zone (its files' business days) must be an IANA zone", () => {
    const banks = (b: object) => production({ PAYOUT_BANKS: JSON.stringify([{ ...bank, ...b }]) });
    assert.deepEqual(refusal(banks({ debtorIban: "DE89370400440532013000", timeZone: "Mars/Olympus" })), [
      "PAYOUT_BANKS: 0.timeZone: an IANA time zone (Europe/Berlin)",
    ]);
    assert.equal(loadConfig(banks({ debtorIban: "DE89370400440532013000", timeZone: "America/Mexico_City" })).PAYOUT_BANKS[0].timeZone, "America/Mexico_City");
  });

  test("pain.001: a national debtor account is DbtrAcct/Id/Othr with its scheme (CLABE proprietary, BBAN a code), valid against the XSD", async () => {
    const transfers = [{ endToEndId: "trf_a", amount: "10.00", creditorName: "Ana", creditorAccount: { other: CLABE, scheme: "BANK_TRANSFER" } }];
    const file = (b: object) =>
      buildPain001({
        messageId: "pof_1",
        createdAt: new Date("2026-11-25T10:00:00Z"),
        initiatingParty: "Remit",
        payments: [{ id: "pof_1", bank: { ...bank, ...b }, currency: "MXN", executionDate: "2026-11-25", transfers }],
      });
    const clabe = file({ debtorAccount: { scheme: "CLABE", id: CLABE } });
    assert.match(clabe, /<DbtrAcct>\s*<Id>\s*<Othr>\s*<Id>002010077777777771<\/Id>\s*<SchmeNm>\s*<Prtry>CLABE<\/Prtry>/);
    assert.deepEqual(await pain001SchemaErrors(clabe), []);
    const bban = file({ debtorAccount: { scheme: "BBAN", id: "12345678" } });
    assert.match(bban, /<DbtrAcct>\s*<Id>\s*<Othr>\s*<Id>12345678<\/Id>\s*<SchmeNm>\s*<Cd>BBAN<\/Cd>/);
    assert.deepEqual(await pain001SchemaErrors(bban), []);
    assert.match(file({ debtorIban: "DE89370400440532013000" }), /<DbtrAcct>\s*<Id>\s*<IBAN>DE89370400440532013000<\/IBAN>/);
  });
});

describe("keys (issue 20 item 3)", () => {
  test("SERVICE_SIGNING_KEYS: a public key, a short key, a non-RSA key or a non-list is refused with one line", () => {
    const { n, e } = rsaJwk(2048);
    assert.deepEqual(refusal(production({ SERVICE_SIGNING_KEYS: JSON.stringify([{ kty: "RSA", n, e }]) })), [
      "SERVICE_SIGNING_KEYS: key 1: a public key: the private key is needed (d, p, q, dp, dq, qi)",
    ]);
    // The trial's key: a public 18-bit RSA key.
    assert.deepEqual(refusal(production({ SERVICE_SIGNING_KEYS: JSON.stringify([{ kty: "RSA", n: "AwAB", e: "AQAB" }]) })), [
      "SERVICE_SIGNING_KEYS: key 1: a public key: the private key is needed (d, p, q, dp, dq, qi)",
    ]);
    assert.deepEqual(refusal(production({ SERVICE_SIGNING_KEYS: JSON.stringify([rsaJwk(2048), rsaJwk(1024)]) })), [
      "SERVICE_SIGNING_KEYS: key 2: 1024-bit modulus: at least 2048 bits are needed",
    ]);
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
    assert.deepEqual(refusal(production({ SERVICE_SIGNING_KEYS: JSON.stringify([ec]) })), [
      "SERVICE_SIGNING_KEYS: key 1: kty EC: an RSA key is needed (RS256)",
    ]);
    assert.deepEqual(refusal(production({ SERVICE_SIGNING_KEYS: "[{}]" })), ["SERVICE_SIGNING_KEYS: key 1: kty missing: an RSA key is needed (RS256)"]);
    assert.deepEqual(refusal(production({ SERVICE_SIGNING_KEYS: "[]" })), [
      "SERVICE_SIGNING_KEYS: a JSON array of at least one private RSA JWK (npm run keys:generate prints one)",
    ]);
    const { p: _p, ...withoutP } = rsaJwk(2048);
    assert.deepEqual(refusal({ SERVICE_SIGNING_KEYS: JSON.stringify([withoutP]) }), ["SERVICE_SIGNING_KEYS: key 1: not a valid RSA private key"]);
    assert.equal(loadConfig(production({ SERVICE_SIGNING_KEYS: JSON.stringify([rsaJwk(3072), rsaJwk(2048)]) })).sandbox, false);
  });

  test("FIELD_ENCRYPTION_KEYS: each key 32 bytes, well-formed and unique ids", () => {
    const key = randomBytes(32).toString("base64");
    assert.deepEqual(refusal(production({ FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(16).toString("base64")}` })), [
      "FIELD_ENCRYPTION_KEYS: Field encryption key k1 must be 32 bytes in base64 (keyId:base64,...; npm run keys:generate prints one)",
    ]);
    assert.match(refusal(production({ FIELD_ENCRYPTION_KEYS: `k.1:${key}` }))[0], /^FIELD_ENCRYPTION_KEYS: Field encryption keyId must match/);
    assert.match(refusal(production({ FIELD_ENCRYPTION_KEYS: `k1:${key},k1:${key}` }))[0], /^FIELD_ENCRYPTION_KEYS: Duplicate field encryption keyId k1/);
    assert.match(refusal(production({ FIELD_ENCRYPTION_KEYS: key }))[0], /^FIELD_ENCRYPTION_KEYS: Field encryption keys must be keyId:base64 pairs/);
    assert.equal(
      loadConfig(production({ FIELD_ENCRYPTION_KEYS: `k2:${key},k1:${randomBytes(32).toString("base64")}` })).FIELD_ENCRYPTION_KEYS?.slice(0, 3),
      "k2:",
    );
  });

  test("npm run keys:generate prints the three production secrets in the formats the configuration parses", async () => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", "scripts/keys-generate.ts"], (err, out) => (err ? reject(err) : resolve(out))),
    );
    const secrets = parseEnv(stdout);
    assert.deepEqual(Object.keys(secrets).sort(), ["FIELD_ENCRYPTION_KEYS", "NEXTAUTH_SECRET", "SERVICE_SIGNING_KEYS"]);
    const c = loadConfig({ ...productionEnv, ...secrets });
    assert.equal(c.SERVICE_SIGNING_KEYS, secrets.SERVICE_SIGNING_KEYS);
    assert.equal(c.FIELD_ENCRYPTION_KEYS, secrets.FIELD_ENCRYPTION_KEYS);
    assert.equal(c.NEXTAUTH_SECRET, secrets.NEXTAUTH_SECRET);
  });
});

describe("the database and every URL setting (issue 36 item 4)", () => {
  test("production without DATABASE_URL is refused with one line naming it (not started on the embedded database)", () => {
    assert.deepEqual(refusal(production({ DATABASE_URL: undefined })), [
      "APP_MODE=production needs DATABASE_URL (postgres://user:password@host:5432/database): the embedded database is for sandbox only",
    ]);
    assert.equal(loadConfig({}).DATABASE_URL, undefined, "the sandbox keeps its embedded database");
  });

  // Every setting whose name says it holds URLs, so a URL setting added later is covered too.
  const urlSettings = SETTINGS.filter((s) => /_URLS?$/.test(s));

  test("a URL setting with a scheme its code cannot use stops the start, naming the setting and the allowed schemes", () => {
    assert.ok(urlSettings.length >= 9, urlSettings.join(", "));
    for (const name of urlSettings) {
      // In sandbox SMTP_URL needs OTP_EMAIL_FROM and SMS_WEBHOOK_URL its secret: given, so the scheme is the one problem.
      // PAYOUT_AGGREGATOR_URL infers the real aggregator, which needs its key and webhook secret: given too.
      const companions = { PAYOUT_AGGREGATOR_KEY: "key-0123456789", PAYOUT_AGGREGATOR_WEBHOOK_SECRET: "whsec-0123456789abcdef" };
      const sandbox = {
        [name]: "ftp://files.example.com/feed",
        OTP_EMAIL_FROM: "a@example.com",
        SMS_WEBHOOK_SECRET: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=",
        ...companions,
      };
      for (const env of [production({ [name]: "ftp://files.example.com/feed", ...companions }), sandbox]) {
        const lines = refusal(env);
        assert.equal(lines.length, 1, `${name}: ${lines.join(" | ")}`);
        assert.match(lines[0], new RegExp(`^${name}: .*ftp:.* (https?|postgres|smtp):`), lines[0]);
      }
    }
    assert.deepEqual(refusal(production({ REFERENCE_RATES_URL: "ftp://ftp.ecb.example/eurofxref-daily.xml" })), [
      "REFERENCE_RATES_URL: scheme ftp: is not allowed: http: or https:",
    ]);
    assert.deepEqual(refusal(production({ DATABASE_URL: "mysql://db.example.com/remit" })), [
      "DATABASE_URL: scheme mysql: is not allowed: postgres: or postgresql:",
    ]);
    assert.deepEqual(refusal({ PUBLIC_BASE_URL: "remit.example.com" }), ["PUBLIC_BASE_URL: not a URL (http:// or https://...)"]);
    assert.deepEqual(refusal({ SANCTIONS_UN_URLS: "data/consolidated.xml,file:///srv/consolidated.xml" }), [
      "SANCTIONS_UN_URLS: file:///srv/consolidated.xml: scheme file: is not allowed: http: or https: (or a file path)",
    ]);
  });

  test("the schemes each setting's code uses are accepted", () => {
    const c = loadConfig(
      production({
        DATABASE_URL: "postgresql://remit:pw@10.0.0.5:5432/remit",
        PUBLIC_BASE_URL: "https://remit.example.com",
        REFERENCE_RATES_SECONDARY_URL: "http://rates.internal/latest.json",
        SANCTIONS_SOURCE_URLS: "https://example.com/sdn.csv,/srv/lists/alt.csv,data/add.csv",
      }),
    );
    assert.equal(c.DATABASE_URL, "postgresql://remit:pw@10.0.0.5:5432/remit");
    assert.deepEqual(c.SANCTIONS_SOURCE_URLS, ["https://example.com/sdn.csv", "/srv/lists/alt.csv", "data/add.csv"]);
    assert.equal(loadConfig(production({ DATABASE_URL: "postgres://remit@db/remit" })).sandbox, false);
  });
});

describe("a refused configuration names every problem at once (issue 20 item 1)", () => {
  test("format problems and production's own refusals: one line each", () => {
    assert.deepEqual(
      refusal(
        production({
          PORT: "zero",
          COLLECTION_ACCOUNT_IBAN: "GB34BUKB20201555555555",
          SERVICE_SIGNING_KEYS: undefined,
          SANDBOX_CLOCK_CONTROL: "true",
        }),
      ),
      [
        "PORT: Invalid input: expected number, received NaN",
        "COLLECTION_ACCOUNT_IBAN: not a valid IBAN",
        "APP_MODE=production refuses SANDBOX_CLOCK_CONTROL",
        "APP_MODE=production needs SERVICE_SIGNING_KEYS (npm run keys:generate prints it)",
      ],
    );
  });
});
