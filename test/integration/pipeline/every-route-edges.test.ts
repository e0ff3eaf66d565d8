/**
 * "Every 500 that is not a fault": every Core/Auth/Sandbox route (from the same
 * contracts the OpenAPI document is built from) and every console page, walked with the inputs
 * that used to answer 500: a deeply nested JSON body, `%ff` in the path, methods Next has no slot
 * for (TRACE...), a 10 MB form POSTed to the console, and bad `?page=` values on console lists.
 * Each must be a 4xx: the error envelope on the API, the console's own page on the console.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { allContracts } from "@/lib/interface/api/contracts";
import { MAX_JSON_DEPTH } from "@/lib/platform/http/body";
import { PARTNER_KEY, registerCustomer } from "../support/client";
import { consoleCookie, consolePages, rawRequest, type RawResult } from "../support/console";

let token: string;
let subscriptionId: string;
let cookie: string;

before(async () => {
  const { tokens } = await registerCustomer();
  token = tokens.accessToken;
  subscriptionId = tokens.subscriptionId;
  cookie = await consoleCookie();
});

/** A contract's path with each `{param}` filled (a well-formed id that does not exist). */
const concrete = (template: string, fill = "x_missing") => template.replace(/\{[^}]+\}/g, fill);

function apiHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { accept: "application/json", "ocp-apim-subscription-key": PARTNER_KEY, authorization: `Bearer ${token}`, "idempotency-key": randomUUID(), ...extra };
}

