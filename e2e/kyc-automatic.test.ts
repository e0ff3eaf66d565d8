import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { kycWebviewMessages } from "../lib/platform/i18n/kyc-webview-messages";
import { syntheticPassport, type SyntheticPerson } from "../scripts/kyc/synthetic-document";
import { launchBrowser, newPage, PHONE, screenshot, TIMEOUT } from "./support/browser";
import { startOwnServer, type OwnServer } from "../test/support/own-server";

// KYC verified by the machine (KYC_DECISION_PROVIDER=automatic, sandbox face matcher). In Chromium
// on a phone, the customer uploads a synthetic passport and two selfies through the hosted page;
// the kyc.verify job reads the zone and approves without a person (the customer turns VALID). A
// passport whose date of birth differs from the profile goes to the console's review queue, whose
// card shows the fields read beside the profile with the difference marked and the face score.
// The server's configuration is fixed at start, so this file starts its own production server.

const EN = kycWebviewMessages.en;

type Client = typeof import("../test/integration/support/client");
type Customer = typeof import("./support/customer");
type Console = typeof import("./support/console");

let server: OwnServer;
let browser: Browser;
let client: Client;
let customer: Customer;
let consoleUi: Console;

before(async () => {
  server = await startOwnServer({ KYC_DECISION_PROVIDER: "automatic", KYC_FACE_MATCHER: "sandbox-fingerprint" });
  process.env.TEST_BASE_URL = server.baseUrl;
  client = await import("../test/integration/support/client");
  customer = await import("./support/customer");
  consoleUi = await import("./support/console");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A customer with a profile, and the synthetic passport of that person (or of one born on
 * `documentBirthDate`). Fixed names, dates and portrait: the same image every run, so the OCR's
 * reading of it is the same too (this file's server has a database of its own).
 */
async function customerAndPassport(who: { firstName: string; lastName: string; dateOfBirth: string; seed: number }, documentBirthDate?: string) {
  const { onboardCustomer } = await import("../scripts/lib/onboarding");
  const { uniqueEmail } = await import("../test/integration/support");
  const profile = { ...customer.validProfile(), firstName: who.firstName, lastName: who.lastName, dateOfBirth: who.dateOfBirth };
  const { token } = await onboardCustomer(client.call, { identifier: uniqueEmail(), profile, kyc: false });
  const person: SyntheticPerson = {
    lastName: profile.lastName,
    firstName: profile.firstName,
    dateOfBirth: documentBirthDate ?? profile.dateOfBirth,
    nationality: "FRA",
    sex: "F",
    documentNumber: `${who.seed}FR${who.seed * 1234}`,
    issuingCountry: "FRA",
    expiryDate: "2031-05-31",
  };
  const pictures = await syntheticPassport(person, { blur: 0.6, angle: 0, quality: 80 }, { seed: who.seed });
  return { accessToken: token, profile, person, pictures };
}

async function captureInPage(page: Page, person: SyntheticPerson, pictures: Awaited<ReturnType<typeof syntheticPassport>>) {
  await page.getByLabel(EN.documentType).selectOption("PASSPORT");
  await page.getByLabel(EN.documentNumber).fill(person.documentNumber);
  await page.getByLabel(EN.issuingCountry).selectOption("FRA");
  await page.getByLabel(EN.expiryDate).fill(person.expiryDate);
  await page.locator('input[name="photo"]').setInputFiles({ name: "passport.jpg", mimeType: "image/jpeg", buffer: pictures.document });
  await page.locator('input[name="selfie"]').setInputFiles({ name: "selfie.jpg", mimeType: "image/jpeg", buffer: pictures.selfie });
  await page.locator('input[name="selfieTurn"]').setInputFiles({ name: "selfie-turn.jpg", mimeType: "image/jpeg", buffer: pictures.selfieTurn });
  await page.getByRole("button", { name: EN.submit }).click();
  await page.getByTestId("kyc-submitted").waitFor();
}

describe("KYC verified by the machine", () => {
  test("a clean passport and matching selfies uploaded through the hosted page: approved without a person", { timeout: TIMEOUT * 12 }, async () => {
    const c = await customerAndPassport({ firstName: "Camille", lastName: "Durand", dateOfBirth: "1984-06-12", seed: 21 });
    const session = await customer.createKycSession(c.accessToken);
    const page = await newPage(browser, PHONE);
    await page.goto(session.webviewUrl);
    // The page asks for the selfies, with framing guidance.
    await page.getByText(EN.selfieGuide).waitFor();
    await page.getByText(EN.selfieTurnGuide).waitFor();
    await screenshot(page, "kyc-automatic-capture");
    await captureInPage(page, c.person, c.pictures);
    const valid = await client.eventually(
      async () => {
        const p = await customer.readProfile(c.accessToken);
        return p.status === "VALID" && p.kycStatus === "COMPLETED" ? p : null;
      },
      TIMEOUT * 4,
      "approved by the machine: status VALID, kycStatus COMPLETED",
    );
    assert.equal(valid.kycStatus, "COMPLETED");
    await page.context().close();
  });

  test("a passport whose date of birth differs: to the review queue, the difference marked on the card", { timeout: TIMEOUT * 12 }, async () => {
    const c = await customerAndPassport({ firstName: "Louise", lastName: "Martin", dateOfBirth: "1979-11-23", seed: 34 }, "1961-02-03");
    const session = await customer.createKycSession(c.accessToken);
    const page = await newPage(browser, PHONE);
    await page.goto(session.webviewUrl);
    await captureInPage(page, c.person, c.pictures);
    const op = await consoleUi.signedInPage(browser);
    const card = await client.eventually(
      async () => {
        await op.goto(consoleUi.consoleUrl("/kyc-review"));
        const card = consoleUi.cardFor(op, session.kycSessionId);
        return (await card.count()) > 0 ? card : null;
      },
      TIMEOUT * 4,
      "the session in the review queue",
    );
    const reasons = (await card.getByTestId("kyc-verification-reasons").textContent()) ?? "";
    assert.match(reasons, /dateOfBirth: document 1961-02-03, profile /);
    const marked = card.locator('tr[data-differs="true"]');
    assert.equal(await marked.count(), 1, (await marked.allTextContents()).join(" | "));
    assert.match((await marked.textContent()) ?? "", /Date of birth.*1961-02-03/);
    assert.match((await card.getByTestId("kyc-face-score").textContent()) ?? "", /score 0\.\d+ \(threshold 0\.9, match/);
    await screenshot(op, "kyc-automatic-review-card");
    const profile = await customer.readProfile(c.accessToken);
    assert.deepEqual([profile.status, profile.kycStatus], ["PENDING", "IN_PROGRESS"]);
    for (const p of [page, op]) await p.context().close();
  });
});
