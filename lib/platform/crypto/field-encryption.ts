/**
 * Encryption at rest for sensitive fields (destination identifiers), AES-256-GCM on node:crypto.
 *
 * Stored form: `v1.<keyId>.<iv>.<ciphertext>.<tag>`, the last three unpadded base64url, with a
 * random 12-byte IV per value and a 16-byte tag. The version and keyId are bound into the GCM
 * additional data, so a value cannot be relabelled to another key or version; an optional
 * caller context (for example the payout method id) is bound too, so a ciphertext copied onto
 * another row does not decrypt there.
 *
 * Rotation: encrypt always uses the current key; decrypt uses whichever known key the value
 * names. Old keys stay configured until `needsReencryption` finds no value using them.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { decodeBase64urlStrict, encodeBase64url } from "./jose-strict/base64url";

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export interface FieldEncryptionConfig {
  /** keyId used for new values; must be present in `keys`. */
  currentKeyId: string;
  /** keyId -> 32-byte key as standard base64 (44 characters, e.g. `openssl rand -base64 32`). */
  keys: Record<string, string>;
}

export type FieldDecryptionFailure = "malformed" | "unknownKey" | "authenticationFailed";

/**
 * A stored value that cannot be decrypted: corrupted, tampered, for another context, or under a
 * key no longer configured. Deliberately not a DomainError: it is an internal fault (a 500 for
 * the caller) and its reason must not reach a client.
 */
export class FieldDecryptionError extends Error {
  readonly reason: FieldDecryptionFailure;
  constructor(reason: FieldDecryptionFailure) {
    super(`Encrypted field could not be decrypted (${reason})`);
    this.name = "FieldDecryptionError";
    this.reason = reason;
  }
}

export interface FieldCipher {
  readonly currentKeyId: string;
  encrypt(plaintext: string, context?: string): string;
  decrypt(stored: string, context?: string): string;
  /** The keyId a stored value names, or null when it is not a v1 value. */
  keyIdOf(stored: string): string | null;
  /** True when the value was written under a key other than the current one. */
  needsReencryption(stored: string): boolean;
}

function decodeKey(keyId: string, base64: string): Buffer {
  if (!KEY_ID.test(keyId)) throw new TypeError(`Field encryption keyId must match ${KEY_ID}: ${keyId}`);
  const key = BASE64.test(base64) ? Buffer.from(base64, "base64") : Buffer.alloc(0);
  if (key.length !== 32) throw new TypeError(`Field encryption key ${keyId} must be 32 bytes in base64`);
  return key;
}

function additionalData(keyId: string, context: string | undefined): Buffer {
  // keyId never contains ".", so "v1.<keyId>." followed by the context is unambiguous.
  return Buffer.from(`${VERSION}.${keyId}.${context ?? ""}`, "utf8");
}

/** Only the canonical encoding is accepted, so one value has one spelling. */
function decodeSegment(segment: string | undefined): Uint8Array | null {
  return segment === undefined ? null : (decodeBase64urlStrict(segment) ?? null);
}

export function createFieldCipher(config: FieldEncryptionConfig): FieldCipher {
  const keys = new Map<string, Buffer>();
  for (const [keyId, base64] of Object.entries(config.keys)) keys.set(keyId, decodeKey(keyId, base64));
  const current = keys.get(config.currentKeyId);
  if (!current) throw new TypeError(`Current field encryption key ${config.currentKeyId} is not configured`);
  const currentKeyId = config.currentKeyId;

  function parse(stored: string) {
    const parts = typeof stored === "string" ? stored.split(".") : [];
    if (parts.length !== 5 || parts[0] !== VERSION || !KEY_ID.test(parts[1]!)) return null;
    const iv = decodeSegment(parts[2]);
    const ciphertext = decodeSegment(parts[3]);
    const tag = decodeSegment(parts[4]);
    if (!iv || !ciphertext || !tag || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
    return { keyId: parts[1]!, iv, ciphertext, tag };
  }

  return {
    currentKeyId,
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, current, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(currentKeyId, context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, currentKeyId, encodeBase64url(iv), encodeBase64url(ciphertext), encodeBase64url(tag)].join(".");
    },
    decrypt(stored, context) {
      const parsed = parse(stored);
      if (!parsed) throw new FieldDecryptionError("malformed");
      const key = keys.get(parsed.keyId);
      if (!key) throw new FieldDecryptionError("unknownKey");
      try {
        const decipher = createDecipheriv(ALGORITHM, key, parsed.iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(additionalData(parsed.keyId, context));
        decipher.setAuthTag(parsed.tag);
        const plaintext = Buffer.concat([decipher.update(parsed.ciphertext), decipher.final()]);
        return new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
      } catch {
        throw new FieldDecryptionError("authenticationFailed");
      }
    },
    keyIdOf(stored) {
      return parse(stored)?.keyId ?? null;
    },
    needsReencryption(stored) {
      return parse(stored)?.keyId !== currentKeyId;
    },
  };
}

/**
 * Reads the cipher configuration from two environment-style strings:
 * `FIELD_ENCRYPTION_KEYS` = "keyId:base64,keyId:base64" and `FIELD_ENCRYPTION_CURRENT_KEY_ID`.
 * Pure: the caller passes the values (no process.env access here).
 */
export function parseFieldEncryptionKeys(keysSpec: string, currentKeyId: string): FieldEncryptionConfig {
  const keys: Record<string, string> = {};
  for (const entry of keysSpec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(":");
    if (colon <= 0) throw new TypeError("Field encryption keys must be keyId:base64 pairs");
    const keyId = entry.slice(0, colon);
    if (Object.hasOwn(keys, keyId)) throw new TypeError(`Duplicate field encryption keyId ${keyId}`);
    keys[keyId] = entry.slice(colon + 1);
  }
  return { currentKeyId, keys };
}