function assertEnvelope(res: RawResult, what: string, status?: number, code?: string) {
  assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  if (status !== undefined) assert.equal(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
  assert.match(String(res.headers["content-type"]), /^application\/json/, what);
  const body = JSON.parse(res.text);
  assert.deepEqual(Object.keys(body).sort(), ["correlationId", "error"], what);
  assert.deepEqual(Object.keys(body.error).sort(), ["code", "details", "hint", "message", "remediation"], what);
  if (code !== undefined) assert.equal(body.error.code, code, what);
}

/** The console's own page (not Next's bare 500 or its default 404): HTML naming `marker`. */
function assertConsolePage(res: RawResult, what: string, status: number, marker: RegExp) {
  assert.equal(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
  assert.match(String(res.headers["content-type"]), /^text\/html/, what);
  assert.match(res.text, marker, what);
}

describe("API routes (every contract)", () => {
  const deep = Buffer.from(`${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`);

  test("a body nested deeper than the limit: 400 validation.bodyMalformed on every route that reads a body", async () => {
    // Routes without a body schema never read one (and would run for real: logout, revoke).
    // Routes reading an XML document (the sandbox file rails) refuse any JSON body with 415.
    const withBody = allContracts.filter((c) => c.body);
    for (const c of withBody) {
      const what = `${c.method} ${c.path}`;
      const res = await rawRequest(c.method, concrete(c.path), { headers: apiHeaders({ "content-type": "application/json" }), body: deep });
      if (c.bodyMediaType === "application/xml") {
        assertEnvelope(res, what, 415, "validation.contentTypeUnsupported");
        continue;
      }
      assertEnvelope(res, what, 400, "validation.bodyMalformed");
      assert.equal(JSON.parse(res.text).error.details.maxDepth, MAX_JSON_DEPTH, what);
    }
    assert.ok(withBody.length >= 20, `only ${withBody.length} routes with a body`);
  });

  test("%ff (not UTF-8) in the path, in place of a parameter or a fixed segment: 400 validation.fieldFormatInvalid", async () => {
    for (const c of allContracts) {
      const variants = c.path.includes("{") ? [concrete(c.path, "%ff"), concrete(c.path, "a%ffb")] : [];
      const segments = c.path.split("/");
      // A one-segment path (/livez, /readyz) has no API prefix left to keep: "/%ff" is no route of the API.
      if (segments.length > 2) variants.push([...segments.slice(0, -1), "%ff"].join("/"));
      variants.push(`${concrete(c.path)}/%c3%28`);
      for (const p of variants) {
        const res = await rawRequest(c.method, p, {
          headers: apiHeaders(c.body ? { "content-type": "application/json" } : {}),
          body: c.body ? Buffer.from("{}") : undefined,
        });
        assertEnvelope(res, `${c.method} ${p}`, 400, "validation.fieldFormatInvalid");
      }
    }
  });

  test("TRACE and other methods no route serves: 405 route.methodNotAllowed with Allow", async () => {
    const paths = [...new Set(allContracts.map((c) => concrete(c.path)))];
    for (const p of paths) {
      for (const method of ["TRACE", "PROPFIND", "MKCOL", "SEARCH", "LOCK", "PURGE"]) {
        const res = await rawRequest(method, p, { headers: apiHeaders() });
        assertEnvelope(res, `${method} ${p}`, 405, "route.methodNotAllowed");
        assert.ok(res.headers.allow, `${method} ${p}: no Allow header`);
      }
    }
  });

  test("the same for paths no contract names (the /v1 catch-all)", async () => {
    assertEnvelope(await rawRequest("GET", "/v1/nowhere/%ff", { headers: apiHeaders() }), "GET /v1/nowhere/%ff", 400, "validation.fieldFormatInvalid");
    assertEnvelope(await rawRequest("TRACE", "/v1/nowhere", { headers: apiHeaders() }), "TRACE /v1/nowhere", 405, "route.methodNotAllowed");
    assertEnvelope(await rawRequest("GET", "/v1/nowhere", { headers: apiHeaders() }), "GET /v1/nowhere", 404, "route.notFound");
  });
});

describe("console pages (every app/console page)", () => {
  // TRACE and oversized posts are refused before any page reads its id: a missing transfer will do.
  const pages = () =>
    consolePages({
      subscriptionId,
      partnerId: "partner_demo",
      transferId: "trf_x_missing",
      proposalId: "prop_x_missing",
      token: "x_missing",
      caseId: "case_x_missing",
    });

  test("bad ?page= values on every console list: the console's 404 page; a good one still renders", async () => {
    const lists = pages().filter((p) => p.list);
    assert.ok(lists.length >= 5, `only ${lists.length} list pages`);
    for (const { path } of lists) {
      for (const value of ["1e20", "99999999999999999999", "-1", "0", "1.5", "abc", "%ff", "10001", "NaN", "Infinity", "0x10", " 2"]) {
        const res = await rawRequest("GET", `${path}?page=${encodeURIComponent(value).replace("%25ff", "%ff")}`, { headers: { cookie } });
        // Rendered from Next's flight data (the id appears JSON-escaped in it).
        assertConsolePage(res, `${path}?page=${value}`, 404, /data-testid\W+console-not-found/);
      }
      const ok = await rawRequest("GET", `${path}?page=2`, { headers: { cookie } });
      assert.equal(ok.status, 200, `${path}?page=2: ${ok.text.slice(0, 200)}`);
    }
  });

  test("%ff in a console path and unknown methods: the console's own 4xx page", async () => {
    for (const p of ["/console/%ff", "/console/customers/%ff", "/console/partners/a%ffb", "/webviews/kyc/%ff", "/%ff"]) {
      assertConsolePage(await rawRequest("GET", p, { headers: { cookie } }), `GET ${p}`, 400, /<h1>Bad request<\/h1>.*href="\/console"/s);
    }
    for (const { path } of pages()) {
      assertConsolePage(await rawRequest("TRACE", path, { headers: { cookie } }), `TRACE ${path}`, 405, /<h1>Method not allowed<\/h1>/);
    }
  });

  test("a 10 MB multipart POST to every console page (as a server action or a plain form), and to next-auth: 413, nothing read", async () => {
    const boundary = `----edges${randomUUID()}`;
    const big = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.alloc(10 * 1024 * 1024, 0x61),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const form = {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      cookie,
      origin: new URL(process.env.TEST_BASE_URL ?? "http://127.0.0.1:3000").origin,
    };
    for (const { path } of pages()) {
      for (const headers of [form, { ...form, "next-action": "7f".padEnd(42, "0"), accept: "text/x-component" }]) {
        const res = await rawRequest("POST", path, { headers, body: big });
        assertConsolePage(res, `POST ${path} ${headers === form ? "form" : "action"}`, 413, /<h1>Request too large<\/h1>/);
      }
    }
    const auth = await rawRequest("POST", "/api/auth/callback/credentials", { headers: form, body: big });
    assertEnvelope(auth, "POST /api/auth/callback/credentials", 413, "validation.bodyTooLarge");
  });
});
