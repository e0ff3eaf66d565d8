import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { decodeBase64urlStrict, encodeBase64url } from "@/lib/platform/crypto/jose-strict/base64url";
import { parseStrictJson, StrictJsonError } from "@/lib/platform/crypto/jose-strict/strict-json";

function reasonOf(text: string): string | undefined {
  try {
    parseStrictJson(text);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof StrictJsonError);
    return error.reason;
  }
}

describe("parseStrictJson", () => {
  it("parses what JSON.parse parses when names are unique", () => {
    const text = ' { "a" : [ 1 , -2.5e+3 , true , false , null , "x\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9" ] , "b" : { } , "c" : [ ] } ';
    assert.deepEqual(parseStrictJson(text), JSON.parse(text));
  });

  it("finds duplicate names at any depth, after escape decoding", () => {
    assert.equal(reasonOf('{"a":1,"a":2}'), "duplicateMember");
    assert.equal(reasonOf('[[{"k":{"z":0,"z":0}}]]'), "duplicateMember");
    assert.equal(reasonOf('{"\\u00e9":1,"é":2}'), "duplicateMember");
  });

  it("treats same names in sibling objects as distinct", () => {
    assert.deepEqual(parseStrictJson('[{"a":1},{"a":2}]'), [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(parseStrictJson('{"a":{"a":{"a":1}}}'), { a: { a: { a: 1 } } });
  });

  it("refuses lone surrogates, raw or escaped, keeping proper pairs", () => {
    assert.equal(reasonOf('"\\ud800"'), "loneSurrogate");
    assert.equal(reasonOf('"\\udc00\\ud800"'), "loneSurrogate");
    assert.equal(reasonOf('"\uD800"'), "loneSurrogate");
    assert.equal(parseStrictJson('"\\ud83d\\ude02"'), "😂");
  });

  for (const bad of [
    "",
    " ",
    "{",
    "[1,]",
    '{"a":1,}',
    "{,}",
    '{"a"}',
    '{"a" 1}',
    "01",
    "1.",
    ".5",
    "-",
    "+1",
    "1e",
    "0x10",
    "tru",
    "nul",
    "[1 2]",
    '"\\x"',
    '"\\u12G4"',
    '"abc',
    "'a'",
    "[1]]",
    "{} x",
    "\u00a01",
  ]) {
    it(`refuses ${JSON.stringify(bad)} as syntax`, () => {
      assert.equal(reasonOf(bad), "syntax");
    });
  }

  it("handles deep nesting without recursion", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    assert.doesNotThrow(() => parseStrictJson(deep));
  });

  it("property: agrees with JSON.parse on JSON.stringify output", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        assert.deepEqual(parseStrictJson(text), JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("property: never accepts what JSON.parse refuses", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary-ascii", maxLength: 20 }), (text) => {
        let jsonParseOk = true;
        try {
          JSON.parse(text);
        } catch {
          jsonParseOk = false;
        }
        if (!jsonParseOk) assert.notEqual(reasonOf(text), undefined);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("decodeBase64urlStrict", () => {
  it("decodes canonical unpadded base64url", () => {
    assert.deepEqual(decodeBase64urlStrict("AQID"), Uint8Array.from([1, 2, 3]));
    assert.deepEqual(decodeBase64urlStrict("_-8"), Uint8Array.from([0xff, 0xef]));
    assert.deepEqual(decodeBase64urlStrict(""), new Uint8Array(0));
  });

  for (const bad of ["AQ==", "AQ=", "AQI D", "AQ\nID", " AQID", "AQID\t", "+/8", "AR", "AQJ", "A", "AQID!"]) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      assert.equal(decodeBase64urlStrict(bad), undefined);
    });
  }

  it("property: encode then strict-decode is the identity", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        assert.deepEqual(decodeBase64urlStrict(encodeBase64url(bytes)), bytes);
      }),
    );
  });
});
