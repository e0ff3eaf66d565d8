import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import type { BrowserContextOptions, Page, Request } from "playwright-core";
import { fundingWebviewMessages } from "../lib/platform/i18n/funding-webview-messages";
import { kycWebviewMessages } from "../lib/platform/i18n/kyc-webview-messages";
import { TINY_PNG as PNG, newPage, PHONE, screenshot, TEST_TIMEOUT, TIMEOUT } from "./support/browser";
import { createKycSession, customerWithProfile } from "./support/customer";
import { withoutDevReloads } from "./support/dev-server";
import { receivedMessages } from "./support/partner-app";
import { fundingScenario } from "../test/integration/transfers/support";
import { advanceClock, BASE_URL, call, readTransfer } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// The hosted pages' dead URLs. kyc-webview.test.ts covers the KYC page after a
// completion through the API, unknown tokens (en, fr) and an unused URL after 30 minutes; here:
// the KYC URL reopened after the customer finished on the page itself, tokens used on the wrong
// page, and the funding page: single use after a payment, 30 minutes, a declined card then a good one.

const API_ORIGIN = new URL(BASE_URL).origin;
const FUNDING = fundingWebviewMessages;
const KYC = kycWebviewMessages;
const e2e = setupE2eFile({ partnerApp: true });

async function phonePage(options: BrowserContextOptions = {}): Promise<Page> {
  const page = await newPage(e2e.browser, { ...PHONE, ...options });
  await withoutDevReloads(page.context());
  return page;
}

/** Opens `url` and asserts the expired page with `title`, and no form. */
async function assertExpired(page: Page, url: string, title: string) {
  await page.goto(url);
  const expired = page.getByTestId("webview-expired");
  await expired.waitFor();
  assert.equal(await expired.getByRole("heading").textContent(), title);
  assert.equal(await page.locator("form").count(), 0);
}

/** Opens the funding URL in a popup of the partner page, pays with `card`; returns both pages. */
async function payInPopup(url: string, card: string) {
  const partner = await phonePage();
  await partner.goto(e2e.app.url({ popup: url }));
  const [popup] = await Promise.all([partner.waitForEvent("popup"), partner.locator("#open-popup").click()]);
  popup.setDefaultTimeout(TIMEOUT);
  await popup.getByLabel(FUNDING.en.cardNumber).fill(card);
  await popup.getByLabel(FUNDING.en.expiry).fill("12/30");
  await popup.getByLabel(FUNDING.en.cvc).fill("123");
  await popup.getByRole("button", { name: new RegExp(`^${FUNDING.en.pay} `) }).click();
  return { partner, popup };
}

async function closureMessages(partner: Page) {
  await partner.waitForFunction(() => (window as unknown as { __messages: unknown[] }).__messages.length > 0, undefined, { timeout: TIMEOUT });
  await partner.waitForTimeout(300);
  return receivedMessages(partner);
}

