import { DomainError, type ValidationIssue } from "@/lib/platform/errors";

/**
 * Webview return origins (docs/decisions.md, "Return origins"): they become the webviews' CSP
 * `frame-ancestors` and the postMessage target, so only an exact origin is accepted:
 * `https://host[:port]`, lower case, no path, wildcard, credentials or default port, and plain
 * `http` only for localhost or 127.0.0.1 in sandbox. Used by every writer (console, sandbox
 * endpoint) and again by the CSP builder, so nothing else can reach a header.
 */

export const MAX_RETURN_ORIGINS = 10;

// DNS labels or dotted IPv4: exactly the host characters a CSP host-source allows (no `*`, `;`).
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const ORIGIN = new RegExp(`^(https?)://(${LABEL}(?:\\.${LABEL})*)(?::([1-9][0-9]{0,4}))?$`);
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1"]);

/** Why `value` is not an acceptable return origin, or null when it is. */
export function originProblem(value: string, { allowLocalHttp }: { allowLocalHttp: boolean }): string | null {
  if (value.length > 253) return "Too long for an origin.";
  const match = ORIGIN.exec(value);
  if (!match) {
    if (/[;,\s'"]/.test(value)) return "An origin cannot contain spaces, quotes, commas or semicolons.";
    if (value.includes("*")) return "Wildcards are not accepted: list each exact origin.";
    if (/^https?:\/\/[^/]+\/./.test(value) || value.endsWith("/")) return "An origin has no path, not even a trailing slash.";
    if (value !== value.toLowerCase()) return "Write the origin in lower case.";
    return "Expected an exact origin: https://host or https://host:port.";
  }
  const [, scheme, host, port] = match;
  if (port !== undefined && Number(port) > 65535) return "The port must be between 1 and 65535.";
  if (scheme === "https" && port === "443") return "Leave out the default port 443.";
  if (scheme === "http") {
    if (!LOCAL_HOSTS.has(host)) return "Only https is accepted (http only for localhost and 127.0.0.1 in sandbox).";
    if (!allowLocalHttp) return "http origins are accepted only in sandbox.";
    if (port === "80") return "Leave out the default port 80.";
  }
  return null;
}

/**
 * The origins as given (duplicates dropped), or a 400 listing each bad one under
 * `<field>[index]` with validation.fieldFormatInvalid.
 */
export function validReturnOrigins(values: string[], opts: { allowLocalHttp: boolean; field?: string }): string[] {
  const field = opts.field ?? "returnOrigins";
  const issues: ValidationIssue[] = [];
  // The console shows the message alone: it names each bad origin.
  const lines: string[] = [];
  values.forEach((value, i) => {
    const problem = originProblem(value, opts);
    if (!problem) return;
    issues.push({ field: `${field}[${i}]`, code: "validation.fieldFormatInvalid", message: problem });
    lines.push(`${field}[${i}] ${JSON.stringify(value)}: ${problem}`);
  });
  if (values.length > MAX_RETURN_ORIGINS) {
    issues.push({ field, code: "validation.fieldInvalid", message: `At most ${MAX_RETURN_ORIGINS} origins.` });
    lines.push(`${field}: at most ${MAX_RETURN_ORIGINS} origins.`);
  }
  if (issues.length > 0) {
    const codes = new Set(issues.map((i) => i.code));
    throw new DomainError(codes.size === 1 ? issues[0].code : "validation.fieldInvalid", {
      message: lines.join(" "),
      details: { issues },
      hint: "fix_request",
    });
  }
  return [...new Set(values)];
}

/**
 * Defence in depth for header builders: keeps only values that are syntactically safe origins
 * (whatever the mode), so a row written before validation existed cannot inject a directive.
 */
export function headerSafeOrigins(values: readonly unknown[]): string[] {
  return values.filter((v): v is string => typeof v === "string" && originProblem(v, { allowLocalHttp: true }) === null);
}
