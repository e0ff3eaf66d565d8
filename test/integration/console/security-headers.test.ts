/**
 * Every console page (read from app/console) and next-auth's endpoints answer
 * with a nonce-based Content-Security-Policy and `frame-ancestors 'none'`; every script of the
 * page carries that response's nonce, and the nonce changes per response.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { registerCustomer } from "../support/client";
import { consoleCookie, consolePages, rawRequest, type RawResult } from "../support/console";
import { registeredScenario } from "../transfers/support";

let cookie: string;
let subscriptionId: string;
let transferId: string;

before(async () => {
  subscriptionId = (await registerCustomer()).tokens.subscriptionId;
  transferId = (await registeredScenario()).transferId;
  cookie = await consoleCookie();
});

function policyOf(res: RawResult, what: string): Map<string, string> {
  const header = res.headers["content-security-policy"];
  assert.equal(typeof header, "string", `${what}: no Content-Security-Policy`);
  return new Map(
    String(header)
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name, values.join(" ")] as [string, string];
      }),
  );
}

function assertConsolePolicy(res: RawResult, what: string): string {
  const csp = policyOf(res, what);
  assert.equal(csp.get("frame-ancestors"), "'none'", what);
  assert.equal(csp.get("object-src"), "'none'", what);
  assert.equal(csp.get("base-uri"), "'none'", what);
  const nonce = /'nonce-([A-Za-z0-9+/=]{16,})'/.exec(csp.get("script-src") ?? "")?.[1];
  assert.ok(nonce, `${what}: no nonce in script-src ${csp.get("script-src")}`);
  assert.doesNotMatch(csp.get("script-src") ?? "", /unsafe-inline/, what);
  assert.equal(res.headers["x-frame-options"], "DENY", what);
  assert.equal(res.headers["x-content-type-options"], "nosniff", what);
  return nonce;
}

test("every console page: CSP with a fresh nonce on each response, frame-ancestors 'none', and the nonce on every script", async () => {
  // No proposal, reset link or compliance case exists here: the first two pages say so, the case page
  // answers the console's 404 page; all with the same headers.
  const pages = consolePages({ subscriptionId, partnerId: "partner_demo", transferId, proposalId: "prop_none", token: "no-such-link", caseId: "case_none" });
  assert.ok(pages.length >= 12, `only ${pages.length} console pages`);
  for (const page of pages) {
    const res = await rawRequest("GET", page.path, { headers: { cookie } });
    assert.equal(res.status, page.path === "/console/cases/case_none" ? 404 : 200, `${page.path}: ${res.text.slice(0, 200)}`);
    const nonce = assertConsolePolicy(res, page.path);
    const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
    assert.ok(scripts.length > 0, `${page.path}: no script`);
    for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `${page.path}: script without the nonce: ${tag}`);
    const again = await rawRequest("GET", page.path, { headers: { cookie } });
    assert.notEqual(assertConsolePolicy(again, page.path), nonce, `${page.path}: the nonce is reused`);
  }
});

test("signed out: the login redirect and the login page carry the policy too", async () => {
  const redirect = await rawRequest("GET", "/console/review");
  assert.equal(redirect.status, 307);
  assertConsolePolicy(redirect, "redirect to login");
  assertConsolePolicy(await rawRequest("GET", "/console/login"), "/console/login");
});

test("next-auth under /api/auth: the same policy on its pages and endpoints", async () => {
  for (const p of ["/api/auth/csrf", "/api/auth/session", "/api/auth/providers", "/api/auth/signin", "/api/auth/signout", "/api/auth/error"]) {
    const res = await rawRequest("GET", p, { headers: { cookie } });
    assert.ok(res.status < 500, `${p}: ${res.status}`);
    assertConsolePolicy(res, p);
  }
});
