/**
 * Over HTTP: PUT /v1/sandbox/partner refuses return origins that are not exact
 * origins (a wildcard, an injected CSP directive, a path, plain http off localhost) with the
 * field path and code, stores exact ones, and the webview's frame-ancestors shows exactly them.
 * The console's form goes through the same domain function (test/unit/db/partner-origins.test.ts).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { call } from "../support/client";
import { openWebview } from "../customers/helpers";
import { customerWithProfile, openKyc } from "../support";

let original: string[];

before(async () => {
  const current = await call("PUT", "/v1/sandbox/partner", { body: {} });
  assert.equal(current.status, 200, current.text);
  original = current.body.returnOrigins;
});
// The demo partner is shared with every other test: put its origins back.
after(async () => {
  const res = await call("PUT", "/v1/sandbox/partner", { body: { returnOrigins: original } });
  assert.equal(res.status, 200, res.text);
});

test("'*', ';'-bearing and other non-origins: 400 validation.fieldFormatInvalid on returnOrigins[i]; nothing stored", async () => {
  const cases: string[][] = [
    ["*"],
    ["https://partner.example", "https://a.example; script-src 'unsafe-inline'"],
    ["https://*.partner.example"],
    ["https://partner.example/return"],
    ["http://partner.example"],
    ["https://partner.example 'unsafe-eval'"],
    ["'self'"],
  ];
  for (const returnOrigins of cases) {
    const res = await call("PUT", "/v1/sandbox/partner", { body: { returnOrigins } });
    const what = JSON.stringify(returnOrigins);
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.equal(res.body.error.code, "validation.fieldFormatInvalid", what);
    assert.deepEqual(
      res.body.error.details.issues.map((i: any) => [i.field, i.code]),
      [[`returnOrigins[${returnOrigins.length - 1}]`, "validation.fieldFormatInvalid"]],
      what,
    );
    assert.ok(res.body.error.details.issues[0].message.length > 10, what);
  }
  const now = await call("PUT", "/v1/sandbox/partner", { body: {} });
  assert.deepEqual(now.body.returnOrigins, original);
});

test("exact origins are stored and become the webview's frame-ancestors", async () => {
  const origins = ["https://app.partner.example", "https://partner.example:8443", "http://localhost:3000"];
  const res = await call("PUT", "/v1/sandbox/partner", { body: { returnOrigins: origins } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.returnOrigins, origins);

  const session = await openKyc(await customerWithProfile());
  assert.equal(session.closureCallback.postMessage.targetOrigin, origins[0]);
  const page = await openWebview(session.webviewUrl);
  assert.equal(page.status, 200);
  const csp = page.headers.get("content-security-policy") ?? "";
  assert.match(csp, /frame-ancestors https:\/\/app\.partner\.example https:\/\/partner\.example:8443 http:\/\/localhost:3000(;|$)/, csp);
});
