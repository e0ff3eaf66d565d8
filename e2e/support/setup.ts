import { after, before } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser";
import { setReturnOrigins, startPartnerApp, type PartnerApp } from "./partner-app";

export interface E2eFile {
  browser: Browser;
  /** Set only with `partnerApp: true`. */
  app: PartnerApp;
}

/**
 * Registers an e2e file's before/after hooks: one browser for the file and, with `partnerApp`, a
 * partner page on another origin, allowed as a webview return origin for the file's duration
 * (the previous origins are restored after). The handles are set in `before`: read them in tests.
 */
export function setupE2eFile(opts: { partnerApp?: boolean } = {}): E2eFile {
  const file = {} as E2eFile;
  let restoreOrigins: (() => Promise<void>) | undefined;
  before(async () => {
    file.browser = await launchBrowser();
    if (opts.partnerApp) {
      file.app = await startPartnerApp();
      restoreOrigins = await setReturnOrigins([file.app.origin]);
    }
  });
  after(async () => {
    await restoreOrigins?.();
    await file.app?.close();
    await file.browser?.close();
  });
  return file;
}
