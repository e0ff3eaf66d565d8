import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createFieldCipher, FieldDecryptionError, parseFieldEncryptionKeys } from "@/lib/platform/crypto/field-encryption";

const keyA = randomBytes(32).toString("base64");
const keyB = randomBytes(32).toString("base64");
const cipherA = createFieldCipher({ currentKeyId: "k2025", keys: { k2025: keyA } });

function failsWith(reason: string, fn: () => unknown) {
  assert.throws(fn, (error: unknown) => error instanceof FieldDecryptionError && error.reason === reason);
}

function flipChar(segment: string, index = 0): string {
  const c = segment[index]!;
  return segment.slice(0, index) + (c === "A" ? "B" : "A") + segment.slice(index + 1);
}

describe("field encryption", () => {
  it("round-trips, including unicode and the empty string", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 64 }), (plaintext) => cipherA.decrypt(cipherA.encrypt(plaintext)) === plaintext));
    assert.equal(cipherA.decrypt(cipherA.encrypt("")), "");
  });

  it("writes v1.<keyId>.<iv>.<ciphertext>.<tag> with a 12-byte IV and 16-byte tag", () => {
    const stored = cipherA.encrypt("002010077777777771");
    const [version, keyId, iv, ciphertext, tag] = stored.split(".");
    assert.equal(version, "v1");
    assert.equal(keyId, "k2025");
    assert.equal(Buffer.from(iv!, "base64url").length, 12);
    assert.equal(Buffer.from(ciphertext!, "base64url").length, 18);
    assert.equal(Buffer.from(tag!, "base64url").length, 16);
    assert.match(stored, /^v1\.k2025\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.ok(!stored.includes("002010077777777771"));
  });

  it("uses a fresh IV each time", () => {
    const a = cipherA.encrypt("same");
    const b = cipherA.encrypt("same");
    assert.notEqual(a, b);
    assert.notEqual(a.split(".")[2], b.split(".")[2]);
  });

  it("detects tampering with the IV, ciphertext or tag", () => {
    const stored = cipherA.encrypt("+2348031234567");
    const parts = stored.split(".");
    for (const index of [2, 3, 4]) {
      const tampered = [...parts];
      tampered[index] = flipChar(tampered[index]!, 1);
      failsWith("authenticationFailed", () => cipherA.decrypt(tampered.join(".")));
    }
  });

  it("detects relabelling a value to another configured key", () => {
    const both = createFieldCipher({ currentKeyId: "k2025", keys: { k2025: keyA, k2024: keyA } });
    const relabelled = both.encrypt("secret").replace("v1.k2025.", "v1.k2024.");
    // Same key material, but the keyId is authenticated.
    failsWith("authenticationFailed", () => both.decrypt(relabelled));
  });

  it("binds the optional context", () => {
    const stored = cipherA.encrypt("PHWALLET0001UI", "pm_123");
    assert.equal(cipherA.decrypt(stored, "pm_123"), "PHWALLET0001UI");
    failsWith("authenticationFailed", () => cipherA.decrypt(stored, "pm_456"));
    failsWith("authenticationFailed", () => cipherA.decrypt(stored));
  });

  it("fails with the wrong key", () => {
    const other = createFieldCipher({ currentKeyId: "k2025", keys: { k2025: keyB } });
    failsWith("authenticationFailed", () => other.decrypt(cipherA.encrypt("secret")));
  });

  it("fails for an unknown keyId", () => {
    const other = createFieldCipher({ currentKeyId: "k2026", keys: { k2026: keyB } });
    failsWith("unknownKey", () => other.decrypt(cipherA.encrypt("secret")));
  });

  it("rejects malformed values", () => {
    const good = cipherA.encrypt("secret");
    const [v, k, iv, ct, tag] = good.split(".") as [string, string, string, string, string];
    for (const bad of [
      "",
      "plaintext",
      `v2.${k}.${iv}.${ct}.${tag}`,
      `${v}.${k}.${iv}.${ct}`,
      `${v}.${k}.${iv}.${ct}.${tag}.x`,
      `${v}.${k}.${iv}=.${ct}.${tag}`,
      `${v}.${k}.${iv.slice(2)}.${ct}.${tag}`,
      `${v}.${k}.${iv}.${ct}.${tag.slice(4)}`,
      `${v}.k!d.${iv}.${ct}.${tag}`,
    ]) {
      failsWith("malformed", () => cipherA.decrypt(bad));
    }
  });

  it("rotates: encrypts with the current key, decrypts values of older keys", () => {
    const old = createFieldCipher({ currentKeyId: "k2024", keys: { k2024: keyA } });
    const oldValue = old.encrypt("SN08SN0100152000048500003035");
    const rotated = createFieldCipher({ currentKeyId: "k2025", keys: { k2024: keyA, k2025: keyB } });
    assert.equal(rotated.decrypt(oldValue), "SN08SN0100152000048500003035");
    assert.equal(rotated.needsReencryption(oldValue), true);
    const newValue = rotated.encrypt(rotated.decrypt(oldValue));
    assert.equal(rotated.keyIdOf(newValue), "k2025");
    assert.equal(rotated.needsReencryption(newValue), false);
    // The old key alone can no longer read the re-encrypted value.
    failsWith("unknownKey", () => old.decrypt(newValue));
  });

  it("refuses bad key configuration", () => {
    assert.throws(() => createFieldCipher({ currentKeyId: "k", keys: { k: randomBytes(16).toString("base64") } }), TypeError);
    assert.throws(() => createFieldCipher({ currentKeyId: "k", keys: { k: "not base64!" } }), TypeError);
    assert.throws(() => createFieldCipher({ currentKeyId: "missing", keys: { k: keyA } }), TypeError);
    assert.throws(() => createFieldCipher({ currentKeyId: "a.b", keys: { "a.b": keyA } }), TypeError);
  });

  it("parses the environment form of the key list", () => {
    const config = parseFieldEncryptionKeys(`k2024:${keyA}, k2025:${keyB}`, "k2025");
    assert.deepEqual(config, { currentKeyId: "k2025", keys: { k2024: keyA, k2025: keyB } });
    assert.throws(() => parseFieldEncryptionKeys(`k:${keyA},k:${keyB}`, "k"), TypeError);
    assert.throws(() => parseFieldEncryptionKeys(keyA, "k"), TypeError);
  });
});
