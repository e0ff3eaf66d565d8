import { createPrivateKey, type JsonWebKey } from "node:crypto";
import ipaddr from "ipaddr.js";
import { createFieldCipher, parseFieldEncryptionKeys } from "@/lib/platform/crypto/field-encryption";

/**
 * The checks lib/platform/config runs on settings whose format a schema alone cannot state: each returns the problems as short phrases, lib/platform/config prefixes the setting's name, so
 * a refused configuration prints one line per problem. Pure and synchronous: the start-up check
 * that needs the network (the SMTP login) lives in lib/operations/runtime/startup-check.ts.
 */

/** The smallest modulus accepted for a quote-signing key (NIST SP 800-57: 2048 bits until 2030). */
export const MIN_SIGNING_KEY_BITS = 2048;

/**
 * SERVICE_SIGNING_KEYS: a JSON array of private RSA JWKs, newest first. Each is imported by
 * node:crypto as a private key (so a public JWK, or one missing its CRT parameters, is refused:
 * the service could not sign with it, yet its public half would be published at
 * /.well-known/jwks.json) and needs a modulus of at least 2048 bits.
 */
export function signingKeyProblems(raw: string): string[] {
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return ["not JSON: a JSON array of private RSA JWKs (npm run keys:generate prints one)"];
  }
  if (!Array.isArray(list) || list.length === 0) return ["a JSON array of at least one private RSA JWK (npm run keys:generate prints one)"];
  const problems: string[] = [];
  const kids = new Set<string>();
  list.forEach((jwk: unknown, i) => {
    const which = `key ${i + 1}`;
    if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) return problems.push(`${which}: not a JWK object`);
    const k = jwk as JsonWebKey & { kid?: unknown; alg?: unknown };
    if (k.kty !== "RSA") return problems.push(`${which}: kty ${String(k.kty ?? "missing")}: an RSA key is needed (RS256)`);
    if (k.d === undefined) return problems.push(`${which}: a public key: the private key is needed (d, p, q, dp, dq, qi)`);
    if (k.alg !== undefined && k.alg !== "RS256") problems.push(`${which}: alg ${String(k.alg)}: quotes are signed with RS256`);
    if (k.kid !== undefined) {
      if (typeof k.kid !== "string" || k.kid === "") problems.push(`${which}: kid must be a non-empty string`);
      else if (kids.has(k.kid)) problems.push(`${which}: kid ${k.kid} appears twice`);
      else kids.add(k.kid);
    }
    let bits: number | undefined;
    try {
      bits = createPrivateKey({ key: k, format: "jwk" }).asymmetricKeyDetails?.modulusLength;
    } catch {
      return problems.push(`${which}: not a valid RSA private key`);
    }
    if (!bits || bits < MIN_SIGNING_KEY_BITS) problems.push(`${which}: ${bits ?? "unknown"}-bit modulus: at least ${MIN_SIGNING_KEY_BITS} bits are needed`);
  });
  return problems;
}

/** The key id that encrypts new values: the first of FIELD_ENCRYPTION_KEYS (lib/platform/crypto/destination-cipher.ts). */
export function currentFieldKeyId(raw: string): string {
  return raw.split(":")[0]!.trim();
}

/** FIELD_ENCRYPTION_KEYS "keyId:base64,...": each key 32 bytes (AES-256), ids [A-Za-z0-9_-], unique. */
export function fieldKeyProblems(raw: string): string[] {
  try {
    createFieldCipher(parseFieldEncryptionKeys(raw, currentFieldKeyId(raw)));
    return [];
  } catch (e) {
    return [`${e instanceof Error ? e.message : String(e)} (keyId:base64,...; npm run keys:generate prints one)`];
  }
}

export interface SmtpEndpoint {
  host: string;
  /** smtps:// (TLS from the first byte). */
  implicitTls: boolean;
  /** ?requireTLS=true: nodemailer refuses to send unless the server's STARTTLS succeeds. */
  requireTls: boolean;
  /** ?tls.rejectUnauthorized=false: TLS without checking the server's certificate. */
  unverifiedTls: boolean;
  hasCredentials: boolean;
}