describe("expired KYC pages (what kyc-webview.test.ts does not cover)", () => {
  test("the KYC URL reopened after the customer finished on the page itself", { timeout: TEST_TIMEOUT }, async () => {
    const { accessToken } = await customerWithProfile();
    const session = await createKycSession(accessToken);
    const page = await phonePage();
    await page.goto(session.webviewUrl);
    const m = KYC.en;
    await page.getByLabel(m.documentType).selectOption("ID_CARD");
    await page.getByLabel(m.documentNumber).fill("X1234567");
    await page.getByLabel(m.issuingCountry).selectOption("FRA");
    await page.getByLabel(m.expiryDate).fill("2031-05-31");
    await page.getByLabel(m.photo).setInputFiles({ name: "id.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: m.submit }).click();
    await page.getByRole("button", { name: m.approve }).click();
    await page.getByTestId("kyc-done").waitFor();
    await page.reload();
    await page.getByTestId("webview-expired").waitFor();
    assert.equal(await page.getByTestId("webview-expired").getByRole("heading").textContent(), m.expiredTitle);
    assert.equal(await page.locator("form").count(), 0);
    // The page's own POSTs are refused too.
    const capture = await call("POST", `${new URL(session.webviewUrl).pathname}/capture`, {
      key: null,
      body: { documentType: "ID_CARD", documentNumber: "X1234567", issuingCountry: "FRA", expiryDate: "2031-05-31", photo: { size: 1, type: "image/png" } },
    });
    assert.equal(capture.status, 410, capture.text);
    assert.equal(capture.body.error.code, "kyc.sessionExpired");
    await page.context().close();
  });

  test("a live token opened on the other kind of page is dead there (and in Spanish)", { timeout: TEST_TIMEOUT }, async () => {
    const { accessToken } = await customerWithProfile();
    const session = await createKycSession(accessToken);
    const token = new URL(session.webviewUrl).pathname.split("/").pop();
    const page = await phonePage({ locale: "es-ES" });
    await assertExpired(page, `${API_ORIGIN}/webviews/funding/${token}`, FUNDING.es.expiredTitle);
    await screenshot(page, "funding-expired-es");
    // The KYC page itself is still alive.
    await page.goto(session.webviewUrl);
    await page.locator("form").waitFor();
    assert.equal(await page.getByTestId("webview-expired").count(), 0);
    await page.context().close();
  });
});

describe("expired funding pages", () => {
  test("single use: after a successful payment the URL shows the expired page and /pay is refused", { timeout: TEST_TIMEOUT * 2 }, async () => {
    const s = await fundingScenario();
    const url: string = s.confirmed.fundingSession.fundingWebviewUrl;
    const { partner, popup } = await payInPopup(url, "4242 4242 4242 4242");
    await popup.getByTestId("funding-succeeded").waitFor();
    const fundingSessionId: string = s.confirmed.fundingSession.fundingSessionId;
    assert.deepEqual(await closureMessages(partner), [{ origin: API_ORIGIN, data: { type: "funding.closed", fundingSessionId, sessionState: "SUCCEEDED" } }]);

    // The same URL, again: in the popup (reload) and in a fresh page.
    await popup.reload();
    await popup.getByTestId("webview-expired").waitFor();
    assert.equal(await popup.getByTestId("webview-expired").getByRole("heading").textContent(), FUNDING.en.expiredTitle);
    const fresh = await phonePage();
    await assertExpired(fresh, url, FUNDING.en.expiredTitle);
    assert.equal(await fresh.getByTestId("webview-expired").locator("p").textContent(), FUNDING.en.expiredBody);
    await screenshot(fresh, "funding-expired-after-payment");
    const again = await call("POST", `${new URL(url).pathname}/pay`, { key: null, body: { method: "CARD", cardNumber: "4242424242424242" } });
    assert.equal(again.status, 410, again.text);
    assert.equal(again.body.error.code, "funding.sessionExpired");
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funded");
    await partner.context().close();
    await fresh.context().close();
  });

  test(
    "a declined card keeps the page open for another card on the same session; the partner hears only of the success; then the URL is dead",
    { timeout: TEST_TIMEOUT * 2 },
    async () => {
      const s = await fundingScenario();
      const url: string = s.confirmed.fundingSession.fundingWebviewUrl;
      const fundingSessionId: string = s.confirmed.fundingSession.fundingSessionId;
      const { partner, popup } = await payInPopup(url, "4000 0000 0000 0002");
      const declined = popup.getByTestId("funding-declined");
      await declined.waitFor();
      assert.match(
        (await declined.textContent()) ?? "",
        /^The payment was declined and nothing was charged\. Try another card, or pay by bank transfer, before \w+ \d{1,2}, 20\d\d at /,
      );
      assert.equal(await popup.getByTestId("funding-succeeded").count(), 0);
      await screenshot(popup, "funding-declined");
      // No funding.closed yet: the session is still open, and so is the transfer's funding.
      assert.deepEqual(await receivedMessages(partner), []);
      assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funding");
      // Another card, same page, same session.
      await popup.getByLabel(FUNDING.en.cardNumber).fill("4242 4242 4242 4242");
      await popup.getByLabel(FUNDING.en.expiry).fill("12/30");
      await popup.getByLabel(FUNDING.en.cvc).fill("123");
      await popup.getByRole("button", { name: new RegExp(`^${FUNDING.en.pay} `) }).click();
      await popup.getByTestId("funding-succeeded").waitFor();
      assert.deepEqual(await closureMessages(partner), [{ origin: API_ORIGIN, data: { type: "funding.closed", fundingSessionId, sessionState: "SUCCEEDED" } }]);
      assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funded");
      await popup.reload();
      await popup.getByTestId("webview-expired").waitFor();
      await partner.context().close();
    },
  );

  test("unknown tokens show the expired page (in French too)", { timeout: TEST_TIMEOUT }, async () => {
    const page = await phonePage();
    await assertExpired(page, `${API_ORIGIN}/webviews/funding/${randomBytes(32).toString("base64url")}`, FUNDING.en.expiredTitle);
    await assertExpired(page, `${API_ORIGIN}/webviews/funding/not-a-token`, FUNDING.en.expiredTitle);
    const fr = await phonePage({ locale: "fr-FR" });
    await assertExpired(fr, `${API_ORIGIN}/webviews/funding/${randomBytes(32).toString("base64url")}`, FUNDING.fr.expiredTitle);
    await screenshot(fr, "funding-expired-fr");
    await page.context().close();
    await fr.context().close();
  });

  // Last: the server's clock cannot go back.
  test("an unused URL, whose Pay button waits for the page's script, is dead 30 minutes and 1 second later", { timeout: TEST_TIMEOUT * 2 }, async () => {
    const s = await fundingScenario();
    const url: string = s.confirmed.fundingSession.fundingWebviewUrl;

    // Before the script runs, the form cannot be sent natively (card number and CVC in the URL).
    const page = await phonePage();
    const leaks: string[] = [];
    page.on("request", (r: Request) => {
      if (r.url().includes("cardNumber=")) leaks.push(r.url());
    });
    await page.route("**/_next/static/**", (route) => route.abort());
    await page.goto(url);
    await page.getByLabel(FUNDING.en.cardNumber).fill("4242 4242 4242 4242");
    await page.getByLabel(FUNDING.en.expiry).fill("12/30");
    await page.getByLabel(FUNDING.en.cvc).fill("123");
    assert.equal(await page.getByRole("button", { name: new RegExp(`^${FUNDING.en.pay} `) }).isDisabled(), true);
    await page.getByLabel(FUNDING.en.cvc).press("Enter");
    await page.waitForTimeout(500);
    assert.deepEqual(leaks, []);
    await page.unroute("**/_next/static/**");

    // Still alive just before the deadline, dead after it.
    await page.goto(url);
    await page.getByTestId("funding-summary").waitFor();
    await advanceClock(1801);
    await assertExpired(page, url, FUNDING.en.expiredTitle);
    await screenshot(page, "funding-expired-after-30-minutes");
    await page.context().close();
  });
});
