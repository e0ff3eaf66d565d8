/**
 * Hostile inputs never leak internals: every error body is exactly the envelope, with no stack
 * trace and no SQL (spec 7, decisions 8).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { call, registerCustomer, uniqueEmail, type CallResult } from "../support";
import { rawRequest } from "../support/console";

// No SQL keywords in the inputs themselves, so any in a response came from the server.
const LONG = "x".repeat(100_000);
const INJECTION = "'; drop table sessions; --";
const nested = (depth: number): unknown => (depth === 0 ? "leaf" : { a: nested(depth - 1) });
const HOSTILE_VALUES: unknown[] = [
  LONG,
  INJECTION,
  `${INJECTION}@example.com`,
  "\u0000",
  "a\u0000b",
  "\ud800",
  "🎉".repeat(1000),
  nested(500),
  [nested(50), null, 1e308],
  null,
  true,
  -1,
  { $ne: null },
  { __proto__: { admin: true } },
];

/** Leaks: stack frames, file paths, driver/database messages, SQL. */
const LEAKS: [string, RegExp][] = [
  ["stack frame", /\bat \S+ \(|\n\s+at |\bat (async )?\S+:\d+:\d+/],
  ["source path", /\/work\/|node_modules|\.tsx?:\d+|webpack|turbopack/i],
  ["SQL", /\b(select|insert|update|delete)\b|\bfrom "|\bwhere\b|\breturning\b/i],
  ["database error", /Failed query|DrizzleQueryError|PostgresError|syntax error|violates|relation "|column "|params:|duplicate key|invalid byte sequence/i],
  ["exception name", /TypeError|RangeError|SyntaxError|ReferenceError/],
];

function assertNoLeak(res: CallResult, what: string) {
  for (const [name, pattern] of LEAKS) assert.doesNotMatch(res.text, pattern, `${what}: ${name} in ${res.text.slice(0, 500)}`);
  if (res.status >= 400) {
    assert.ok(res.body && typeof res.body === "object", `${what}: not JSON: ${res.text.slice(0, 200)}`);
    assert.deepEqual(Object.keys(res.body).sort(), ["correlationId", "error"], what);
    assert.deepEqual(Object.keys(res.body.error).sort(), ["code", "details", "hint", "message", "remediation"], what);
    assert.equal(typeof res.body.error.code, "string");
    assert.equal(typeof res.body.error.message, "string");
  }
}

interface Target {
  method: string;
  path: string;
  fields: string[];
  token?: boolean;
}
const TARGETS: Target[] = [
  { method: "POST", path: "/v1/auth/register/start", fields: ["identifier"] },
  { method: "POST", path: "/v1/auth/register/verify-otp", fields: ["registrationId", "otp"] },
  { method: "POST", path: "/v1/auth/register/set-password", fields: ["registrationId", "password"] },
  { method: "POST", path: "/v1/auth/start", fields: ["identifier"] },
  { method: "POST", path: "/v1/auth/login", fields: ["loginAttemptId", "password"] },
  { method: "POST", path: "/v1/auth/refresh", fields: ["refreshToken"] },
  { method: "POST", path: "/v1/auth/password-reset/start", fields: ["identifier"] },
  { method: "POST", path: "/v1/auth/password-reset/complete", fields: ["identifier", "otp", "newPassword"] },
  { method: "POST", path: "/v1/auth/device-registration/complete", fields: ["deviceRegistrationId", "publicKey", "deviceName", "proof"], token: true },
  { method: "PUT", path: "/v1/sandbox/partner", fields: ["pricingMode", "webhookUrl", "jwks"] },
];
const PLAUSIBLE: Record<string, unknown> = {
  identifier: "a@b.co",
  registrationId: "reg_x",
  otp: "123456",
  password: "a long enough password",
  newPassword: "a long enough password",
  loginAttemptId: "la_x",
  refreshToken: "rt_x",
  deviceRegistrationId: "dreg_x",
  publicKey: { kty: "RSA", n: "AQAB", e: "AQAB" },
  deviceName: "phone",
  proof: "a.b.c",
  // An invalid pricing mode keeps PUT /v1/sandbox/partner from changing the shared partner.
  pricingMode: "NOT_A_MODE",
};

let token: string | undefined;
async function bearer() {
  token ??= (await registerCustomer(uniqueEmail("hostile"))).tokens.accessToken;
  return token;
}

test("hostile field values on every Auth API body: no stack, no SQL, envelope only", async () => {
  for (const target of TARGETS) {
    const auth = target.token ? await bearer() : undefined;
    for (const field of target.fields) {
      for (const value of HOSTILE_VALUES) {
        const body: Record<string, unknown> = {};
        for (const f of target.fields) body[f] = PLAUSIBLE[f];
        body[field] = value;
        const res = await call(target.method, target.path, { body, token: auth });
        assertNoLeak(res, `${target.method} ${target.path} ${field}=${JSON.stringify(value)?.slice(0, 40)}`);
        assert.notEqual(res.status, 200, `${target.path} accepted ${field}=${JSON.stringify(value)?.slice(0, 40)}`);
      }
    }
  }
});

test("hostile keys and shapes: no stack, no SQL, envelope only", async () => {
  const bodies = [
    '{"__proto__":{"polluted":true},"identifier":"a@b.co"}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    `{"${"k".repeat(10_000)}":1}`,
    "[".repeat(50_000) + "]".repeat(50_000),
    `{"identifier":${"[".repeat(5000)}${"]".repeat(5000)}}`,
    '{"identifier":1e999}',
    '{"identifier":"\\u0000"}',
    '{"identifier":"a@b.co","identifier":{"x":1}}',
  ];
  for (const rawBody of bodies) {
    for (const path of ["/v1/auth/start", "/v1/auth/register/start", "/v1/auth/login"]) {
      const res = await call("POST", path, { rawBody, headers: { "content-type": "application/json" } });
      assertNoLeak(res, `${path} ${rawBody.slice(0, 40)}`);
      assert.equal(res.status, 400, `${path} ${rawBody.slice(0, 40)}: ${res.text.slice(0, 200)}`);
    }
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test("hostile query strings, path parameters and headers: no stack, no SQL", async () => {
  const auth = await bearer();
  const values = [LONG.slice(0, 4000), INJECTION, "%00", "%ff%fe", "..%2F..%2Fetc%2Fpasswd", "<script>"];
  for (const v of values) {
    assertNoLeak(await call("GET", `/v1/sandbox/otp?identifier=${encodeURIComponent(v)}`), `otp query ${v.slice(0, 20)}`);
    assertNoLeak(await call("GET", `/v1/sandbox/otp?identifier=${v}`), `otp raw query ${v.slice(0, 20)}`);
    assertNoLeak(await call("POST", `/v1/auth/devices/${encodeURIComponent(v)}/deactivate`, { token: auth }), `deactivate ${v.slice(0, 20)}`);
  }
  for (const t of [INJECTION, "x".repeat(600), "at_\u00ff"]) {
    assertNoLeak(await call("GET", "/v1/auth/devices", { headers: { authorization: `Bearer ${t.replace(/\s/g, "")}` } }), `bearer ${t.slice(0, 20)}`);
  }
  assertNoLeak(await call("GET", "/v1/auth/health", { key: INJECTION }), "subscription key");
  assertNoLeak(await call("GET", "/v1/auth/health", { key: "k".repeat(8000) }), "long subscription key");
});

test(
  "a NUL character in an id is a client error (4xx), not 500",
  {
    todo: "lib/platform/http: strings with U+0000 reach PostgreSQL (invalid byte sequence) and answer 500 server.unexpected; reported",
  },
  async () => {
    const auth = await bearer();
    const cases: [string, string, Record<string, unknown> | undefined, boolean][] = [
      ["POST", "/v1/auth/register/verify-otp", { registrationId: "reg\u0000x", otp: "123456" }, false],
      ["POST", "/v1/auth/register/set-password", { registrationId: "reg\u0000x", password: "a long enough password" }, false],
      ["POST", "/v1/auth/login", { loginAttemptId: "la\u0000x", password: "a long enough password" }, false],
      ["POST", "/v1/auth/device-registration/complete", { deviceRegistrationId: "d\u0000", publicKey: {}, proof: "a.b.c" }, true],
      ["POST", "/v1/auth/devices/dev%00x/deactivate", undefined, true],
    ];
    for (const [method, path, body, needsToken] of cases) {
      const res = await call(method, path, { body, token: needsToken ? auth : undefined });
      assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status} ${res.text.slice(0, 200)}`);
    }
  },
);

test("request headers over 16 KiB (20 KB sent raw): 431 validation.headersTooLarge in the envelope, not Node's empty answer (issue 20 item 5)", async () => {
  for (const path of ["/v1/auth/health", "/console"]) {
    const res = await rawRequest("GET", path, { headers: { "ocp-apim-subscription-key": "sandbox-demo-key", "x-padding": "a".repeat(20_000) } });
    assert.equal(res.status, 431, res.text);
    assert.match(String(res.headers["content-type"]), /^application\/json/);
    const body = JSON.parse(res.text);
    assert.equal(body.error.code, "validation.headersTooLarge");
    assert.equal(body.error.details.maxBytes, 16384);
    assert.equal(body.correlationId, res.headers["x-correlation-id"]);
  }
  // The server still serves the next request.
  assert.equal((await rawRequest("GET", "/v1/auth/health", { headers: { "ocp-apim-subscription-key": "sandbox-demo-key" } })).status, 200);
});
