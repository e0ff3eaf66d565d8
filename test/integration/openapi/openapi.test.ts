import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { BASE_URL, call } from "../support";

const ROOT = process.cwd();
const APP_V1 = path.join(ROOT, "app", "v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

interface RouteFile {
  file: string;
  /** OpenAPI template, e.g. /v1/auth/devices/{deviceId}/deactivate. */
  path: string;
  methods: Method[];
  /** True when the file uses methods({...}), whose other methods answer 405 with an Allow header. */
  viaMethodsHelper: boolean;
}

/** The methods a route file serves: the keys given to methods({...}) (its other methods answer 405), or its exports. */
function methodsOf(text: string): { methods: Method[]; helper: boolean } {
  const helper = /\bmethods\(\s*\{/.exec(text);
  if (helper) {
    // Keys of the object given to methods({ GET: endpoint(...), ... }).
    const body = text.slice(helper.index);
    return { methods: METHODS.filter((m) => new RegExp(`^\\s*${m}\\s*:|methods\\(\\{\\s*${m}\\s*:`, "m").test(body)), helper: true };
  }
  const methods = METHODS.filter(
    (m) =>
      new RegExp(`export\\s+(async\\s+)?function\\s+${m}\\b`).test(text) ||
      new RegExp(`\\bas\\s+${m}\\b`).test(text) ||
      new RegExp(`export\\s+const\\s+${m}\\b`).test(text),
  );
  return { methods, helper: false };
}

/**
 * Every route file under app/v1 as an OpenAPI path: [param] becomes {param}, route groups "(x)"
 * vanish, the catch-all and /v1/openapi.json itself are skipped.
 */
function routeFiles(): RouteFile[] {
  assert.ok(existsSync(APP_V1), `run from the repository root (no ${APP_V1})`);
  const out: RouteFile[] = [];
  for (const rel of readdirSync(APP_V1, { recursive: true }) as string[]) {
    if (path.basename(rel) !== "route.ts") continue;
    const segments = path
      .dirname(rel)
      .split(path.sep)
      .filter((s) => s !== ".");
    if (segments.some((s) => /^\[\[?\.\.\./.test(s))) continue; // [...path] / [[...path]] catch-alls
    if (segments.join("/") === "openapi.json") continue;
    const urlPath = `/v1/${segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
      .join("/")}`;
    const { methods, helper } = methodsOf(readFileSync(path.join(APP_V1, rel), "utf8"));
    assert.ok(methods.length > 0, `no handler found in app/v1/${rel}`);
    out.push({ file: `app/v1/${rel}`, path: urlPath, methods, viaMethodsHelper: helper });
  }
  // The routes outside /v1 the document lists: published keys and probes.
  for (const urlPath of OPERATIONAL_ROUTES) {
    const file = `app${urlPath}/route.ts`;
    const { methods, helper } = methodsOf(readFileSync(path.join(ROOT, file), "utf8"));
    out.push({ file, path: urlPath, methods, viaMethodsHelper: helper });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const OPERATIONAL_ROUTES = ["/.well-known/jwks.json", "/livez", "/readyz"];

/** A concrete URL for a template: every {param} filled with a dummy id. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "id_openapi_probe");

let doc: any;
let docText: string;
let routes: RouteFile[];

before(async () => {
  routes = routeFiles();
  const res = await call("GET", "/v1/openapi.json");
  assert.equal(res.status, 200, res.text);
  docText = res.text;
  doc = res.body;
});

describe("GET /v1/openapi.json", () => {
  it("is a JSON OpenAPI 3.1.0 document", async () => {
    const res = await call("GET", "/v1/openapi.json");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.ok(doc && typeof doc === "object", "parses as JSON");
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(typeof doc.info?.title, "string");
    assert.equal(typeof doc.info?.version, "string");
    assert.ok(doc.paths && typeof doc.paths === "object");
    assert.ok(Object.keys(doc.paths).length > 0);
  });

  it("the route walk finds the routes (sanity check of this test)", () => {
    const paths = routes.map((r) => r.path);
    assert.ok(paths.includes("/v1/auth/health"));
    assert.ok(paths.includes("/v1/auth/devices/{deviceId}/deactivate"));
    assert.ok(!paths.some((p) => p.includes("...") || p.includes("openapi.json")));
    assert.deepEqual(routes.find((r) => r.path === "/v1/auth/devices")?.methods, ["GET"]);
    for (const p of OPERATIONAL_ROUTES) assert.deepEqual(routes.find((r) => r.path === p)?.methods, ["GET"], p);
  });

  it("documents every route under app/v1 with each of its methods", () => {
    const missing: string[] = [];
    for (const route of routes) {
      const item = doc.paths[route.path];
      if (!item) {
        missing.push(`${route.methods.join(",")} ${route.path} (${route.file}): path missing`);
        continue;
      }
      for (const m of route.methods) {
        if (!item[m.toLowerCase()]) missing.push(`${m} ${route.path} (${route.file}): method missing`);
      }
    }
    assert.deepEqual(missing, [], `undocumented routes:\n${missing.join("\n")}`);
  });

  it("documents no operation that has no route (nothing phantom)", () => {
    const byPath = new Map(routes.map((r) => [r.path, r]));
    const phantom: string[] = [];
    for (const [p, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const m of METHODS) {
        if (!item[m.toLowerCase()]) continue;
        const route = byPath.get(p);
        if (!route || !route.methods.includes(m)) phantom.push(`${m} ${p}`);
      }
    }
    assert.deepEqual(phantom, [], `documented but not implemented:\n${phantom.join("\n")}`);
  });

  it("the methods read from route files are the methods the server serves (405 Allow headers agree)", async () => {
    for (const route of routes.filter((r) => r.viaMethodsHelper)) {
      const probe = [...METHODS].reverse().find((m) => !route.methods.includes(m))!;
      const res = await call(probe, concrete(route.path), { idempotencyKey: null });
      assert.equal(res.status, 405, `${probe} ${route.path}: ${res.status} ${res.text}`);
      const allow = (res.headers.get("allow") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .sort();
      assert.deepEqual(allow, [...route.methods].sort(), `${route.path}: Allow header vs ${route.file}`);
    }
  });

  it("every operation has a unique operationId, a summary, tags and a success response", () => {
    const ids = new Set<string>();
    for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const m of METHODS) {
        const op = item[m.toLowerCase()];
        if (!op) continue;
        assert.ok(typeof op.operationId === "string" && op.operationId.length > 0, `${m} ${p}: operationId`);
        assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
        ids.add(op.operationId);
        assert.ok(op.summary, `${m} ${p}: summary`);
        assert.ok(Array.isArray(op.tags) && op.tags.length > 0, `${m} ${p}: tags`);
        assert.ok(
          Object.keys(op.responses ?? {}).some((s) => /^2\d\d$/.test(s)),
          `${m} ${p}: no 2xx response`,
        );
      }
    }
  });

  describe("Redocly lint (recommended ruleset, redocly.yaml)", () => {
    let dir: string;
    let report: { totals: { errors: number; warnings: number }; problems: any[] };

    before(async () => {
      // The served document (with this server's base URL), linted with the repository's
      // redocly.yaml: the recommended rules, bar the localhost server URL.
      dir = mkdtempSync(path.join(tmpdir(), "remit-oas-lint-"));
      writeFileSync(path.join(dir, "openapi.json"), docText);
      const bin = path.join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "redocly.cmd" : "redocly");
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(
          bin,
          ["lint", "openapi.json", "--config", path.join(ROOT, "redocly.yaml"), "--format=json"],
          {
            cwd: dir,
            timeout: 120_000,
            maxBuffer: 64 * 1024 * 1024,
            env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
          },
          // Exit code 1 means "problems found": the JSON report is still on stdout.
          (err, out, errOut) => (out.trim().startsWith("{") ? resolve(out) : reject(new Error(`redocly failed: ${err?.message ?? ""}\n${errOut}`))),
        );
      });
      report = JSON.parse(stdout);
    });

    after(() => rmSync(dir, { recursive: true, force: true }));

    it("reports no errors and no warnings", () => {
      const describe = (p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${(p.location ?? []).map((l: any) => l.pointer).join(", ")}`;
      assert.deepEqual(report.problems.map(describe), []);
      assert.equal(report.totals.errors + report.totals.warnings, 0);
    });
  });

  it("has a webhooks section with customer.status.changed and the signature headers", () => {
    const hook = doc.webhooks?.["customer.status.changed"]?.post;
    assert.ok(hook, "webhooks.customer.status.changed");
    assert.equal(hook.requestBody.content["application/json"].example.eventType, "customer.status.changed");
    assert.deepEqual(hook.parameters.map((p: any) => p.name).sort(), ["webhook-id", "webhook-signature", "webhook-timestamp"]);
  });
});

describe("GET /docs", () => {
  it("is the reference page: the renderer from this origin, under a nonce CSP, reading /v1/openapi.json", async () => {
    const res = await fetch(`${BASE_URL}/docs`, { headers: { accept: "text/html" } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, `CSP with a nonce: ${csp}`);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
    assert.ok(scripts.length >= 2);
    for (const attrs of scripts) assert.ok(attrs.includes(`nonce="${nonce}"`), `script without the nonce: ${attrs}`);
    // Nothing from another origin: /docs works offline.
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//);
    assert.ok(html.includes('"/v1/openapi.json"'));
    const src = /<script src="([^"]+)"/.exec(html)?.[1];
    assert.ok(src?.startsWith("/"), `same-origin bundle: ${src}`);
    const bundle = await fetch(`${BASE_URL}${src}`);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get("content-type") ?? "", /javascript/);
    assert.ok((await bundle.text()).includes("createApiReference"));
  });
});
