/** Request body handling over HTTP: content type, JSON, size, UTF-8, schema issues (spec 7, decisions 8). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { BASE_URL, PARTNER_KEY, assertError, call, type CallResult } from "../support";

const issues = (res: CallResult) => (res.body.error.details?.issues ?? []) as { field: string; code: string; message?: string }[];
const JSON_TYPE = { "content-type": "application/json" };
const raw = (rawBody: string | Uint8Array, headers: Record<string, string> = JSON_TYPE, path = "/v1/auth/start") => call("POST", path, { rawBody, headers });

test("malformed JSON: 400 validation.bodyMalformed", async () => {
  for (const text of ["{", '{"identifier":}', "{'identifier':'a@b.co'}", '{"identifier":"a@b.co"}}', "nul"]) {
    assertError(await raw(text), 400, "validation.bodyMalformed");
  }
});

test("empty body with a JSON content type: 400 validation.bodyMalformed", async () => {
  assertError(await raw(""), 400, "validation.bodyMalformed");
});

test("wrong content type: 415 validation.contentTypeUnsupported", async () => {
  const body = JSON.stringify({ identifier: "a@b.co" });
  for (const type of [
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/xml",
    "application/json; charset=iso-8859-1",
    "multipart/form-data; boundary=x",
  ]) {
    assertError(await raw(body, { "content-type": type }), 415, "validation.contentTypeUnsupported");
  }
});

test("application/json with charset utf-8 is accepted", async () => {
  const res = await raw(JSON.stringify({ identifier: "a@b.co" }), { "content-type": "application/json; charset=UTF-8" });
  assert.equal(res.status, 200, res.text);
});

test("a body without Content-Type: 415 validation.contentTypeUnsupported", async () => {
  const res = await raw(new TextEncoder().encode(JSON.stringify({ identifier: "a@b.co" })), {});
  assertError(res, 415, "validation.contentTypeUnsupported");
});

test("body over 1 MiB: 413 validation.bodyTooLarge with details.maxBytes", async () => {
  const big = JSON.stringify({ identifier: "a".repeat(1024 * 1024) });
  const error = assertError(await raw(big), 413, "validation.bodyTooLarge");
  assert.deepEqual(error.details, { maxBytes: 1048576 });
});

/** POSTs ~1.25 MiB in chunks (no Content-Length) on its own connection; the status and body, or null when the transport failed. */
function postChunked(path: string): Promise<{ status: number; text: string } | null> {
  return new Promise((resolve) => {
    const req = request(
      new URL(path, BASE_URL),
      { method: "POST", agent: false, headers: { ...JSON_TYPE, "ocp-apim-subscription-key": PARTNER_KEY } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", () => resolve(null));
      },
    );
    req.on("error", () => resolve(null));
    const chunk = " ".repeat(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < 20) {
        sent++;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

test("body over 1 MiB sent in chunks without Content-Length: 413 as well", async () => {
  // The server answers before the client has finished sending and then closes, so the client's
  // writes may race the answer (EPIPE/ECONNRESET) and lose it: retry only such transport failures.
  let result: { status: number; text: string } | null = null;
  for (let attempt = 0; attempt < 5 && !result; attempt++) result = await postChunked("/v1/auth/start");
  assert.ok(result, "no answer in 5 attempts");
  assert.equal(result.status, 413, result.text);
  assert.equal(JSON.parse(result.text).error.code, "validation.bodyTooLarge");
});

test("a body just under 1 MiB is read (and then judged by the schema)", async () => {
  const filler = "a".repeat(1024 * 1024 - 100);
  const res = await raw(JSON.stringify({ identifier: filler }));
  assertError(res, 400, "validation.fieldInvalid");
  assert.deepEqual(
    issues(res).map((i) => [i.field, i.code]),
    [["identifier", "validation.fieldInvalid"]],
  );
});

test("invalid UTF-8 bytes: 400 validation.bodyMalformed", async () => {
  const enc = new TextEncoder();
  const bad = [
    new Uint8Array([...enc.encode('{"identifier":"a'), 0xff, ...enc.encode('@b.co"}')]),
    new Uint8Array([...enc.encode('{"identifier":"a'), 0xc3, 0x28, ...enc.encode('@b.co"}')]),
    new Uint8Array([...enc.encode('{"identifier":"a'), 0xed, 0xa0, 0x80, ...enc.encode('@b.co"}')]), // encoded surrogate
  ];
  for (const bytes of bad) assertError(await raw(bytes), 400, "validation.bodyMalformed");
});

test("unknown field: 400, issue validation.fieldUnknown with its path", async () => {
  const res = await call("POST", "/v1/auth/start", { body: { identifier: "a@b.co", extra: true } });
  assertError(res, 400, "validation.fieldInvalid");
  assert.deepEqual(
    issues(res).map((i) => [i.field, i.code]),
    [["extra", "validation.fieldUnknown"]],
  );
});

test("wrong types: validation.fieldInvalid with dotted paths and bracket indices", async () => {
  const res = await call("PUT", "/v1/sandbox/partner", { body: { jwks: { keys: [{ kty: "RSA" }, 7] }, pricingMode: 5 } });
  assertError(res, 400, "validation.fieldInvalid");
  assert.deepEqual(
    issues(res)
      .map((i) => [i.field, i.code])
      .sort(),
    [
      ["jwks.keys[1]", "validation.fieldInvalid"],
      ["pricingMode", "validation.fieldInvalid"],
    ],
  );
  const nested = await call("PUT", "/v1/sandbox/partner", { body: { jwks: { keys: "none" } } });
  assertError(nested, 400, "validation.fieldInvalid");
  assert.deepEqual(
    issues(nested).map((i) => [i.field, i.code]),
    [["jwks.keys", "validation.fieldInvalid"]],
  );
  const top = await call("POST", "/v1/auth/start", { body: { identifier: 42 } });
  assertError(top, 400, "validation.fieldInvalid");
  assert.deepEqual(
    issues(top).map((i) => [i.field, i.code]),
    [["identifier", "validation.fieldInvalid"]],
  );
});

test("missing field: validation.fieldMissing, nested path included", async () => {
  const res = await call("POST", "/v1/auth/login", { body: {} });
  assertError(res, 400, "validation.fieldMissing");
  assert.deepEqual(
    issues(res)
      .map((i) => [i.field, i.code])
      .sort(),
    [
      ["loginAttemptId", "validation.fieldMissing"],
      ["password", "validation.fieldMissing"],
    ],
  );
  const nested = await call("PUT", "/v1/sandbox/partner", { body: { jwks: {} } });
  assertError(nested, 400, "validation.fieldMissing");
  assert.deepEqual(
    issues(nested).map((i) => [i.field, i.code]),
    [["jwks.keys", "validation.fieldMissing"]],
  );
});

test("missing and wrong together: summary validation.fieldInvalid listing both", async () => {
  const res = await call("POST", "/v1/auth/login", { body: { password: 12 } });
  assertError(res, 400, "validation.fieldInvalid");
  assert.deepEqual(
    issues(res)
      .map((i) => [i.field, i.code])
      .sort(),
    [
      ["loginAttemptId", "validation.fieldMissing"],
      ["password", "validation.fieldInvalid"],
    ],
  );
});

test("a JSON value that is not an object: 400 validation.fieldInvalid on (root)", async () => {
  for (const text of ["[]", '"a@b.co"', "null", "42"]) {
    const res = await raw(text);
    assertError(res, 400, "validation.fieldInvalid");
    assert.deepEqual(
      issues(res).map((i) => i.field),
      ["(root)"],
      text,
    );
  }
});

test("query parameters: missing is validation.fieldMissing on query.<name>", async () => {
  const res = await call("GET", "/v1/sandbox/otp");
  assertError(res, 400, "validation.fieldMissing");
  assert.deepEqual(
    issues(res).map((i) => [i.field, i.code]),
    [["query.identifier", "validation.fieldMissing"]],
  );
});

test("validation errors do not write anything: the subscription key is checked first", async () => {
  // Without a key the body is not even read: 401, not 400/415.
  const res = await call("POST", "/v1/auth/start", { key: null, rawBody: "{", headers: JSON_TYPE });
  assertError(res, 401, "auth.subscriptionKeyInvalid");
});
