import pino from "pino";
import { config } from "@/lib/platform/config";
import { correlationMixin } from "./correlation";

/**
 * Structured JSON logs. Redaction is a second line of defence: code never passes secrets, tokens,
 * passwords, OTPs or full destination identifiers to the logger in the first place.
 */
const REDACT = [
  "password",
  "newPassword",
  "otp",
  "accessToken",
  "refreshToken",
  "token",
  "authorization",
  "apiKey",
  "secret",
  "webhookSecret",
  "destinationIdentifier",
  "deviceAssertion",
  "proof",
  "*.password",
  "*.newPassword",
  "*.otp",
  "*.accessToken",
  "*.refreshToken",
  "*.token",
  "*.authorization",
  "*.apiKey",
  "*.secret",
  "*.webhookSecret",
  "*.destinationIdentifier",
  "*.deviceAssertion",
  "*.proof",
  "headers.authorization",
  "headers['ocp-apim-subscription-key']",
];

const KEY = Symbol.for("remit.logger");
type G = typeof globalThis & { [KEY]?: pino.Logger };

export function logger(): pino.Logger {
  const g = globalThis as G;
  return (g[KEY] ??= pino(
    {
      level: config().LOG_LEVEL,
      base: { service: "remit-core" },
      // The correlation id of the request or job in progress on every line (lib/platform/log/correlation.ts).
      mixin: correlationMixin,
      redact: { paths: REDACT, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    // Off the request's path: lines are written asynchronously (pino
    // flushes the buffer when the process exits); a synchronous write per request blocked the loop.
    pino.destination({ dest: 1, sync: false }),
  ));
}
