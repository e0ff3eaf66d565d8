import type { BrowserContext } from "playwright-core";

/** Dev-server notices that make a page reload or refetch itself. */
const RELOADING = new Set(["building", "built", "turbopack-message", "reloadPage", "serverComponentChanges", "serverOnlyChanges"]);

/**
 * Under `next dev` every page keeps a socket to the dev server (/_next/hmr) and reloads when the
 * server recompiles, which it does whenever any file of the checkout changes: another engineer's
 * edit, or another dev server writing its own dist directory (two dev servers in one checkout can
 * keep each other recompiling). A reload in the middle of a journey loses the page's state (a
 * half-filled form, a sign-in in flight), so the e2e contexts relay that socket without the
 * rebuild notices. A production server has no such socket: this changes nothing there.
 */
export async function withoutDevReloads(context: BrowserContext): Promise<BrowserContext> {
  await context.routeWebSocket(/\/_next\/(webpack-)?hmr/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (typeof message === "string") {
        try {
          const type = (JSON.parse(message) as { type?: string; action?: string }) ?? {};
          if (RELOADING.has(type.type ?? type.action ?? "")) return;
        } catch {
          // not JSON: pass it on
        }
      }
      ws.send(message);
    });
  });
  return context;
}
