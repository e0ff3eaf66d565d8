import { DomainError } from "@/lib/platform/errors";

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Deepest nesting of objects and arrays a body may have (docs/decisions.md). Our deepest schema
 * needs 4; recursive code downstream (canonical JSON for idempotency fingerprints, validation)
 * must never see a body deep enough to overflow the stack.
 */
export const MAX_JSON_DEPTH = 32;

const bodyMalformed = (message: string) => new DomainError("validation.bodyMalformed", { message, hint: "fix_request" });

/** Reads at most `limit` bytes, refusing as soon as the stream passes it (never buffers more). */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function tooLarge(limit: number): DomainError {
  return new DomainError("validation.bodyTooLarge", {
    message: `The request body is larger than ${limit} bytes.`,
    details: { maxBytes: limit },
    hint: "fix_request",
  });
}

/** application/json, optionally with charset utf-8; anything else is 415. */
function assertJsonContentType(req: Request): void {
  const type = req.headers.get("content-type");
  if (!type) throw new DomainError("validation.contentTypeUnsupported", { message: "Send Content-Type: application/json." });
  const [media, ...params] = type.split(";").map((s) => s.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith("charset="))
    ?.slice(8)
    .replace(/"/g, "");
  if (media !== "application/json" || (charset && charset !== "utf-8")) {
    throw new DomainError("validation.contentTypeUnsupported", {
      message: "Only application/json (UTF-8) is accepted.",
      details: { received: media },
    });
  }
}

/**
 * The parsed JSON body, or undefined when the request has none. Malformed JSON and invalid UTF-8
 * are validation.bodyMalformed before any schema runs.
 */
export async function readJsonBody(req: Request, { required }: { required: boolean }): Promise<unknown> {
  // The media type is checked before any byte is read (a wrong type is 415 whatever the size).
  if (req.headers.get("content-type")) assertJsonContentType(req);
  const bytes = await readLimited(req, MAX_BODY_BYTES);
  if (!req.headers.get("content-type")) {
    // No body at all: an empty object, so the schema names what is missing. A body needs a type.
    if (bytes.byteLength === 0) return required ? {} : undefined;
    assertJsonContentType(req);
  }
  if (bytes.byteLength === 0) {
    if (required) throw bodyMalformed("The request body is empty; a JSON object is expected.");
    return undefined;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw bodyMalformed("The request body is not valid UTF-8.");
  }
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    throw new DomainError("validation.bodyMalformed", {
      message: `The request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`,
      details: { maxDepth: MAX_JSON_DEPTH },
      hint: "fix_request",
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw bodyMalformed("The request body is not valid JSON.");
  }
}

/**
 * The deepest bracket nesting of a JSON text, scanned iteratively (no recursion) and ignoring
 * brackets inside strings. Run before JSON.parse, so a hostile body is refused before any object
 * exists; stops counting as soon as the limit is passed.
 */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** Largest XML document a request may carry (an ISO 20022 report or statement). */
export const MAX_XML_BODY_BYTES = 5 * 1024 * 1024;

/**
 * The text of an application/xml (or text/xml) body, UTF-8. Anything else is 415, an empty or
 * non-UTF-8 body validation.bodyMalformed; the document itself is the domain's to check.
 */
export async function readXmlBody(req: Request): Promise<string> {
  const [media, ...params] = (req.headers.get("content-type") ?? "").split(";").map((s) => s.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith("charset="))
    ?.slice(8)
    .replace(/"/g, "");
  if ((media !== "application/xml" && media !== "text/xml") || (charset && charset !== "utf-8")) {
    throw new DomainError("validation.contentTypeUnsupported", {
      message: "Send Content-Type: application/xml (UTF-8).",
      details: { received: media || null },
    });
  }
  const bytes = await readLimited(req, MAX_XML_BODY_BYTES);
  if (bytes.byteLength === 0) throw bodyMalformed("The request body is empty; an XML document is expected.");
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw bodyMalformed("The request body is not valid UTF-8.");
  }
}
