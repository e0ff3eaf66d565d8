import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { ConsoleMessage, Frame, FrameLocator, Page } from "playwright-core";
import { kycWebviewMessages } from "../lib/platform/i18n/kyc-webview-messages";
import { TINY_PNG as PNG, newPage, PHONE, screenshot, TEST_TIMEOUT, TIMEOUT } from "./support/browser";
import { createKycSession, customerWithProfile, readProfile } from "./support/customer";
import { receivedMessages, setReturnOrigins } from "./support/partner-app";
import { BASE_URL, advanceClock, call, eventually } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// The hosted KYC page (spec 2.3, decisions section 4) in a real browser, embedded by a partner
// page on another origin.

const API_ORIGIN = new URL(BASE_URL).origin;
const EN = kycWebviewMessages.en;
const FR = kycWebviewMessages.fr;
type Texts = typeof EN;

const e2e = setupE2eFile({ partnerApp: true });

/** Opens the partner page with the webview URL in its iframe; returns the page and the frame. */
async function embed(page: Page, webviewUrl: string): Promise<Frame> {
  const framed = page.waitForEvent("framenavigated", { predicate: (f) => f !== page.mainFrame() });
  await page.goto(e2e.app.url({ kyc: webviewUrl }));
  return framed;
}

/** Fills the capture form (in a page or a frame) with a valid identity card and a PNG photo. */
async function fillCapture(root: Page | FrameLocator, m: Texts) {
  await root.getByLabel(m.documentType).selectOption("ID_CARD");
  await root.getByLabel(m.documentNumber).fill("X1234567");
  await root.getByLabel(m.issuingCountry).selectOption("FRA"); // the country picker (alpha-3 values)
  await root.getByLabel(m.expiryDate).fill("2031-05-31");
  await root.getByLabel(m.photo).setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: PNG });
}

/** Console errors about Content-Security-Policy (a missing nonce would show here). */
function cspErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error" && /Content Security Policy|Refused to/i.test(msg.text())) errors.push(msg.text());
  });
  return errors;
}

/** Waits for the partner page's first message, and a moment for a duplicate, then returns them all. */
async function messagesAfterClosure(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __messages: unknown[] }).__messages.length > 0, undefined, { timeout: TIMEOUT });
  await page.waitForTimeout(300);
  return receivedMessages(page);
}

