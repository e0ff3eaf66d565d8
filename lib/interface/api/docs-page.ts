import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The /docs page: Scalar's API reference (docs/decisions.md, "API reference") rendering
 * /v1/openapi.json. Everything it loads comes from this origin: the bundle from node_modules, no
 * web fonts (withDefaultFonts false), no Scalar proxy for "Try it" (same-origin calls need none),
 * no telemetry, no AI agent (it would call Scalar's servers).
 */
const CONFIG = {
  url: "/v1/openapi.json",
  withDefaultFonts: false,
  proxyUrl: "",
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: false,
  showDeveloperTools: "never",
  defaultOpenAllTags: true,
  expandAllResponses: true,
  layout: "modern",
  theme: "default",
  metaData: { title: "API reference · Remit Core" },
};

const BUNDLE = path.join("node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

export function docsPageHtml(nonce: string): string {
  // JSON in a script element: "<" escaped so no value can close the element.
  const config = JSON.stringify(CONFIG).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta property="csp-nonce" content="${nonce}" />
    <title>API reference · Remit Core</title>
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The OpenAPI document is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
    <div id="app"></div>
    <script src="/docs/scalar.js" nonce="${nonce}"></script>
    <script nonce="${nonce}">Scalar.createApiReference("#app", ${config});</script>
  </body>
</html>
`;
}

let bundle: Promise<{ body: string; version: string }> | undefined;

/** The bundle, read once per process (4 MB). */
export function scalarBundle(): Promise<{ body: string; version: string }> {
  bundle ??= (async () => {
    const root = process.cwd();
    const [body, pkg] = await Promise.all([
      readFile(path.join(root, BUNDLE), "utf8"),
      readFile(path.join(root, "node_modules", "@scalar", "api-reference", "package.json"), "utf8"),
    ]);
    return { body, version: (JSON.parse(pkg) as { version: string }).version };
  })();
  return bundle;
}
