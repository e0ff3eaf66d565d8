import assert from "node:assert/strict";
import { createPublicKey, verify } from "node:crypto";
import { describe, it } from "node:test";
import { importPKCS8 } from "jose";
import { DomainError } from "@/lib/platform/errors";
import { canonicalJson, isCanonicalJsonBytes } from "@/lib/payments/quotes/signing/jcs";
import { signQuoteClaims } from "@/lib/payments/quotes/signing/sign-quote";
import { verifyPartnerQuote, type PartnerQuoteClaims } from "@/lib/payments/quotes/signing/verify-partner-quote";
import { KID, NOW, publicJwk, rsaKeyPair, validClaims } from "./helpers";

const { publicKey, privateKey } = rsaKeyPair(2048);
const claims = () => validClaims() as unknown as PartnerQuoteClaims;

describe("signQuoteClaims", () => {
  it("produces header {alg,kid,typ} and the JCS payload, signed RS256 over base64url(header).base64url(payload)", async () => {
    const token = await signQuoteClaims(claims(), privateKey, KID);
    const [h, p, s] = token.split(".") as [string, string, string];
    assert.equal(Buffer.from(h, "base64url").toString("utf8"), `{"alg":"RS256","kid":"${KID}","typ":"JWT"}`);
    const payload = Buffer.from(p, "base64url");
    assert.equal(payload.toString("utf8"), canonicalJson(validClaims()));
    assert.equal(isCanonicalJsonBytes(payload), true);
    // Independent check with node:crypto (not jose): RSASSA-PKCS1-v1_5 SHA-256 over the ASCII signing input.
    assert.equal(verify("sha256", Buffer.from(`${h}.${p}`, "ascii"), publicKey, Buffer.from(s, "base64url")), true);
  });

  it("is deterministic (PKCS#1 v1.5) and accepts a WebCrypto CryptoKey too", async () => {
    const pem = privateKey.export({ format: "pem", type: "pkcs8" }) as string;
    const cryptoKey = await importPKCS8(pem, "RS256");
    assert.equal(await signQuoteClaims(claims(), cryptoKey, KID), await signQuoteClaims(claims(), privateKey, KID));
  });

  it("round-trips through verifyPartnerQuote", async () => {
    const token = await signQuoteClaims(claims(), privateKey, KID);
    const verified = await verifyPartnerQuote(token, { jwks: { keys: [publicJwk(publicKey)] }, now: NOW, maxTtlSeconds: 60 });
    assert.deepEqual(verified, validClaims());
  });

  it("signs only the spec claims (extra properties are dropped)", async () => {
    const token = await signQuoteClaims({ ...claims(), internal_note: "x" } as PartnerQuoteClaims, privateKey, KID);
    const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
    assert.equal(payload.internal_note, undefined);
  });

  it("refuses claims a verifier would refuse", async () => {
    await assert.rejects(
      signQuoteClaims(validClaims({ fx_rate: 17.1 }) as unknown as PartnerQuoteClaims, privateKey, KID),
      (e: unknown) => e instanceof DomainError && e.code === "quote.invalid" && e.details?.claim === "fx_rate",
    );
    await assert.rejects(
      signQuoteClaims(validClaims({ expires_at: "2030-01-01T00:00:00Z" }) as unknown as PartnerQuoteClaims, privateKey, KID),
      (e: unknown) => e instanceof DomainError && e.code === "quote.invalid" && e.details?.failedCheck === "expiresAtMismatch",
    );
  });

  it("refuses a lone surrogate in a claim", async () => {
    await assert.rejects(
      signQuoteClaims(validClaims({ quote_id: "q\uD800" }) as unknown as PartnerQuoteClaims, privateKey, KID),
      (e: unknown) => e instanceof DomainError && e.code === "quote.invalid" && e.details?.failedCheck === "claimsNotCanonicalisable",
    );
  });

  it("refuses an empty kid", async () => {
    await assert.rejects(
      signQuoteClaims(claims(), privateKey, ""),
      (e: unknown) => e instanceof DomainError && e.code === "server.unexpected" && e.details?.failedCheck === "signerKid",
    );
  });

  it("refuses a public key (jose rejects it for signing)", async () => {
    await assert.rejects(signQuoteClaims(claims(), createPublicKey(privateKey), KID));
  });
});
