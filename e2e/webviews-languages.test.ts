import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { countryOptions } from "../lib/platform/i18n/countries";
import { formatMoney } from "../lib/platform/i18n/format";
import { fundingWebviewMessages } from "../lib/platform/i18n/funding-webview-messages";
import { kycWebviewMessages } from "../lib/platform/i18n/kyc-webview-messages";
import type { Language } from "../lib/platform/i18n/language";
import { TINY_PNG as PNG, newPage, PHONE, TEST_TIMEOUT } from "./support/browser";
import { createKycSession, customerWithProfile } from "./support/customer";
import { withoutDevReloads } from "./support/dev-server";
import { fundingScenario } from "../test/integration/transfers/support";
import { readTransfer } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// Both hosted pages in en, fr and es on a 390 px phone: <html lang> and the
// title, amounts and dates written for people (checked in the DOM), the country picker, and a
// declined card retried on the same session. Every state is kept as a screenshot in
// e2e/screenshots/<page>-<state>-<language>.png (gitignored).

const SCREENSHOTS = path.resolve(__dirname, "screenshots");
const e2e = setupE2eFile();
const LOCALES: Record<Language, string> = { en: "en-US", fr: "fr-FR", es: "es-ES" };
const LANGUAGES = Object.keys(LOCALES) as Language[];

// In the customer's time zone with its offset (the KYC customer lives in Paris, the funding one in
// Austin): "November 22, 2026 at 9:42 PM UTC+01:00", "22 novembre 2026 à 14:42 UTC−06:00",
// "22 de noviembre de 2026, 21:42 CET (UTC+01:00)", "November 22, 2026 at 2:42 PM CST (UTC−06:00)".
const S = "[\\s\\u00a0\\u202f]";
const ZONE = `${S}(UTC[+−]\\d\\d:\\d\\d|[A-Z]{3,4}${S}\\(UTC[+−]\\d\\d:\\d\\d\\))`;
const DATE: Record<Language, RegExp> = {
  en: new RegExp(`[A-Z][a-z]+ \\d{1,2}, 20\\d\\d at \\d{1,2}:\\d\\d${S}[AP]M${ZONE}`),
  fr: new RegExp(`\\d{1,2} [a-zéû]+ 20\\d\\d à \\d\\d:\\d\\d${ZONE}`),
  es: new RegExp(`\\d{1,2} de [a-z]+ de 20\\d\\d,? (a las )?\\d{1,2}:\\d\\d${ZONE}`),
};
// "USD 1,250.00" / "1 250,00 USD" / "1250,00 USD" (es groups from five digits).
const USD: Record<Language, RegExp> = {
  en: new RegExp(`USD${S}\\d[\\d,]*\\.\\d\\d`),
  fr: new RegExp(`\\d[\\d${S.slice(1, -1)}]*,\\d\\d${S}USD`),
  es: new RegExp(`\\d[\\d.]*,\\d\\d${S}USD`),
};

