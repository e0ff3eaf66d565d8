/**
 * Strict JSON reading for every signed token (partner quotes, spec 5.4; device assertions and
 * registration proofs, spec 5.3). JSON.parse accepts input that a signature check must refuse:
 * it keeps the last of duplicate member names (so a verifier and another reader can see
 * different values) and it happily returns lone surrogates from "\ud800" escapes.
 * This module validates RFC 8259 grammar with a small iterative tokenizer (no recursion, so deep
 * nesting cannot overflow the stack), detects duplicate member names at any depth after decoding
 * escapes, and only then hands the text to JSON.parse.
 */

export type StrictJsonFailure = "utf8" | "syntax" | "duplicateMember" | "loneSurrogate";

export class StrictJsonError extends Error {
  readonly reason: StrictJsonFailure;
  constructor(reason: StrictJsonFailure, message: string) {
    super(message);
    this.name = "StrictJsonError";
    this.reason = reason;
  }
}

/** fatal: invalid UTF-8 (overlongs, encoded surrogates, truncation) throws instead of becoming U+FFFD. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes bytes as UTF-8, refusing anything malformed. A BOM is kept, so JSON parsing rejects it. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new StrictJsonError("utf8", "bytes are not valid UTF-8");
  }
}

// Without the u flag the regex works on UTF-16 code units, which is what a lone surrogate is.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

type Frame = { kind: "object"; names: Set<string> } | { kind: "array" };

/**
 * Checks that text is exactly one RFC 8259 JSON value with no duplicate member names and no
 * lone surrogates (raw or escaped) in any string; throws StrictJsonError otherwise.
 */
export function scanStrictJson(text: string): void {
  let i = 0;
  const stack: Frame[] = [];

  const fail = (reason: StrictJsonFailure, what: string): never => {
    throw new StrictJsonError(reason, `${what} at offset ${i}`);
  };
  const skipWs = (): void => {
    // RFC 8259 whitespace only: space, tab, LF, CR.
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
  };
  const readString = (): string => {
    // Caller has checked text[i] === '"'.
    i++;
    let out = "";
    for (;;) {
      if (i >= text.length) fail("syntax", "unterminated string");
      const ch = text[i]!;
      const code = ch.charCodeAt(0);
      if (ch === '"') {
        i++;
        break;
      }
      if (code < 0x20) fail("syntax", "unescaped control character");
      if (ch !== "\\") {
        out += ch;
        i++;
        continue;
      }
      const esc = text[i + 1];
      if (esc === undefined) fail("syntax", "unterminated escape");
      if (esc === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail("syntax", "bad \\u escape");
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      const simple = SIMPLE_ESCAPES[esc!];
      if (simple === undefined) fail("syntax", "bad escape");
      out += simple;
      i += 2;
    }
    if (hasLoneSurrogate(out)) fail("loneSurrogate", "lone surrogate in string");
    return out;
  };
  const readMemberName = (frame: { names: Set<string> }): void => {
    skipWs();
    if (text[i] !== '"') fail("syntax", "expected member name");
    const name = readString();
    if (frame.names.has(name)) fail("duplicateMember", "duplicate member name");
    frame.names.add(name);
    skipWs();
    if (text[i] !== ":") fail("syntax", "expected ':'");
    i++;
  };

  for (;;) {
    // Read one value; containers push a frame and loop back to read their first element.
    skipWs();
    const c = text[i];
    if (c === "{") {
      i++;
      skipWs();
      if (text[i] === "}") {
        i++;
      } else {
        const frame: Frame = { kind: "object", names: new Set() };
        stack.push(frame);
        readMemberName(frame);
        continue;
      }
    } else if (c === "[") {
      i++;
      skipWs();
      if (text[i] === "]") {
        i++;
      } else {
        stack.push({ kind: "array" });
        continue;
      }
    } else if (c === '"') {
      readString();
    } else if (text.startsWith("true", i)) {
      i += 4;
    } else if (text.startsWith("false", i)) {
      i += 5;
    } else if (text.startsWith("null", i)) {
      i += 4;
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) fail("syntax", "unexpected character");
      i += m![0].length;
    }

    // After a value: separators and closers until another value is expected or input ends.
    for (;;) {
      skipWs();
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if (i !== text.length) fail("syntax", "trailing characters");
        return;
      }
      const ch = text[i];
      if (ch === ",") {
        i++;
        if (top.kind === "object") readMemberName(top);
        break;
      }
      if (ch === (top.kind === "object" ? "}" : "]")) {
        i++;
        stack.pop();
        continue;
      }
      fail("syntax", "expected ',' or closing bracket");
    }
  }
}

/** scanStrictJson, then JSON.parse: the value of a document known to be unambiguous. */
export function parseStrictJson(text: string): unknown {
  scanStrictJson(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Unreachable if the scanner matches RFC 8259; kept so a disagreement still fails closed.
    throw new StrictJsonError("syntax", "JSON.parse rejected the document");
  }
}

/** UTF-8 bytes to a strictly parsed JSON value. */
export function parseStrictJsonBytes(bytes: Uint8Array): unknown {
  return parseStrictJson(decodeUtf8Strict(bytes));
}
