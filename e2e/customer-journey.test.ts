import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compactVerify, createRemoteJWKSet } from "jose";
import type { Frame, Page } from "playwright-core";
import { formatMoney } from "../lib/platform/i18n/format";
import { fundingWebviewMessages } from "../lib/platform/i18n/funding-webview-messages";
import { kycWebviewMessages } from "../lib/platform/i18n/kyc-webview-messages";
import { TINY_PNG as PNG, newPage, PHONE, screenshot, TEST_TIMEOUT, TIMEOUT } from "./support/browser";
import { withoutDevReloads } from "./support/dev-server";
import { screenshotWithFrame } from "./support/frames";
import { receivedMessages } from "./support/partner-app";
import {
  BASE_URL,
  call,
  eventually,
  advanceTo,
  awaitFastCheck,
  pendingCustomer,
  validAssertion,
  readTransfer,
  registerDevice,
  states,
  submit,
  submitBody,
  awaitTransfer,
  validBeneficiaryId,
  POLL_MS,
} from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// One customer from registration to paid, through both hosted webviews in a real
// browser: KYC in the partner page's iframe, funding in a popup the partner page opens. Everything
// else is the public API, called as a partner's backend would.

const API_ORIGIN = new URL(BASE_URL).origin;
const KYC = kycWebviewMessages.en;
const FUNDING = fundingWebviewMessages.en;
const e2e = setupE2eFile({ partnerApp: true });

/** Waits for the partner page to have received `n` messages, then a moment for a stray duplicate. */
async function messages(page: Page, n = 1) {
  await page.waitForFunction((count) => (window as unknown as { __messages: unknown[] }).__messages.length >= count, n, { timeout: TIMEOUT });
  await page.waitForTimeout(300);
  return receivedMessages(page);
}

