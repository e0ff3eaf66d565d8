/**
 * The client's retries over real HTTP (a local server playing the service): the same request and
 * Idempotency-Key again after 409 in-flight, 429 and 503, waiting what Retry-After says, bounded.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { createRemitClient, retryAfterMs } from "@remit-core/client";

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}
type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let answers: Answer[] = [];

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const a = answers.shift() ?? { status: 200, body: {} };
      res.writeHead(a.status, { "content-type": "application/json", ...a.headers }).end(JSON.stringify(a.body ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const client = (retry?: Parameters<typeof createRemitClient>[0]["retry"]) =>
  createRemitClient({ baseUrl, subscriptionKey: "sandbox-demo-key", accessToken: "tok", retry });
const quoteBody = { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId: "ben_1" };
const envelope = (code: string, hint: string | null) => ({ error: { code, message: "m", hint, remediation: null, details: null }, correlationId: "c" });

describe("retries", () => {
  it("503 with Retry-After: waits that long, then sends the same body with the same Idempotency-Key", async () => {
    answers = [
      { status: 503, headers: { "retry-after": "1" }, body: envelope("internal.unavailable", "retry_later") },
      { status: 200, body: { quoteId: "q" } },
    ];
    const started = Date.now();
    const res = await client().POST("/v1/core/quotes", { body: quoteBody });
    assert.equal(res.response.status, 200);
    assert.equal(seen.length, 2);
    assert.ok(seen[1]!.at - started >= 1000, `waited ${seen[1]!.at - started} ms`);
    assert.match(String(seen[0]!.headers["idempotency-key"]), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(seen[1]!.headers["idempotency-key"], seen[0]!.headers["idempotency-key"]);
    assert.equal(seen[1]!.body, seen[0]!.body);
    assert.deepEqual(JSON.parse(seen[0]!.body), quoteBody);
    assert.equal(seen[0]!.headers["ocp-apim-subscription-key"], "sandbox-demo-key");
    assert.equal(seen[0]!.headers.authorization, "Bearer tok");
  });

  it("409 idempotency.conflict with hint retry_later (still running) is retried; a real conflict is not", async () => {
    const waits: number[] = [];
    answers = [
      { status: 409, body: envelope("idempotency.conflict", "retry_later") },
      { status: 201, body: {} },
    ];
    const res = await client({ sleep: async (ms) => void waits.push(ms) }).POST("/v1/core/quotes/{quoteId}/accept", {
      params: { path: { quoteId: "q" } },
      body: { disclosureToken: "d", purposeOfTransfer: "FAMILY_SUPPORT" },
    });
    assert.equal(res.response.status, 201);
    assert.equal(seen.length, 2);
    assert.deepEqual(waits, [1000]);

    seen = [];
    answers = [{ status: 409, body: envelope("idempotency.conflict", "fix_request") }];
    const conflict = await client().POST("/v1/core/quotes", { body: quoteBody });
    assert.equal(conflict.response.status, 409);
    assert.equal(conflict.error?.error.code, "idempotency.conflict");
    assert.equal(seen.length, 1);
  });

  it("429 with an HTTP-date Retry-After is honoured; one longer than the bound is returned at once", async () => {
    const waits: number[] = [];
    const at = new Date(Date.now() + 5000).toUTCString();
    answers = [
      { status: 429, headers: { "retry-after": at }, body: envelope("auth.rateLimited", "retry_later") },
      { status: 200, body: {} },
    ];
    await client({ sleep: async (ms) => void waits.push(ms) }).POST("/v1/auth/start", { body: { identifier: "a@example.com" } });
    assert.equal(seen.length, 2);
    assert.ok(waits[0]! > 3000 && waits[0]! <= 5000, String(waits));

    seen = [];
    answers = [{ status: 429, headers: { "retry-after": "900" }, body: envelope("device.assertionLockout", "retry_later") }];
    const res = await client().POST("/v1/core/transfers/{transferId}/confirm", { params: { path: { transferId: "t" } }, body: { deviceAssertion: "x" } });
    assert.equal(res.response.status, 429);
    assert.equal(seen.length, 1);
  });

  it("retries are bounded, and a POST without an Idempotency-Key is not resent after a 503", async () => {
    answers = Array.from({ length: 10 }, () => ({ status: 503, headers: { "retry-after": "0" } }));
    const res = await client({ retries: 2 }).GET("/v1/core/profile");
    assert.equal(res.response.status, 503);
    assert.equal(seen.length, 3);

    seen = [];
    answers = [{ status: 503, headers: { "retry-after": "0" } }];
    const login = await client().POST("/v1/auth/login", { body: { loginAttemptId: "la", password: "p" } });
    assert.equal(login.response.status, 503);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.headers["idempotency-key"], undefined);
  });

  it("a caller's own Idempotency-Key is kept; retry: false sends once", async () => {
    const key = crypto.randomUUID();
    answers = [{ status: 503, headers: { "retry-after": "0" } }];
    const res = await client(false).POST("/v1/core/quotes", { body: quoteBody, params: { header: { "Idempotency-Key": key } } });
    assert.equal(res.response.status, 503);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.headers["idempotency-key"], key);
  });

  it("retryAfterMs reads delay-seconds and HTTP dates, and nothing else", () => {
    assert.equal(retryAfterMs("7"), 7000);
    assert.equal(retryAfterMs("Thu, 01 Jan 2099 00:00:10 GMT", Date.parse("2099-01-01T00:00:00Z")), 10_000);
    assert.equal(retryAfterMs("-5"), null);
    assert.equal(retryAfterMs(null), null);
  });
});
