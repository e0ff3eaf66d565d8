/**
 * Errors that mean the database cannot be reached or is refusing work for now (connection
 * refused or lost, too many connections, shutting down or starting up): answered 503
 * internal.unavailable with Retry-After (lib/platform/errors.ts unavailable()), a temporary problem the
 * client retries (spec 7), rather than 500 server.unexpected. SQLSTATE classes: 08 connection
 * exception, 53300 too_many_connections, 57P01-57P03 shutdown and "cannot connect now".
 */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);
const SQLSTATES = new Set(["53300", "57P01", "57P02", "57P03"]);

export function isTemporarilyUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 3) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || DRIVER_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  // Drizzle wraps driver errors ("Failed query"), and ready() may reject with an AggregateError.
  if (err instanceof AggregateError && err.errors.some((e) => isTemporarilyUnavailable(e, depth + 1))) return true;
  return isTemporarilyUnavailable((err as { cause?: unknown }).cause, depth + 1);
}

export { unavailable } from "@/lib/platform/errors";
