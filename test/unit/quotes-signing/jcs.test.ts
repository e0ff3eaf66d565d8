import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalJson, canonicalJsonBytes, checkCanonicalJsonBytes, isCanonicalJsonBytes, JcsError } from "@/lib/payments/quotes/signing/jcs";

const FIXTURES = join(process.cwd(), "test/fixtures/jcs");
const utf8 = (s: string) => new TextEncoder().encode(s);

function hexToBytes(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, "");
  return Uint8Array.from(clean.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function assertJcsError(fn: () => unknown, reason: string, path?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof JcsError, `expected JcsError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    if (path !== undefined) assert.equal(error.path, path);
    return true;
  });
}

describe("JCS published test vectors (cyberphone/json-canonicalization testdata)", () => {
  const names = readdirSync(join(FIXTURES, "input"))
    .filter((f) => f.endsWith(".json"))
    .sort();

  it("has all six vectors with input, output and outhex", () => {
    assert.deepEqual(names, ["arrays.json", "french.json", "structures.json", "unicode.json", "values.json", "weird.json"]);
  });

  for (const name of names) {
    const base = name.replace(/\.json$/, "");
    it(`${base}: canonicalJson(input) is exactly output and outhex`, () => {
      const input = readFileSync(join(FIXTURES, "input", name), "utf8");
      const expected = readFileSync(join(FIXTURES, "output", name));
      const expectedHex = hexToBytes(readFileSync(join(FIXTURES, "outhex", `${base}.txt`), "utf8"));
      assert.deepEqual(new Uint8Array(expected), expectedHex, "fixture output and outhex agree");
      const produced = canonicalJsonBytes(JSON.parse(input));
      assert.deepEqual(produced, expectedHex);
      assert.equal(canonicalJson(JSON.parse(input)), expected.toString("utf8"));
    });

    it(`${base}: output bytes are canonical, input bytes are not`, () => {
      const input = readFileSync(join(FIXTURES, "input", name));
      const output = readFileSync(join(FIXTURES, "output", name));
      assert.equal(isCanonicalJsonBytes(output), true);
      assert.equal(isCanonicalJsonBytes(input), false);
    });
  }
});

describe("canonicalJson refusals", () => {
  it("refuses a lone high surrogate in a string value", () => {
    assertJcsError(() => canonicalJson({ a: "x\uD800y" }), "loneSurrogate", "/a");
  });
  it("refuses a lone low surrogate in a string value", () => {
    assertJcsError(() => canonicalJson(["\uDC00"]), "loneSurrogate", "/0");
  });
  it("refuses a reversed surrogate pair", () => {
    assertJcsError(() => canonicalJson("\uDC00\uD800"), "loneSurrogate", "");
  });
  it("refuses a lone surrogate in a member name", () => {
    assertJcsError(() => canonicalJson({ ok: { "k\uD83D": 1 } }), "loneSurrogate", "/ok/k\uD83D");
  });
  it("accepts a proper surrogate pair", () => {
    assert.equal(canonicalJson({ s: "\uD83D\uDE02" }), '{"s":"😂"}');
  });
  for (const [label, n] of [
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
  ] as const) {
    it(`refuses ${label}`, () => {
      assertJcsError(() => canonicalJson({ n: [1, n] }), "nonFinite", "/n/1");
    });
  }
  it("refuses undefined, functions, symbols, bigint and class instances", () => {
    assertJcsError(() => canonicalJson(undefined), "unsupportedType", "");
    assertJcsError(() => canonicalJson({ a: undefined }), "unsupportedType", "/a");
    assertJcsError(() => canonicalJson([() => 1]), "unsupportedType", "/0");
    assertJcsError(() => canonicalJson({ s: Symbol("x") }), "unsupportedType", "/s");
    assertJcsError(() => canonicalJson({ b: 1n }), "unsupportedType", "/b");
    assertJcsError(() => canonicalJson({ d: new Date(0) }), "unsupportedType", "/d");
    assertJcsError(() => canonicalJson({ [Symbol("k")]: 1 }), "unsupportedType", "");
  });
  it("refuses sparse arrays (a hole would silently shift later elements)", () => {
    assertJcsError(() => canonicalJson([1, , 3]), "unsupportedType", "/1");
  });
  it("refuses cycles", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    assertJcsError(() => canonicalJson(a), "cycle", "/self");
  });
  it("refuses nesting deeper than 256", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    assertJcsError(() => canonicalJson(deep), "tooDeep");
  });
  it("allows a shared (non-cyclic) reference", () => {
    const shared = { x: 1 };
    assert.equal(canonicalJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  });
  it("serialises numbers the ECMAScript way and -0 as 0", () => {
    assert.equal(canonicalJson([1.0, -0, 1e21, 1e-7, 0.1 + 0.2]), "[1,0,1e+21,1e-7,0.30000000000000004]");
  });
  it("sorts keys by UTF-16 code units, not code points", () => {
    // U+1F600 is stored as \uD83D\uDE00, which sorts before U+FB33 in UTF-16 order.
    assert.equal(canonicalJson({ "\uFB33": 1, "\u{1F600}": 2 }), '{"\u{1F600}":2,"\uFB33":1}');
  });
});

describe("checkCanonicalJsonBytes / isCanonicalJsonBytes negatives", () => {
  const cases: Array<[string, Uint8Array, string]> = [
    ["whitespace between tokens", utf8('{"a": 1}'), "notCanonical"],
    ["leading whitespace", utf8(' {"a":1}'), "notCanonical"],
    ["trailing newline", utf8('{"a":1}\n'), "notCanonical"],
    ["unsorted keys", utf8('{"b":1,"a":2}'), "notCanonical"],
    ["1.0 instead of 1", utf8('{"a":1.0}'), "notCanonical"],
    ["exponent spelling 1E2", utf8("[1E2]"), "notCanonical"],
    ["escaped ASCII \\u0041", utf8('{"a":"\\u0041"}'), "notCanonical"],
    ["escaped solidus \\/", utf8('["\\/"]'), "notCanonical"],
    ["upper-case hex escape \\u001F", utf8('["\\u001F"]'), "notCanonical"],
    ["number too large for a double", utf8("[1e400]"), "notCanonical"],
    ["integer beyond 2^53 that rounds", utf8("[9007199254740993]"), "notCanonical"],
    ["duplicate member names", utf8('{"a":1,"a":1}'), "duplicateMember"],
    ["duplicate member names nested in an array", utf8('[{"x":{"a":1,"a":2}}]'), "duplicateMember"],
    ["duplicate after escape decoding", utf8('{"a":1,"\\u0061":2}'), "duplicateMember"],
    ["escaped lone surrogate", utf8('["\\ud800"]'), "loneSurrogate"],
    ["escaped lone surrogate in a member name", utf8('{"\\udc00":1}'), "loneSurrogate"],
    ["CESU-8 encoded surrogate (invalid UTF-8)", Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22]), "utf8"],
    ["overlong UTF-8", Uint8Array.from([0x22, 0xc0, 0xaf, 0x22]), "utf8"],
    ["truncated UTF-8", Uint8Array.from([0x22, 0xe2, 0x82, 0x22]), "utf8"],
    ["UTF-8 BOM", Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), "syntax"],
    ["empty input", new Uint8Array(0), "syntax"],
    ["trailing comma", utf8("[1,]"), "syntax"],
    ["single quotes", utf8("['a']"), "syntax"],
    ["NaN literal", utf8("[NaN]"), "syntax"],
    ["two documents", utf8("{}{}"), "syntax"],
    ["raw control character in string", utf8('["\u0001"]'), "syntax"],
  ];
  for (const [label, bytes, reason] of cases) {
    it(`rejects ${label} (${reason})`, () => {
      assert.deepEqual(checkCanonicalJsonBytes(bytes), { ok: false, reason });
      assert.equal(isCanonicalJsonBytes(bytes), false);
    });
  }

  it("accepts canonical documents and returns their value", () => {
    const result = checkCanonicalJsonBytes(utf8('{"a":[1,"\\u001f",null],"b":{"":true}}'));
    assert.deepEqual(result, { ok: true, value: { a: [1, "\u001f", null], b: { "": true } } });
    assert.equal(isCanonicalJsonBytes(utf8("1")), true);
    assert.equal(isCanonicalJsonBytes(utf8('"é"')), true);
  });

  it("property: the canonical form of any JSON value is canonical and round-trips", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const bytes = canonicalJsonBytes(value);
        const check = checkCanonicalJsonBytes(bytes);
        assert.equal(check.ok, true);
        if (check.ok) assert.equal(canonicalJson(check.value), new TextDecoder().decode(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it("property: never throws on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        assert.equal(typeof isCanonicalJsonBytes(bytes), "boolean");
      }),
      { numRuns: 500 },
    );
  });

  it("property: inserting tab, LF or CR anywhere into a canonical document makes it non-canonical", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom("\n", "\t", "\r"), (value, at, ws) => {
        const text = canonicalJson(value);
        const i = at % (text.length + 1);
        const spaced = text.slice(0, i) + ws + text.slice(i);
        // Outside a string it is whitespace; inside one it is an unescaped control character.
        // (A space is left out: inside a string it is data and gives another canonical document.)
        assert.equal(isCanonicalJsonBytes(utf8(spaced)), false);
      }),
      { numRuns: 300 },
    );
  });
});
