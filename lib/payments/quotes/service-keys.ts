import { createPrivateKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { isNull } from "drizzle-orm";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Db } from "@/db";
import { signingKeys } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";

export interface SigningKey {
  kid: string;
  /** Imported once per process: signing re-parses nothing (lib/payments/quotes/signing/sign-quote.ts). */
  privateKey: KeyObject;
}

const importPrivate = (jwk: JWK): KeyObject => createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" });

interface KeySet {
  current: SigningKey;
  /** Public JWKs to publish: the current key and retired keys whose quotes may still be valid. */
  published: JWK[];
}

const KEY = Symbol.for("remit.signingKeys");
type G = typeof globalThis & { [KEY]?: Promise<KeySet> };

async function fromRows(db: Db): Promise<KeySet> {
  const now = clock.now();
  let rows = await db.select().from(signingKeys);
  if (!rows.some((r) => r.retiredAt === null)) {
    // Sandbox: generate and persist the first key; every node then loads the same one.
    const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk, "sha256");
    await db
      .insert(signingKeys)
      .values({ kid, privateJwk: (await exportJWK(privateKey)) as Record<string, unknown>, publicJwk: publicJwk as Record<string, unknown>, createdAt: now })
      .onConflictDoNothing();
    rows = await db.select().from(signingKeys).where(isNull(signingKeys.retiredAt));
  }
  const active = rows.filter((r) => r.retiredAt === null).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  // A retired key stays published until the longest-lived quote it signed has expired.
  const maxQuoteSeconds = Math.max(config().QUOTE_TTL_SECONDS, config().QUOTE_OFFLINE_TTL_SECONDS);
  const published = rows
    .filter((r) => r.retiredAt === null || addSeconds(r.retiredAt, maxQuoteSeconds).getTime() > now.getTime())
    .map((r) => ({ ...(r.publicJwk as JWK), kid: r.kid, use: "sig", alg: "RS256" }));
  return { current: { kid: active.kid, privateKey: importPrivate(active.privateJwk as JWK) }, published };
}

/** Production keys come from SERVICE_SIGNING_KEYS (JSON array of private RSA JWKs, newest first). */
async function fromConfig(raw: string): Promise<KeySet> {
  const jwks = JSON.parse(raw) as JWK[];
  const withKids = await Promise.all(
    jwks.map(async (jwk) => ({ jwk, kid: jwk.kid ?? (await calculateJwkThumbprint({ kty: "RSA", n: jwk.n, e: jwk.e }, "sha256")) })),
  );
  const [first] = withKids;
  return {
    current: { kid: first.kid, privateKey: importPrivate(first.jwk) },
    published: withKids.map(({ jwk, kid }) => ({ kty: "RSA", n: jwk.n, e: jwk.e, kid, use: "sig", alg: "RS256" })),
  };
}

/**
 * Loads the service's quote-signing keys once per process; ready() calls it at start, so request
 * code (inside a transaction) only ever reads the cached set.
 */
export function loadSigningKeys(db: Db): Promise<KeySet> {
  const g = globalThis as G;
  if (!g[KEY]) {
    const configured = config().SERVICE_SIGNING_KEYS;
    g[KEY] = configured ? fromConfig(configured) : fromRows(db);
    g[KEY].catch(() => delete g[KEY]);
  }
  return g[KEY];
}

export function signingKeySet(): Promise<KeySet> {
  const loaded = (globalThis as G)[KEY];
  if (!loaded) throw new Error("signing keys not loaded: call ready() first");
  return loaded;
}
