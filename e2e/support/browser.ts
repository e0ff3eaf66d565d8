import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";

/**
 * Browser side of the e2e harness: Debian's Chromium driven by playwright-core (no browser
 * download). One browser per test file: launch it in `before`, close it in `after`.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Default timeout of every Playwright action and wait (ms). First compiles under `next dev` are slow. */
export const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30_000);

/** node:test timeout of one browser test (ms). */
export const TEST_TIMEOUT = TIMEOUT * 4;

export const ARTIFACTS_DIR = path.resolve(__dirname, "..", "artifacts");

/** A phone-sized viewport (iPhone 12-15 class), for the mobile-first webviews. */
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: TIMEOUT,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A new page in its own context, with the default timeouts applied. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(TIMEOUT);
  context.setDefaultNavigationTimeout(TIMEOUT);
  return context.newPage();
}

/** Saves a full-page screenshot to e2e/artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^A-Za-z0-9._-]/g, "_")}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A 1x1 PNG: the sandbox accepts any image without inspecting it. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
