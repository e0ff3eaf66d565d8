import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { kycWebviewMessages } from "../lib/platform/i18n/kyc-webview-messages";
import { launchBrowser, newPage, PHONE, screenshot, TIMEOUT } from "./support/browser";
import { startOwnServer, type OwnServer } from "../test/support/own-server";

// KYC decided by operators. The customer captures in the hosted page (no sandbox
// buttons), the session waits in the console's KYC review queue with the fields and the photo, an
// operator approves it and the customer turns VALID; a second operator is told it is already
// decided. A correction's reason is shown on the customer's next capture.
//
// The server's configuration is fixed at start, so this file starts its own production server
// (this checkout's build, fresh PGlite) with KYC_DECISION_PROVIDER=operator; KYC_OPERATOR_BASE_URL
// points it at one already running in that mode instead.

const EN = kycWebviewMessages.en;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

type Client = typeof import("../test/integration/support/client");
type Customer = typeof import("./support/customer");
type Console = typeof import("./support/console");

let server: OwnServer | undefined;
let browser: Browser;
let client: Client;
let customer: Customer;
let consoleUi: Console;

before(async () => {
  if (process.env.KYC_OPERATOR_BASE_URL) process.env.TEST_BASE_URL = process.env.KYC_OPERATOR_BASE_URL;
  else {
    server = await startOwnServer({ KYC_DECISION_PROVIDER: "operator" });
    process.env.TEST_BASE_URL = server.baseUrl;
  }
  // Loaded now: the helpers read TEST_BASE_URL when first imported.
  client = await import("../test/integration/support/client");
  customer = await import("./support/customer");
  consoleUi = await import("./support/console");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function fillCapture(root: Page | FrameLocator, documentNumber: string) {
  await root.getByLabel(EN.documentType).selectOption("PASSPORT");
  await root.getByLabel(EN.documentNumber).fill(documentNumber);
  await root.getByLabel(EN.issuingCountry).selectOption("FRA");
  await root.getByLabel(EN.expiryDate).fill("2031-05-31");
  await root.getByLabel(EN.photo).setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: PNG });
}

/** A customer with a profile opens a KYC session on a phone and submits the capture for review. */
async function submittedCapture(documentNumber: string) {
  const { accessToken } = await customer.customerWithProfile();
  const session = await customer.createKycSession(accessToken);
  const page = await newPage(browser, PHONE);
  await page.goto(session.webviewUrl);
  await fillCapture(page, documentNumber);
  await page.getByRole("button", { name: EN.submit }).click();
  const submitted = page.getByTestId("kyc-submitted");
  await submitted.waitFor();
  assert.match((await submitted.textContent()) ?? "", new RegExp(EN.underReview.slice(0, 20)));
  // No sandbox buttons in operator mode.
  assert.equal(await page.getByRole("button", { name: EN.approve }).count(), 0);
  assert.equal(await page.getByText(EN.sandboxTitle).count(), 0);
  return { accessToken, session, page };
}