describe("hosted KYC webview", () => {
  test("journey: a French customer on a phone completes KYC inside the partner's iframe", { timeout: TEST_TIMEOUT }, async () => {
    const { accessToken } = await customerWithProfile();
    const session = await createKycSession(accessToken);
    assert.deepEqual(session.closureCallback.postMessage, { type: "kyc.closed", targetOrigin: e2e.app.origin });
    assert.equal(new URL(session.webviewUrl).origin, API_ORIGIN);

    const page = await newPage(e2e.browser, { ...PHONE, locale: "fr-FR" });
    const csp = cspErrors(page);
    await embed(page, session.webviewUrl);
    const frame = page.frameLocator("#webview");

    // French, from Accept-Language (the browser sends fr-FR).
    await frame.getByRole("heading", { name: "Vérifiez votre identité" }).waitFor();
    assert.equal(await frame.locator("main").getAttribute("lang"), "fr");

    // The capture form.
    await fillCapture(frame, FR);
    // Mobile-first: nothing overflows the phone's width.
    const overflow = await frame.locator("html").evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(overflow <= 0, `the page overflows the viewport horizontally by ${overflow}px`);
    await screenshot(page, "kyc-capture-form");

    const capture = page.waitForResponse((r) => r.url().endsWith("/capture") && r.request().method() === "POST");
    await frame.getByRole("button", { name: FR.submit }).click();
    const captured = await capture;
    assert.equal(captured.status(), 200);
    assert.deepEqual(JSON.parse(captured.request().postData() ?? "null"), {
      documentType: "ID_CARD",
      documentNumber: "X1234567",
      issuingCountry: "FRA",
      expiryDate: "2031-05-31",
      photo: { size: PNG.length, type: "image/png" },
    });

    // The sandbox outcome buttons.
    await frame.getByText(FR.received).waitFor();
    const approve = frame.getByRole("button", { name: FR.approve });
    await approve.waitFor();
    await screenshot(page, "kyc-sandbox-buttons");
    await approve.click();

    await frame.getByTestId("kyc-done").waitFor();
    assert.equal(await frame.getByTestId("kyc-done").textContent(), "Vérification terminée. Vous pouvez revenir à l’application.");
    assert.deepEqual(await messagesAfterClosure(page), [
      { origin: API_ORIGIN, data: { type: "kyc.closed", kycSessionId: session.kycSessionId, sessionState: "COMPLETED" } },
    ]);
    await page.getByTestId("message").waitFor(); // shown by the partner page too
    await screenshot(page, "kyc-done");
    assert.deepEqual(csp, []);

    const profile = await eventually(
      async () => {
        const p = await readProfile(accessToken);
        return p.status === "VALID" && p.kycStatus === "COMPLETED" ? p : null;
      },
      TIMEOUT,
      "status VALID and kycStatus COMPLETED",
    );
    assert.equal(profile.status, "VALID");
    const read = await call("GET", `/v1/core/kyc-sessions/${session.kycSessionId}`, { token: accessToken });
    assert.equal(read.body.sessionState, "COMPLETED");
    await page.context().close();
  });

  test("in a popup opened by the partner, the closure message goes to the opener", { timeout: TEST_TIMEOUT }, async () => {
    const { accessToken } = await customerWithProfile();
    const session = await createKycSession(accessToken);
    const page = await newPage(e2e.browser, PHONE);
    await page.goto(e2e.app.url({ popup: session.webviewUrl }));
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.locator("#open-popup").click()]);
    await popup.getByRole("heading", { name: EN.title }).waitFor();
    await fillCapture(popup, EN);
    await popup.getByRole("button", { name: EN.submit }).click();
    await popup.getByRole("button", { name: EN.approve }).click();
    await popup.getByTestId("kyc-done").waitFor();
    assert.deepEqual(await messagesAfterClosure(page), [
      { origin: API_ORIGIN, data: { type: "kyc.closed", kycSessionId: session.kycSessionId, sessionState: "COMPLETED" } },
    ]);
    await screenshot(popup, "kyc-popup-done");
    await page.context().close();
  });

  test("an incomplete form shows the required message and sends nothing", { timeout: TEST_TIMEOUT }, async () => {
    const { accessToken } = await customerWithProfile();
    const session = await createKycSession(accessToken);
    const page = await newPage(e2e.browser, PHONE);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/webviews/")) posts.push(r.url());
    });
    await page.goto(session.webviewUrl);
    await fillCapture(page, EN);
    await page.getByLabel(EN.documentNumber).fill(""); // everything but the document number
    await page.getByRole("button", { name: EN.submit }).click();
    assert.equal(await page.locator("main").getByRole("alert").textContent(), EN.required);
    await screenshot(page, "kyc-required");
    assert.deepEqual(posts, []);
    // Completed, it goes through.
    await page.getByLabel(EN.documentNumber).fill("X1234567");
    await page.getByRole("button", { name: EN.submit }).click();
    await page.getByRole("button", { name: EN.approve }).waitFor();
    assert.equal(await page.locator("main").getByRole("alert").count(), 0);
    await page.context().close();
  });

  test("the form cannot be submitted before the page's script runs (no native GET with the document number)", { timeout: TEST_TIMEOUT }, async () => {
    const { accessToken } = await customerWithProfile();
    const session = await createKycSession(accessToken);
    const page = await newPage(e2e.browser, PHONE);
    await page.route("**/_next/static/**", (route) => route.abort());
    await page.goto(session.webviewUrl);
    assert.equal(await page.getByRole("button", { name: EN.submit }).isDisabled(), true);
    await page.context().close();
  });

  test("framing is refused for an origin the partner did not register", { timeout: TEST_TIMEOUT }, async () => {
    const restore = await setReturnOrigins(["https://partner.example"]);
    try {
      const { accessToken } = await customerWithProfile();
      const session = await createKycSession(accessToken);
      const page = await newPage(e2e.browser, PHONE);
      const violations: string[] = [];
      page.on("console", (m: ConsoleMessage) => {
        if (m.type() === "error" && /frame-ancestors/.test(m.text())) violations.push(m.text());
      });
      const response = page.waitForResponse((r) => r.url() === session.webviewUrl);
      const frame = await embed(page, session.webviewUrl);

      // The server answered, with the partner's registered origin as the only allowed ancestor...
      const csp = (await response).headers()["content-security-policy"] ?? "";
      assert.match(csp, /(^|;\s*)frame-ancestors https:\/\/partner\.example(;|$)/);
      // ...and Chromium refused to render it in the frame: an error page instead of the form.
      await eventually(async () => frame.url().startsWith("chrome-error://") || null, TIMEOUT, "the frame to be blocked");
      assert.equal(await page.frameLocator("#webview").locator("form").count(), 0);
      await eventually(async () => violations.length > 0 || null, TIMEOUT, "the frame-ancestors console error");
      assert.match(violations[0], /https:\/\/partner\.example/);
      await screenshot(page, "kyc-framing-refused");

      // The URL itself is alive: top-level (not framed) it shows the capture form.
      const direct = await newPage(e2e.browser, PHONE);
      await direct.goto(session.webviewUrl);
      await direct.locator("form").waitFor();
      await page.context().close();
      await direct.context().close();
    } finally {
      await restore();
    }
  });

  describe("dead URLs show the expired page", () => {
    let page: Page;
    before(async () => {
      page = await newPage(e2e.browser, PHONE);
    });
    after(async () => {
      await page.context().close();
    });

    async function assertExpired(url: string, title = "This link has expired") {
      await page.goto(url);
      const expired = page.getByTestId("webview-expired");
      await expired.waitFor();
      assert.equal(await expired.getByRole("heading").textContent(), title);
      assert.equal(await page.locator("form").count(), 0);
    }

    test("after completion", { timeout: TEST_TIMEOUT }, async () => {
      const { accessToken } = await customerWithProfile();
      const session = await createKycSession(accessToken);
      const done = await call("POST", `/v1/sandbox/kyc-sessions/${session.kycSessionId}/complete`, { token: accessToken, body: { outcome: "APPROVED" } });
      assert.equal(done.status, 200, done.text);
      await assertExpired(session.webviewUrl);
      await screenshot(page, "kyc-expired");
    });

    test("unknown tokens (also in French)", { timeout: TEST_TIMEOUT }, async () => {
      await assertExpired(`${API_ORIGIN}/webviews/kyc/${randomBytes(32).toString("base64url")}`);
      await assertExpired(`${API_ORIGIN}/webviews/kyc/not-a-token`);
      const fr = await newPage(e2e.browser, { ...PHONE, locale: "fr-FR" });
      await fr.goto(`${API_ORIGIN}/webviews/kyc/${randomBytes(32).toString("base64url")}`);
      assert.equal(await fr.getByTestId("webview-expired").getByRole("heading").textContent(), "Ce lien a expiré");
      await screenshot(fr, "kyc-expired-fr");
      await fr.context().close();
    });

    // Last: the server's clock cannot go back.
    test("an unused URL 30 minutes and 1 second later", { timeout: TEST_TIMEOUT }, async () => {
      const { accessToken } = await customerWithProfile();
      const session = await createKycSession(accessToken);
      await advanceClock(1801);
      await assertExpired(session.webviewUrl);
    });
  });
});
