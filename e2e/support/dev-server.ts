import type { BrowserContext } from "playwright-core";

/**
 * Under `next dev` every page keeps a socket to the dev server (/_next/hmr) and reloads when the
 * server recompiles, which it does whenever any file of the checkout changes: another engineer's
 * edit, or another dev server writing its own dist directory. A reload in the middle of a journey
 * loses the page's state (a half-filled form, a sign-in in flight), so the e2e contexts answer that
 * socket themselves and never hear about recompiles. A production server has no such socket: this
 * changes nothing there.
 */
export async function withoutDevReloads(context: BrowserContext): Promise<BrowserContext> {
  await context.routeWebSocket(/\/_next\/(webpack-)?hmr/, () => {});
  return context;
}
