/**
 * lib/platform/webviews/origins.ts and the CSP builders: only exact origins are stored,
 * and a header never carries anything else, even from a row written before validation existed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import { headerSafeOrigins, originProblem, validReturnOrigins } from "@/lib/platform/webviews/origins";
import { consoleContentSecurityPolicy, webviewContentSecurityPolicy } from "@/lib/platform/webviews/security-headers";

const SANDBOX = { allowLocalHttp: true };
const PRODUCTION = { allowLocalHttp: false };

test("exact https origins, with or without a port, are accepted in both modes", () => {
  for (const origin of ["https://app.example.com", "https://example.com:8443", "https://xn--bcher-kva.example", "https://10.0.0.1", "https://a-b.c-d.io"]) {
    assert.equal(originProblem(origin, PRODUCTION), null, origin);
    assert.equal(originProblem(origin, SANDBOX), null, origin);
  }
});

test("http only for localhost and 127.0.0.1, and only in sandbox", () => {
  for (const origin of ["http://localhost:3000", "http://127.0.0.1:8080", "http://localhost"]) {
    assert.equal(originProblem(origin, SANDBOX), null, origin);
    assert.match(originProblem(origin, PRODUCTION) ?? "", /only in sandbox/, origin);
  }
  assert.match(originProblem("http://app.example.com", SANDBOX) ?? "", /Only https/);
  assert.match(originProblem("http://localhost.example.com", SANDBOX) ?? "", /Only https/);
});

test("wildcards, directive injection, paths and other non-origins are refused with a reason", () => {
  const cases: [string, RegExp][] = [
    ["*", /Wildcards/],
    ["https://*", /Wildcards/],
    ["https://*.example.com", /Wildcards/],
    ["https://a.example.com; script-src *", /semicolons/],
    ["https://a.example.com;script-src", /semicolons/],
    ["https://a.example.com 'unsafe-inline'", /spaces/],
    ["https://a.example.com,https://b.example.com", /commas/],
    ["https://a.example.com/", /no path/],
    ["https://a.example.com/callback", /no path/],
    ["https://App.Example.com", /lower case/],
    ["https://example.com:443", /default port 443/],
    ["http://localhost:80", /default port 80/],
    ["https://example.com:70000", /port/],
    ["https://example.com:0", /exact origin/],
    ["https://user:pw@example.com", /exact origin/],
    ["https://[::1]", /exact origin/],
    ["ftp://example.com", /exact origin/],
    ["javascript:alert(1)", /exact origin/],
    ["'self'", /quotes/],
    ["'none'", /quotes/],
    ["https://example.com?x=1", /exact origin/],
    ["https://-bad.example.com", /exact origin/],
    ["", /exact origin/],
    [`https://${"a".repeat(250)}.com`, /Too long/],
  ];
  for (const [value, reason] of cases) assert.match(originProblem(value, SANDBOX) ?? "(accepted)", reason, value);
});

test("validReturnOrigins: a 400 naming each bad origin by field path and code; duplicates dropped", () => {
  assert.deepEqual(validReturnOrigins(["https://a.example", "https://a.example", "https://b.example"], PRODUCTION), ["https://a.example", "https://b.example"]);
  let err: unknown;
  try {
    validReturnOrigins(["https://ok.example", "*", "https://a.example; script-src *"], PRODUCTION);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof DomainError);
  assert.equal(err.code, "validation.fieldFormatInvalid");
  assert.equal(err.status, 400);
  const issues = (err.details as { issues: { field: string; code: string }[] }).issues;
  assert.deepEqual(
    issues.map((i) => [i.field, i.code]),
    [
      ["returnOrigins[1]", "validation.fieldFormatInvalid"],
      ["returnOrigins[2]", "validation.fieldFormatInvalid"],
    ],
  );
  assert.match(err.message, /returnOrigins\[1\] "\*": Wildcards/);
  assert.throws(
    () =>
      validReturnOrigins(
        Array.from({ length: 11 }, (_, i) => `https://o${i}.example`),
        PRODUCTION,
      ),
    (e: unknown) => e instanceof DomainError && e.code === "validation.fieldInvalid",
  );
});

test("headerSafeOrigins keeps only safe origins (any mode's), whatever the stored value", () => {
  assert.deepEqual(headerSafeOrigins(["https://a.example", "*", "https://b.example; script-src *", 42, null, "http://localhost:3000", "http://evil.example"]), [
    "https://a.example",
    "http://localhost:3000",
  ]);
});

test("webview CSP: frame-ancestors lists only safe stored origins, 'none' when none is left", () => {
  const csp = webviewContentSecurityPolicy("bm9uY2U=", ["https://a.example", "*", "https://b.example; script-src 'unsafe-inline'"]);
  assert.match(csp, /frame-ancestors https:\/\/a\.example$/);
  assert.doesNotMatch(csp, /unsafe-inline'[^;]*;[^;]*frame|\*|b\.example/);
  assert.equal(csp.split(";").filter((d) => d.trim().startsWith("script-src")).length, 1);
  assert.match(webviewContentSecurityPolicy("bm9uY2U=", ["*", "https://x.example;"]), /frame-ancestors 'none'$/);
});

test("console CSP: nonce-based scripts and frame-ancestors 'none'", () => {
  const csp = consoleContentSecurityPolicy("bm9uY2U=");
  assert.match(csp, /script-src 'self' 'nonce-bm9uY2U=' 'strict-dynamic'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /base-uri 'none'/);
});
