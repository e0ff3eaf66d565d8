import { importJWK } from "jose";

/**
 * Imported RSA public keys by modulus and exponent: a device or partner key is parsed
 * and imported once per process, not on every assertion or quote it verifies. Bounded: the oldest
 * entry goes when it is full. Only kty/n/e are ever imported, as before.
 */
const MAX = 2048;
const KEY = Symbol.for("remit.publicKeys");
type G = typeof globalThis & { [KEY]?: Map<string, Promise<CryptoKey>> };

export function importRsaPublicKey(n: string, e: string): Promise<CryptoKey> {
  const cache = ((globalThis as G)[KEY] ??= new Map());
  const id = `${e}.${n}`;
  let key = cache.get(id);
  if (!key) {
    key = importJWK({ kty: "RSA", n, e }, "RS256").then((k) => {
      // importJWK returns bytes only for symmetric "oct" keys, which cannot reach this point.
      if (k instanceof Uint8Array) throw new Error("unexpected symmetric key");
      return k;
    });
    key.catch(() => cache.delete(id));
    if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
    cache.set(id, key);
  }
  return key;
}
