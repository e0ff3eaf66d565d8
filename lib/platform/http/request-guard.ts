import { DomainError } from "@/lib/platform/errors";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { envelopeOf } from "./envelope";

/**
 * Requests Next itself would answer with a bare 500 (docs/decisions.md, "Requests refused before
 * routing"), refused at the Node server before Next routes the request (guardRequestsInNode): a method Next has no handler slot for
 * (TRACE, PROPFIND...), a path whose percent-encoding is not UTF-8 (`%ff`), and a console POST
 * (server action, next-auth form) larger than the server-action body limit. /v1 and /api answer
 * in the error envelope, pages with a small HTML page.
 */

/** The methods a route can export in Next; anything else never reaches one. */
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Equal to `serverActions.bodySizeLimit` in next.config.mjs ("1mb"): one limit, answered here as 413. */
export const CONSOLE_BODY_MAX_BYTES = 1024 * 1024;

// The keyless JSON routes outside /v1 (the published keys and the probes) answer like the API.
const isApi = (path: string) =>
  path.startsWith("/v1/") || path === "/v1" || path.startsWith("/api/") || path.startsWith("/.well-known/") || /^\/(livez|readyz)(\/|$)/.test(path);
const isConsolePost = (path: string) => path === "/console" || path.startsWith("/console/") || path.startsWith("/api/auth/");

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

interface Refusal {
  err: DomainError;
  headers?: Record<string, string>;
}

/** Why a request must be refused before routing, or null to let it through. */
function refusalOf(method: string, path: string, header: (name: string) => string | null): Refusal | null {
  if (!SERVED_METHODS.includes(method)) {
    const allow = SERVED_METHODS.join(", ");
    return {
      err: new DomainError("route.methodNotAllowed", { message: `${method} is not supported by this service.`, details: { allow } }),
      headers: { allow },
    };
  }
  if (!decodable(path)) {
    const message = "The path is not valid percent-encoded UTF-8.";
    const issues = [{ field: "path", code: "validation.fieldFormatInvalid", message }];
    return { err: new DomainError("validation.fieldFormatInvalid", { message, details: { issues }, hint: "fix_request" }) };
  }
  if (method === "POST" && isConsolePost(path)) {
    const length = header("content-length");
    // Browsers always declare a form's or action's length; a streamed console POST is refused.
    if (length === null && header("transfer-encoding")) {
      return { err: new DomainError("validation.bodyMalformed", { message: "Send a Content-Length with console forms.", hint: "fix_request" }) };
    }
    if (Number(length) > CONSOLE_BODY_MAX_BYTES) {
      const err = new DomainError("validation.bodyTooLarge", {
        message: `The form is larger than ${CONSOLE_BODY_MAX_BYTES} bytes; nothing was changed.`,
        details: { maxBytes: CONSOLE_BODY_MAX_BYTES },
        hint: "fix_request",
      });
      return { err };
    }
  }
  return null;
}

const SAFE_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Runs the refusals above once per request at the Node server, before Next routes it (
 * not in proxy.ts, which only pages need, so API requests skip Next's proxy layer). TRACE, TRACK
 * and CONNECT could only be refused here anyway: undici's Request refuses them (fetch's forbidden
 * methods), so Next would answer a bare 500 before any of our code runs. `next start` exposes no
 * hook on its server: the Node server's request event is wrapped (installed once from
 * instrumentation.ts).
 */
export function guardRequestsInNode(): void {
  const proto = http.Server.prototype as http.Server & { [GUARDED]?: true };
  if (proto[GUARDED]) return;
  proto[GUARDED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      const url = req.url ?? "/";
      const query = url.indexOf("?");
      const path = query < 0 ? url : url.slice(0, query);
      const header = (name: string) => {
        const value = req.headers[name];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      };
      const refusal = refusalOf(req.method ?? "GET", path, header);
      if (refusal) {
        const given = header("x-correlation-id");
        const { status, headers, body } = render(path, refusal, given && SAFE_CORRELATION_ID.test(given) ? given : randomUUID());
        res.writeHead(status, headers).end(body);
        return true;
      }
    }
    return (emit as (event: string | symbol, ...args: unknown[]) => boolean).call(this, event, ...args);
  } as typeof proto.emit;
}

/**
 * Request headers over Node's limit (16 KiB, `--max-http-header-size`) never become a request:
 * Node's HTTP parser fails and, with no `clientError` listener, writes a bare `431` with an empty
 * body. `next start` exposes no hook on its server, so, as for TRACE above, the Node server's
 * emit is wrapped (installed once from instrumentation.ts): a header overflow is answered with
 * 431 `validation.headersTooLarge` in the error envelope, then the connection is closed (the rest
 * of the request cannot be read). Every other client error keeps Node's own handling.
 */
export function answerOversizedHeadersInNode(): void {
  const proto = http.Server.prototype as http.Server & { [HEADERS_GUARDED]?: true };
  if (proto[HEADERS_GUARDED]) return;
  proto[HEADERS_GUARDED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "clientError") {
      const [err, socket] = args as [NodeJS.ErrnoException, import("node:stream").Duplex];
      if (err?.code === "HPE_HEADER_OVERFLOW" && socket.writable) {
        socket.end(headersTooLargeResponse(randomUUID()));
        return true;
      }
    }
    return (emit as (event: string | symbol, ...args: unknown[]) => boolean).call(this, event, ...args);
  } as typeof proto.emit;
}

/** Node's default limit, unless the process was started with another. */
const maxHeaderBytes = () => http.maxHeaderSize;

/** The raw HTTP/1.1 answer to a header overflow: the envelope as JSON, then close. */
export function headersTooLargeResponse(correlationId: string): string {
  const err = new DomainError("validation.headersTooLarge", {
    message: `The request headers are larger than ${maxHeaderBytes()} bytes (cookies and tokens included); nothing was processed.`,
    details: { maxBytes: maxHeaderBytes() },
    hint: "fix_request",
  });
  const body = JSON.stringify(envelopeOf(err, correlationId));
  return [
    "HTTP/1.1 431 Request Header Fields Too Large",
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(body)}`,
    "cache-control: no-store",
    `x-correlation-id: ${correlationId}`,
    "connection: close",
    "",
    body,
  ].join("\r\n");
}

const HEADERS_GUARDED = Symbol.for("remit.headerOverflowGuard");
const GUARDED = Symbol.for("remit.requestGuard");

function render(path: string, { err, headers = {} }: Refusal, correlationId: string): { status: number; headers: Record<string, string>; body: string } {
  const page = isApi(path)
    ? {
        body: JSON.stringify(envelopeOf(err, correlationId)),
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-correlation-id": correlationId },
      }
    : { body: htmlPage(err), headers: HTML_HEADERS };
  return { status: err.status, headers: { ...page.headers, ...headers }, body: page.body };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
};

/** A console route's refusal (a download's bad parameter): the same page, its status from the error. */
export function consoleErrorResponse(err: DomainError): Response {
  return new Response(htmlPage(err), { status: err.status, headers: HTML_HEADERS });
}

/** A self-contained page (no script, inline style only) in the console's look. */
function htmlPage(err: DomainError): string {
  const title = err.status === 405 ? "Method not allowed" : err.status === 413 ? "Request too large" : "Bad request";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Console</title>
<style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0}main{background:#fff;border:1px solid #e2e8f0;border-radius:.5rem;padding:1.5rem;max-width:28rem}a{color:#1d4ed8}</style></head>
<body><main role="alert"><h1>${title}</h1><p>${escapeHtml(err.message)}</p><p><a href="/console">Back to the console</a></p></main></body></html>`;
}