/** SMTP_URL as nodemailer reads it (lib/platform/notifications/email.ts), or the problem with it. */
export function parseSmtpUrl(raw: string): SmtpEndpoint | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL: smtp://host:port, smtps://host:port or smtp://host:587?requireTLS=true, user:password@ optional";
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") return `${url.protocol} is not smtp: or smtps:`;
  if (!url.hostname) return "no host";
  if (url.username && !url.password) return "a user without a password";
  if (!url.username && url.password) return "a password without a user";
  const flag = (name: string) => url.searchParams.get(name)?.toLowerCase();
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    implicitTls: url.protocol === "smtps:",
    requireTls: flag("requireTLS") === "true",
    unverifiedTls: flag("tls.rejectUnauthorized") === "false",
    hasCredentials: url.username !== "",
  };
}

/** localhost, 127.0.0.0/8, ::1 (and ::ffff:127.x): a relay on this machine, reached without a network. */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === "loopback";
}

/**
 * Production: the code in an OTP mail must not cross a network in clear. A relay on this machine
 * (a null-client MTA on port 25) is fine without TLS and without credentials; any other host needs
 * smtps:// or STARTTLS required (?requireTLS=true), with the certificate checked.
 */
export function smtpProductionProblem(endpoint: SmtpEndpoint): string | null {
  if (isLoopbackHost(endpoint.host)) return null;
  if (endpoint.unverifiedTls) return `host ${endpoint.host} with tls.rejectUnauthorized=false: production checks the server's certificate`;
  if (endpoint.implicitTls || endpoint.requireTls) return null;
  return `host ${endpoint.host} without TLS: production needs smtps://, or smtp://...?requireTLS=true (STARTTLS), for a host other than loopback`;
}

/**
 * The schemes each URL setting accepts. `new URL` alone takes any scheme, so
 * REFERENCE_RATES_URL=ftp://... used to start and leave /readyz at "no reference rates" forever;
 * now a scheme no code path of the setting can use stops the process with the setting's name.
 * Checked at start by lib/platform/config (SMTP_URL by parseSmtpUrl above).
 */
export const URL_SCHEMES = {
  DATABASE_URL: ["postgres", "postgresql"],
  PUBLIC_BASE_URL: ["http", "https"],
  REFERENCE_RATES_URL: ["http", "https"],
  REFERENCE_RATES_SECONDARY_URL: ["http", "https"],
  SMS_WEBHOOK_URL: ["http", "https"],
  OPERATIONS_ALERT_WEBHOOK_URL: ["http", "https"],
  // Customers' documents leave only over TLS.
  ONFIDO_API_URL: ["https"],
  // Payout instructions (beneficiaries' accounts, amounts) leave only over TLS.
  PAYOUT_AGGREGATOR_URL: ["https"],
} as const satisfies Record<string, readonly string[]>;

/** The problem with a URL setting's value, or null: not a URL, or a scheme outside `schemes`. */
export function urlSchemeProblem(raw: string, schemes: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `not a URL (${schemes.map((s) => `${s}://`).join(" or ")}...)`;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  return schemes.includes(scheme) ? null : `scheme ${scheme}: is not allowed: ${schemes.map((s) => `${s}:`).join(" or ")}`;
}

/**
 * A sanctions source (SANCTIONS_*_URLS): a file path, or an http(s) URL (lib/compliance/screening/list-store.ts
 * reads anything else as a file, so ftp://host/sdn.csv would fail at every refresh, not at start).
 */
export function sourceSchemeProblem(raw: string): string | null {
  // A scheme is letters then "://" (a relative or absolute file path has none).
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return null;
  return scheme === "http" || scheme === "https" ? null : `${raw}: scheme ${scheme}: is not allowed: http: or https: (or a file path)`;
}
