import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { constantTimeEqual, randomToken, sha256Hex } from "@/lib/platform/crypto/hash";

describe("hash helpers", () => {
  it("sha256Hex matches the known vectors", () => {
    assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert.equal(sha256Hex(new TextEncoder().encode("abc")), sha256Hex("abc"));
  });

  it("constantTimeEqual compares contents, whatever the lengths", () => {
    assert.equal(constantTimeEqual("challenge-1", "challenge-1"), true);
    assert.equal(constantTimeEqual("challenge-1", "challenge-2"), false);
    assert.equal(constantTimeEqual("short", "much longer value"), false);
    assert.equal(constantTimeEqual("", ""), true);
    assert.equal(constantTimeEqual("", "x"), false);
  });

  it("randomToken is unpadded base64url of the requested size and unique", () => {
    const token = randomToken();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(randomToken(16), "base64url").length, 16);
    assert.notEqual(randomToken(), randomToken());
    assert.throws(() => randomToken(0), RangeError);
    assert.throws(() => randomToken(1.5), RangeError);
  });
});
