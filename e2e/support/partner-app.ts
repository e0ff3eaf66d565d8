import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { call } from "../../test/integration/support";

/**
 * A test partner app: the page a partner would run around the hosted webviews. It is served from
 * http://localhost:<port>, a different origin from the API server (http://127.0.0.1:<port>), so
 * framing and postMessage cross origins as they do in production.
 *
 *   /?kyc=<webviewUrl>     embeds the URL in <iframe id="webview">
 *   /?popup=<url>          shows a button (#open-popup) that opens the URL with window.open
 *
 * Every `message` event is recorded in window.__messages as {origin, data} and listed in
 * <ol id="messages">.
 */
export interface PartnerApp {
  origin: string;
  url(params?: { kyc?: string; popup?: string }): string;
  close(): Promise<void>;
}

export interface ReceivedMessage {
  origin: string;
  data: unknown;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(params: URLSearchParams): string {
  const kyc = params.get("kyc");
  const popup = params.get("popup");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test partner app</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #eef2ff; }
  header { padding: 8px 12px; background: #312e81; color: white; font-size: 14px; }
  iframe { display: block; width: 100%; height: 760px; border: 0; background: white; }
  #messages { font: 12px monospace; margin: 8px 12px; padding-left: 16px; overflow-wrap: anywhere; }
</style>
</head>
<body>
<header>Test partner app</header>
${kyc ? `<iframe id="webview" title="Identity verification" src="${escapeHtml(kyc)}" allow="camera"></iframe>` : ""}
${popup ? `<button id="open-popup" type="button" data-url="${escapeHtml(popup)}">Open</button>` : ""}
<ol id="messages"></ol>
<script>
  window.__messages = [];
  window.addEventListener("message", (event) => {
    window.__messages.push({ origin: event.origin, data: event.data });
    const li = document.createElement("li");
    li.dataset.testid = "message";
    li.textContent = event.origin + " " + JSON.stringify(event.data);
    document.getElementById("messages").appendChild(li);
  });
  window.__openPopup = (url) => window.open(url, "webview", "popup,width=390,height=844");
  const button = document.getElementById("open-popup");
  if (button) button.addEventListener("click", () => window.__openPopup(button.dataset.url));
</script>
</body>
</html>`;
}

export async function startPartnerApp(): Promise<PartnerApp> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204).end();
      return;
    }
    if (req.method !== "GET" || url.pathname !== "/") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(page(url.searchParams));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url(params = {}) {
      const u = new URL(`${origin}/`);
      for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
      return u.toString();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The messages the partner page has received so far. */
export function receivedMessages(partnerPage: Page): Promise<ReceivedMessage[]> {
  return partnerPage.evaluate(() => (window as unknown as { __messages: ReceivedMessage[] }).__messages);
}

async function putReturnOrigins(body: { returnOrigins?: string[] }): Promise<string[]> {
  const res = await call("PUT", "/v1/sandbox/partner", { body });
  if (res.status !== 200) throw new Error(`PUT /v1/sandbox/partner: ${res.status} ${res.text}`);
  return res.body.returnOrigins;
}

/**
 * Sets the sandbox partner's returnOrigins (the origins allowed to frame the webviews and to
 * receive their postMessage) and returns a function that restores the previous value.
 */
export async function setReturnOrigins(origins: string[]): Promise<() => Promise<void>> {
  const previous = await putReturnOrigins({}); // an empty PUT changes nothing and returns the settings
  await putReturnOrigins({ returnOrigins: origins });
  return async () => {
    await putReturnOrigins({ returnOrigins: previous });
  };
}