describe("customer journey", () => {
  test(
    "registration → KYC webview (iframe) → device, beneficiary, quote, accept, submit, confirm → funding webview (popup) → paid",
    { timeout: TEST_TIMEOUT * 3 },
    async () => {
      // Registration and profile over the API.
      const c = await pendingCustomer();
      const profile = await call("GET", "/v1/core/profile", { token: c.token });
      assert.equal(profile.body.status, "PENDING", profile.text);

      // KYC: the session's webviewUrl in the partner page's iframe.
      const kyc = await call("POST", "/v1/core/kyc-sessions", { token: c.token });
      assert.equal(kyc.status, 200, kyc.text);
      assert.equal(new URL(kyc.body.webviewUrl).origin, API_ORIGIN);
      assert.deepEqual(kyc.body.closureCallback.postMessage, { type: "kyc.closed", targetOrigin: e2e.app.origin });

      const partner = await newPage(e2e.browser, PHONE);
      await withoutDevReloads(partner.context());
      const framed = partner.waitForEvent("framenavigated", { predicate: (f: Frame) => f !== partner.mainFrame() });
      await partner.goto(e2e.app.url({ kyc: kyc.body.webviewUrl }));
      await framed;
      const frame = partner.frameLocator("#webview");
      await frame.getByRole("heading", { name: KYC.title }).waitFor();
      await frame.getByLabel(KYC.documentType).selectOption("PASSPORT");
      await frame.getByLabel(KYC.documentNumber).fill("P9876543");
      await frame.getByLabel(KYC.issuingCountry).selectOption("USA");
      await frame.getByLabel(KYC.expiryDate).fill("2032-01-31");
      await frame.getByLabel(KYC.photo).setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: PNG });
      await screenshotWithFrame(partner, "journey-1-kyc-capture");
      await frame.getByRole("button", { name: KYC.submit }).click();
      await frame.getByRole("button", { name: KYC.approve }).click();
      await frame.getByTestId("kyc-done").waitFor();
      assert.deepEqual(await messages(partner), [
        { origin: API_ORIGIN, data: { type: "kyc.closed", kycSessionId: kyc.body.kycSessionId, sessionState: "COMPLETED" } },
      ]);
      await screenshot(partner, "journey-2-kyc-done");
      await eventually(
        async () => {
          const p = await call("GET", "/v1/core/profile", { token: c.token });
          return p.body.status === "VALID" && p.body.kycStatus === "COMPLETED";
        },
        POLL_MS,
        "customer VALID after KYC",
      );

      // Device key, beneficiary (screened VALID), quote with its signature, disclosure, accept.
      const device = await registerDevice(c);
      const beneficiaryId = await validBeneficiaryId(c);
      const quote = await call("POST", "/v1/core/quotes", {
        token: c.token,
        body: { originAmount: "250.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId },
      });
      assert.equal(quote.status, 200, quote.text);
      const verified = await compactVerify(quote.body.signedQuote, createRemoteJWKSet(new URL(`${BASE_URL}/.well-known/jwks.json`)), { algorithms: ["RS256"] });
      assert.equal(JSON.parse(new TextDecoder().decode(verified.payload)).quote_id, quote.body.quoteId);
      const disclosure = await call("GET", `/v1/core/quotes/${quote.body.quoteId}/disclosure`, { token: c.token });
      assert.equal(disclosure.status, 200, disclosure.text);
      const accepted = await call("POST", `/v1/core/quotes/${quote.body.quoteId}/accept`, {
        token: c.token,
        body: { disclosureToken: disclosure.body.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
      });
      assert.equal(accepted.status, 201, accepted.text);
      assert.equal(accepted.body.transferStatus, "registered");
      const transferId: string = accepted.body.transferId;

      // Submit, the fast-check to validated, confirm on the device (challenge from GET).
      const submitted = await submit(c, transferId, submitBody(beneficiaryId));
      assert.equal(submitted.status, 202, submitted.text);
      const validated = await awaitFastCheck(c, transferId);
      assert.equal(validated.transferStatus, "validated", JSON.stringify(validated));
      const read = await readTransfer(c, transferId);
      assert.equal(typeof read.body.confirmationChallenge, "string", read.text);
      const confirmed = await call("POST", `/v1/core/transfers/${transferId}/confirm`, {
        token: c.token,
        body: { deviceAssertion: await validAssertion(device, read.body) },
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.equal(confirmed.body.transferStatus, "funding");
      assert.equal(confirmed.body.nextStep, "OPEN_FUNDING_WEBVIEW");
      const { fundingSessionId, fundingWebviewUrl } = confirmed.body.fundingSession;
      assert.equal(new URL(fundingWebviewUrl).origin, API_ORIGIN);

      // Funding: the partner page opens the hosted payment page in a popup.
      await partner.goto(e2e.app.url({ popup: fundingWebviewUrl }));
      const [popup] = await Promise.all([partner.waitForEvent("popup"), partner.locator("#open-popup").click()]);
      popup.setDefaultTimeout(TIMEOUT);
      await popup.getByRole("heading", { name: FUNDING.title }).waitFor();
      const summary = popup.getByTestId("funding-summary");
      const shown = (await summary.textContent()) ?? "";
      // The amounts as people read them ("USD 250.00"), not the API's "250.000000".
      assert.ok(
        shown.includes(formatMoney(read.body.originAmount, "USD", "en")) && shown.includes(formatMoney(read.body.destinationAmount, "MXN", "en")),
        `the summary shows the amounts: ${shown}`,
      );
      await popup.getByLabel(FUNDING.cardNumber).fill("4242 4242 4242 4242");
      await popup.getByLabel(FUNDING.expiry).fill("12/30");
      await popup.getByLabel(FUNDING.cvc).fill("123");
      await screenshot(popup, "journey-3-funding-form");
      const paid = popup.waitForResponse((r) => r.url().endsWith("/pay") && r.request().method() === "POST");
      await popup.getByRole("button", { name: new RegExp(`^${FUNDING.pay} `) }).click();
      assert.equal((await paid).status(), 200);
      await popup.getByTestId("funding-succeeded").waitFor();
      assert.equal(await popup.getByTestId("funding-succeeded").textContent(), FUNDING.succeeded);
      await screenshot(popup, "journey-4-funding-succeeded");
      assert.deepEqual(await messages(partner), [{ origin: API_ORIGIN, data: { type: "funding.closed", fundingSessionId, sessionState: "SUCCEEDED" } }]);
      await partner.getByTestId("message").waitFor();
      await screenshot(partner, "journey-5-partner-got-funding-closed");

      // Funded, then the sandbox payout network to paid.
      await awaitTransfer(c, transferId, "funded");
      await advanceTo(c, transferId, "topay", "reqpay", "paid");
      const final = await readTransfer(c, transferId);
      assert.equal(final.status, 200, final.text);
      assert.equal(final.body.transferStatus, "paid");
      assert.deepEqual(states(final.body), ["registered", "validated", "funding", "funded", "topay", "reqpay", "paid"]);
      await partner.context().close();
    },
  );
});
