import type { Page } from "playwright-core";
import { screenshot } from "./browser";

/**
 * Chromium with mobile emulation, pages served by `next dev` (not seen with a production build):
 * after a screenshot, clicks into a cross-origin iframe (the hosted webview inside the partner
 * page) can land off by the iframe's offset in the page, and keep doing so until the iframe is laid
 * out again ("<form> intercepts pointer events" on a button). Moving the iframe by a pixel and back
 * makes Chromium recompute where it is.
 */
export async function relayoutFrame(page: Page, selector = "#webview"): Promise<void> {
  const iframe = page.locator(selector);
  await iframe.evaluate((el: HTMLElement) => {
    el.style.marginTop = "1px";
  });
  await page.waitForTimeout(100); // a rendered frame or two is not always enough for the iframe's process to hear of it
  await iframe.evaluate((el: HTMLElement) => {
    el.style.marginTop = "";
  });
  await page.waitForTimeout(100);
}

/** screenshot() of a page that embeds a webview the test will go on clicking in. */
export async function screenshotWithFrame(page: Page, name: string, selector = "#webview"): Promise<string> {
  const file = await screenshot(page, name);
  await relayoutFrame(page, selector);
  return file;
}
