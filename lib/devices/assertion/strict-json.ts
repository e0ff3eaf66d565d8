/**
 * JSON parsing for security tokens. JSON.parse silently keeps the last of duplicate member names,
 * while other parsers keep the first; a token whose header or claims read differently to two
 * parsers is an attack surface, so duplicates are rejected outright (RFC 7515 section 4).
 */

/** Member names of every object in already-valid JSON text; throws on a repeated name. */
function assertNoDuplicateMembers(text: string): void {
  const stack: { names: Set<string> | null; expectName: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.names && top.expectName) {
        // Decoded names are compared, so "a" and "\u0061" count as the same member.
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.names.has(name)) throw new SyntaxError("Duplicate JSON member name");
        top.names.add(name);
        top.expectName = false;
      }
      i = end;
    } else if (ch === "{") {
      stack.push({ names: new Set(), expectName: true });
    } else if (ch === "[") {
      stack.push({ names: null, expectName: false });
    } else if (ch === "}" || ch === "]") {
      stack.pop();
    } else if (ch === ",") {
      const top = stack[stack.length - 1];
      if (top?.names) top.expectName = true;
    }
  }
}

/** JSON.parse that also rejects duplicate member names anywhere in the document. */
export function parseJsonStrict(text: string): unknown {
  const value: unknown = JSON.parse(text); // syntax first, so the scan below can trust the structure
  assertNoDuplicateMembers(text);
  return value;
}

/** UTF-8 bytes to text, rejecting invalid sequences and keeping a BOM (so JSON.parse refuses it). */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
}
