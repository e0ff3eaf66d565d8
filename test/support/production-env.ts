import { generateKeyPairSync } from "node:crypto";
import path from "node:path";

// A real quote-signing key: production refuses anything but a private RSA key of 2048 bits or more.
const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });

/**
 * The smallest production configuration that starts: keys, and every provider set to a real
 * implementation (payouts by pain.001 files to one payout bank). Tests copy it and unset or change one setting at a time.
 */
export const productionEnv: Record<string, string> = {
  APP_MODE: "production",
  // Production refuses the embedded database; nothing here connects to it (a
  // test that starts a server gives a real one; .invalid never resolves, RFC 6761).
  DATABASE_URL: "postgres://remit@db.invalid:5432/remit",
  NEXTAUTH_SECRET: "x".repeat(40),
  SERVICE_SIGNING_KEYS: JSON.stringify([signingKey]),
  FIELD_ENCRYPTION_KEYS: "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
  OTP_EMAIL_PROVIDER: "smtp",
  SMTP_URL: "smtp://remit:secret@127.0.0.1:2525",
  OTP_EMAIL_FROM: "Remit <no-reply@example.com>",
  OTP_SMS_PROVIDER: "sms-webhook",
  SMS_WEBHOOK_URL: "https://sms.example.com/hook",
  SMS_WEBHOOK_SECRET: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=",
  SCREENING_PROVIDER: "ofac",
  // A file stands for the OpenSanctions URL: a test server must not fetch from the network.
  PEP_SCREENING_PROVIDER: "opensanctions",
  PEP_SOURCE_URLS: path.join(process.cwd(), "data", "pep", "opensanctions-peps", "targets.simple.csv"),
  REFERENCE_RATES_PROVIDER: "ecb",
  REFERENCE_RATES_URL: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
  KYC_DECISION_PROVIDER: "operator",
  FUNDING_PROVIDER: "bank-transfer",
  COLLECTION_ACCOUNT_IBAN: "GB33BUKB20201555555555",
  COLLECTION_ACCOUNT_BIC: "BUKBGB22",
  COLLECTION_ACCOUNT_NAME: "Remit Ltd Client Money",
  COLLECTION_ACCOUNT_CURRENCY: "USD,EUR,GBP",
  PAYOUT_PROVIDER: "pain001",
  PAYOUT_BANKS: JSON.stringify([
    { id: "bbva-mx", name: "BBVA Mexico", bic: "BCMRMXMMXXX", debtorIban: "DE89370400440532013000", debtorName: "Remit Ltd", currencies: ["MXN"] },
  ]),
};
