/**
 * The smallest production configuration that starts: keys, and every provider set to a real
 * implementation (issue 11; payouts by pain.001 files to one payout bank, issue 12). Tests copy it and unset or change one setting at a time.
 */
export const productionEnv: Record<string, string> = {
  APP_MODE: "production",
  NEXTAUTH_SECRET: "x".repeat(40),
  SERVICE_SIGNING_KEYS: "[{}]",
  FIELD_ENCRYPTION_KEYS: "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
  OTP_EMAIL_PROVIDER: "smtp",
  SMTP_URL: "smtp://remit:secret@127.0.0.1:2525",
  OTP_EMAIL_FROM: "Remit <no-reply@example.com>",
  OTP_SMS_PROVIDER: "sms-webhook",
  SMS_WEBHOOK_URL: "https://sms.example.com/hook",
  SMS_WEBHOOK_SECRET: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=",
  SCREENING_PROVIDER: "ofac",
  REFERENCE_RATES_PROVIDER: "ecb",
  REFERENCE_RATES_URL: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
  KYC_DECISION_PROVIDER: "operator",
  PAYOUT_PROVIDER: "pain001",
  PAYOUT_BANKS: JSON.stringify([
    { id: "bbva-mx", name: "BBVA Mexico", bic: "BCMRMXMMXXX", debtorIban: "DE89370400440532013000", debtorName: "Remit Ltd", currencies: ["MXN"] },
  ]),
};