async function phone(language: Language): Promise<Page> {
  const page = await newPage(e2e.browser, { ...PHONE, locale: LOCALES[language] });
  await withoutDevReloads(page.context());
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** <html lang> and the document title of the page's language. */
async function assertLanguage(page: Page, language: Language, title: string) {
  assert.equal(await page.locator("html").getAttribute("lang"), language);
  assert.equal(await page.title(), title);
  const overflow = await page.locator("html").evaluate((el) => el.scrollWidth - el.clientWidth);
  assert.ok(overflow <= 0, `the page overflows 390 px by ${overflow}px`);
}

describe("hosted pages in the customer's language (390 px)", () => {
  for (const language of LANGUAGES) {
    test(`KYC page in ${language}: lang, title, link end as a date, the country picker`, { timeout: TEST_TIMEOUT }, async () => {
      const m = kycWebviewMessages[language];
      const { accessToken } = await customerWithProfile();
      const session = await createKycSession(accessToken);
      const page = await phone(language);
      await page.goto(session.webviewUrl);
      await page.getByRole("heading", { name: m.title }).waitFor();
      await assertLanguage(page, language, m.title);
      assert.match((await page.getByTestId("kyc-valid-until").textContent()) ?? "", DATE[language]);

      // A picker of localised country names, alpha-3 values; no typed code.
      const picker = page.getByLabel(m.issuingCountry);
      assert.equal(await picker.evaluate((el) => el.tagName), "SELECT");
      const germany = countryOptions(language).find((c) => c.code === "DEU")!.name;
      assert.equal(germany, { en: "Germany", fr: "Allemagne", es: "Alemania" }[language]);
      assert.equal(await picker.locator('option[value="DEU"]').textContent(), germany);
      assert.equal(await picker.locator("option").first().textContent(), m.chooseCountry);
      await shot(page, `kyc-capture-${language}`);

      await page.getByLabel(m.documentType).selectOption("PASSPORT");
      await page.getByLabel(m.documentNumber).fill("P9876543");
      await picker.selectOption({ label: germany });
      await page.getByLabel(m.expiryDate).fill("2032-01-31");
      await page.getByLabel(m.photo).setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: PNG });
      await shot(page, `kyc-filled-${language}`);
      const capture = page.waitForResponse((r) => r.url().endsWith("/capture"));
      await page.getByRole("button", { name: m.submit }).click();
      assert.equal(JSON.parse((await capture).request().postData() ?? "{}").issuingCountry, "DEU");
      await page.getByRole("button", { name: m.approve }).waitFor();
      await shot(page, `kyc-sandbox-buttons-${language}`);
      await page.getByRole("button", { name: m.approve }).click();
      await page.getByTestId("kyc-done").waitFor();
      assert.equal(await page.getByTestId("kyc-done").textContent(), m.done);
      await shot(page, `kyc-done-${language}`);
      await page.reload();
      await page.getByTestId("webview-expired").waitFor();
      await assertLanguage(page, language, m.title);
      assert.equal(await page.getByRole("heading").textContent(), m.expiredTitle);
      await shot(page, `kyc-expired-${language}`);
      await page.context().close();
    });

    test(
      `funding page in ${language}: amounts and deadline for people, a declined card retried on the same session`,
      { timeout: TEST_TIMEOUT * 2 },
      async () => {
        const m = fundingWebviewMessages[language];
        const s = await fundingScenario();
        const t = (await readTransfer(s.c, s.transferId)).body;
        const page = await phone(language);
        await page.goto(s.confirmed.fundingSession.fundingWebviewUrl);
        await page.getByRole("heading", { name: m.title }).waitFor();
        await assertLanguage(page, language, m.title);
        const summary = (await page.getByTestId("funding-summary").textContent()) ?? "";
        assert.match(summary, USD[language]);
        assert.ok(summary.includes(formatMoney(t.totalCustomerCost, "USD", language)), summary);
        assert.ok(!summary.includes(".000000"), `no wire decimals: ${summary}`);
        assert.match((await page.getByTestId("funding-until").textContent()) ?? "", DATE[language]);
        await shot(page, `funding-form-${language}`);

        const pay = async (card: string) => {
          await page.getByLabel(m.cardNumber).fill(card);
          await page.getByLabel(m.expiry).fill("12/30");
          await page.getByLabel(m.cvc).fill("123");
          await page.getByRole("button", { name: new RegExp(`^${m.pay} `) }).click();
        };
        await pay("4000 0000 0000 0002");
        const declined = page.getByTestId("funding-declined");
        await declined.waitFor();
        const text = (await declined.textContent()) ?? "";
        assert.ok(text.startsWith(m.declined.slice(0, m.declined.indexOf("{at}"))), text);
        assert.match(text, DATE[language]);
        await shot(page, `funding-declined-${language}`);

        // The same session takes another card.
        await pay("4242 4242 4242 4242");
        await page.getByTestId("funding-succeeded").waitFor();
        assert.equal(await page.getByTestId("funding-succeeded").textContent(), m.succeeded);
        await shot(page, `funding-succeeded-${language}`);
        assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funded");
        await page.reload();
        await page.getByTestId("webview-expired").waitFor();
        await assertLanguage(page, language, m.title);
        await shot(page, `funding-expired-${language}`);
        await page.context().close();
      },
    );

    test(`funding page in ${language}: the fifth declined card closes the link and says what happens next`, { timeout: TEST_TIMEOUT * 2 }, async () => {
      const m = fundingWebviewMessages[language];
      const s = await fundingScenario();
      const page = await phone(language);
      await page.goto(s.confirmed.fundingSession.fundingWebviewUrl);
      for (let i = 1; i <= 5; i++) {
        await page.getByLabel(m.cardNumber).fill("4000 0000 0000 0002");
        await page.getByLabel(m.expiry).fill("12/30");
        await page.getByLabel(m.cvc).fill("123");
        const answered = page.waitForResponse((r) => r.url().endsWith("/pay"));
        await page.getByRole("button", { name: new RegExp(`^${m.pay} `) }).click();
        await answered;
        // After a decline the page clears the card fields for the next card: wait for that.
        if (i < 5) await page.waitForFunction(() => (document.querySelector('input[name="cardNumber"]') as HTMLInputElement | null)?.value === "");
      }
      const failed = page.getByTestId("funding-failed");
      await failed.waitFor();
      assert.equal(await failed.textContent(), m.failed);
      await shot(page, `funding-failed-${language}`);
      // What the page says: the transfer is back for a new confirm.
      assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "validated");
      await page.context().close();
    });
  }
});
