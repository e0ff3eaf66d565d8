/**
 * npm run keys:generate: prints the three production secrets as environment
 * lines in the formats lib/platform/config parses, single-quoted (sh, systemd EnvironmentFile, dotenv and
 * node --env-file read them alike):
 *   SERVICE_SIGNING_KEYS   a JSON array with one private RSA JWK (2048 bits, RS256, kid = its
 *                          RFC 7638 thumbprint); put a new key first to rotate, keep the old one after it
 *   FIELD_ENCRYPTION_KEYS  keyId:base64 of 32 random bytes (AES-256); a new key goes first, old ones stay after it
 *   NEXTAUTH_SECRET        48 random bytes, base64url
 * Nothing is written anywhere else: store the output as the secrets it is.
 */
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 0x10001 });
const jwk = privateKey.export({ format: "jwk" });
// RFC 7638 thumbprint of the public key: the members e, kty, n in that order.
const kid = createHash("sha256")
  .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
  .digest("base64url");
const signingKeys = JSON.stringify([{ ...jwk, kid, alg: "RS256", use: "sig" }]);
// A date in the id tells the keys of a rotation apart ("k20261125").
const keyId = `k${new Date().toISOString().slice(0, 10).replaceAll("-", "")}`;

process.stdout.write(
  [
    `SERVICE_SIGNING_KEYS='${signingKeys}'`,
    `FIELD_ENCRYPTION_KEYS='${keyId}:${randomBytes(32).toString("base64")}'`,
    `NEXTAUTH_SECRET='${randomBytes(48).toString("base64url")}'`,
    "",
  ].join("\n"),
);