describe("KYC decided by operators", () => {
  test(
    "an operator approves a captured session in the console and the customer turns VALID; a second operator sees 'already decided'",
    {
      timeout: TIMEOUT * 12,
    },
    async () => {
      const c = await submittedCapture("P1234567");
      await screenshot(c.page, "kyc-operator-submitted");
      const profile = await customer.readProfile(c.accessToken);
      assert.deepEqual([profile.status, profile.kycStatus], ["PENDING", "IN_PROGRESS"]);

      const first = await consoleUi.signedInPage(browser);
      const second = await consoleUi.signedInPage(browser, await consoleUi.createOperatorInConsole(first, "reviewer", "Second reviewer"));
      for (const p of [first, second]) await p.goto(consoleUi.consoleUrl("/kyc-review"));
      const card = consoleUi.cardFor(first, c.session.kycSessionId);
      await card.waitFor();
      assert.equal(await card.getByTestId("kyc-document").textContent(), "PASSPORT P1234567, issued by FRA, expires 2031-05-31");
      // The photo is shown (served to the signed-in operator, never cached).
      const img = card.getByRole("img");
      await client.eventually(async () => (await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)) === 1 || null, TIMEOUT, "the photo to load");
      const photo = await first.request.get(consoleUi.consoleUrl(`/kyc-review/${c.session.kycSessionId}/photo`));
      assert.equal(photo.status(), 200);
      assert.equal(photo.headers()["content-type"], "image/png");
      assert.match(photo.headers()["cache-control"] ?? "", /no-store/);
      assert.deepEqual(Buffer.from(await photo.body()), PNG);
      // Not to anyone else: without a console session it is the sign-in page.
      const anonymous = await fetch(consoleUi.consoleUrl(`/kyc-review/${c.session.kycSessionId}/photo`), { redirect: "manual" });
      assert.ok([303, 307].includes(anonymous.status), `anonymous photo request: ${anonymous.status}`);
      assert.match(anonymous.headers.get("location") ?? "", /\/console\/login/);
      await screenshot(first, "kyc-review-queue");

      await consoleUi.decide(first, card, "Approve", "Passport matches the profile", "/kyc-review");
      assert.match((await consoleUi.notice(first).textContent()) ?? "", /approved: customer VALID, KYC COMPLETED/);

      // The second operator still has the card on screen and decides too late.
      await consoleUi.decide(second, consoleUi.cardFor(second, c.session.kycSessionId), "Refuse", "Looks forged", "/kyc-review");
      assert.match((await consoleUi.flashError(second).textContent()) ?? "", /Already decided by someone else/);
      await screenshot(second, "kyc-review-already-decided");

      const valid = await client.eventually(
        async () => {
          const p = await customer.readProfile(c.accessToken);
          return p.status === "VALID" && p.kycStatus === "COMPLETED" ? p : null;
        },
        TIMEOUT,
        "status VALID and kycStatus COMPLETED",
      );
      assert.equal(valid.status, "VALID");
      for (const p of [c.page, first, second]) await p.context().close();
    },
  );

  test("a correction's reason is shown on the customer's next capture", { timeout: TIMEOUT * 12 }, async () => {
    const c = await submittedCapture("P7654321");
    const op = await consoleUi.signedInPage(browser);
    await op.goto(consoleUi.consoleUrl("/kyc-review"));
    const reason = "The photo is blurred: take it again in daylight";
    await consoleUi.decide(op, consoleUi.cardFor(op, c.session.kycSessionId), "Ask for correction", reason, "/kyc-review");
    assert.match((await consoleUi.notice(op).textContent()) ?? "", /sent back for correction: customer RESTRICTED, KYC REMEDIATION_REQUIRED/);

    const next = await customer.createKycSession(c.accessToken);
    await c.page.goto(next.webviewUrl);
    const note = c.page.getByTestId("kyc-correction");
    await note.waitFor();
    assert.equal(await note.getByRole("heading").textContent(), EN.correctionTitle);
    assert.match((await note.textContent()) ?? "", new RegExp(reason));
    await screenshot(c.page, "kyc-correction-shown");
    for (const p of [c.page, op]) await p.context().close();
  });

  // The step-up. A customer at tier 1 opens KYC again (purpose ENHANCED), the hosted page
  // asks for the source of funds, an income band and a supporting document, and an operator's
  // approval in KYC review moves the customer to tier 2 (GET /v1/core/limits).
  test("a customer steps up through the hosted KYC page and an operator's approval moves them to tier 2", { timeout: TIMEOUT * 12 }, async () => {
    const c = await submittedCapture("P2468101");
    const op = await consoleUi.signedInPage(browser);
    await op.goto(consoleUi.consoleUrl("/kyc-review"));
    await consoleUi.decide(op, consoleUi.cardFor(op, c.session.kycSessionId), "Approve", "Passport matches the profile", "/kyc-review");
    const limits = async () => {
      const res = await client.call("GET", "/v1/core/limits", { token: c.accessToken });
      assert.equal(res.status, 200, res.text);
      return res.body as { tier: number; nextTier: { tier: number; requires: string[] } | null };
    };
    const before = await limits();
    assert.deepEqual([before.tier, before.nextTier], [1, { tier: 2, requires: ["SOURCE_OF_FUNDS"] }]);

    const stepUp = await customer.createKycSession(c.accessToken);
    assert.equal(stepUp.purpose, "ENHANCED");
    const page = await newPage(browser, PHONE);
    await page.goto(stepUp.webviewUrl);
    await page.getByRole("heading", { name: EN.evidenceTitle }).waitFor();
    assert.equal(await page.getByLabel(EN.documentNumber).count(), 0, "no identity document is asked again");
    await page.getByLabel(EN.sourceOfFunds).selectOption("EMPLOYMENT");
    await page.getByLabel(EN.incomeBand).selectOption("50K_100K");
    // Its label is also part of the photo's ("Photo of the supporting document"): picked by its field name.
    await page.locator('select[name="supportingDocumentType"]').selectOption("PAYSLIP");
    await page.getByLabel(EN.supportingDocumentPhoto).setInputFiles({ name: "payslip.png", mimeType: "image/png", buffer: PNG });
    await screenshot(page, "kyc-step-up-capture");
    await page.getByRole("button", { name: EN.submit }).click();
    await page.getByTestId("kyc-submitted").waitFor();

    await op.goto(consoleUi.consoleUrl("/kyc-review"));
    const card = consoleUi.cardFor(op, stepUp.kycSessionId);
    await card.waitFor();
    assert.equal(await card.getByTestId("kyc-source-of-funds").textContent(), "EMPLOYMENT, annual income 50K_100K");
    assert.equal(await card.getByTestId("kyc-document").textContent(), "PAYSLIP");
    await screenshot(op, "kyc-review-step-up");
    await consoleUi.decide(op, card, "Approve", "Payslip supports the declared income", "/kyc-review");
    assert.match((await consoleUi.notice(op).textContent()) ?? "", /approved: customer VALID, KYC COMPLETED/);

    const raised = await limits();
    assert.equal(raised.tier, 2);
    assert.equal(raised.nextTier, null);
    for (const p of [c.page, page, op]) await p.context().close();
  });
});
