import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { screenshot } from "./support/browser";
import { ADMIN, approveProposal, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, proposalIn, signedInPage } from "./support/console";
import {
  acceptQuote,
  assertError,
  acceptTransfer,
  advanceClock,
  call,
  disclosureToken,
  createQuote,
  onboardedCustomer,
  quoteBody,
  serverNow,
  serviceQuote,
  useServicePricing,
  validBeneficiaryId,
} from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// Prices as versioned data: one admin proposes a new principal fee for US-MX from an effective
// time, a second admin approves it after seeing a quote previewed under each price; a quote before
// the effective time keeps the old fee, one after it has the new one, and its transfer names the
// version it was priced under. The shipped price is restored the same way at the end, so the files
// after this one quote as before.

const e2e = setupE2eFile();

/** "2026-11-29T03:00": a datetime-local value in UTC, `minutes` after `at` (rounded down to the minute). */
const localUtc = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000).toISOString().slice(0, 16);

/** On the Configuration page, `page`'s admin proposes US-MX's principal fee from `effectiveAt`; the notice. */
async function proposeFee(page: Page, fee: string, effectiveAt: string, note: string): Promise<string> {
  await page.goto(consoleUrl("/configuration"));
  const section = page.getByTestId("propose-US-MX");
  await section.locator("summary").click();
  const form = page.getByTestId("price-form-US-MX");
  await form.getByLabel("Principal fee").fill(fee);
  await form.getByLabel("Effective from (UTC)").fill(effectiveAt);
  await form.getByLabel("Why").fill(note);
  await form.getByRole("button", { name: "Propose new prices" }).click();
  const done = form.getByRole("status");
  await done.waitFor();
  return (await done.textContent()) ?? "";
}

describe("console: configuration versions", () => {
  test(
    "a new US-MX fee proposed with an effective time, approved by a second admin, prices quotes from that time on",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      await useServicePricing();
      const c = await onboardedCustomer();
      const beneficiaryId = await validBeneficiaryId(c);
      const maker = await signedInPage(e2e.browser, ADMIN);
      const checkerCredentials = await createOperatorInConsole(maker, "admin", "Cleo Checker");

      // The page shows the version in force and its prices.
      await maker.goto(consoleUrl("/configuration"));
      const inForce = Number(/Version (\d+) in force/.exec((await maker.getByTestId("version-in-force").textContent()) ?? "")?.[1]);
      assert.ok(inForce >= 1);
      assert.match((await maker.getByTestId("in-force-US-MX").textContent()) ?? "", /2\.99 USD/);

      // A fee with more decimals than USD has is refused at its field; nothing is proposed.
      await maker.getByTestId("propose-US-MX").locator("summary").click();
      const form = maker.getByTestId("price-form-US-MX");
      await form.getByLabel("Principal fee").fill("3.499");
      await form.getByLabel("Why").fill("Typo");
      await form.getByRole("button", { name: "Propose new prices" }).click();
      await form.getByTestId("field-error").filter({ hasText: "more decimals than USD has" }).waitFor();
      assert.equal(await form.getByLabel("Principal fee").inputValue(), "3.499", "what was typed stays beside its problem");
      await screenshot(maker, "console-configuration-field-error");

      // Proposed from half an hour ahead on the server's clock.
      const now = await serverNow();
      const effectiveAt = localUtc(now, 30);
      const proposalId = proposalIn(await proposeFee(maker, "3.49", effectiveAt, "Autumn price for US-MX"));

      // The second admin sees the change and a 100 USD quote under each price, and approves.
      const checker = await signedInPage(e2e.browser, checkerCredentials);
      await checker.goto(consoleUrl(`/approvals/${proposalId}`));
      const change = checker.getByTestId("change-US-MX.principalFee");
      await change.waitFor();
      assert.match((await change.textContent()) ?? "", /2\.99.*3\.49/);
      const preview = (await checker.getByTestId("change-preview US-MX").textContent()) ?? "";
      assert.match(preview, /100\.00 USD to MXN: fee 2\.99 USD, rate [\d.]+, receives [\d.]+ MXN, pays 102\.99 USD/);
      assert.match(preview, /100\.00 USD to MXN: fee 3\.49 USD, rate [\d.]+, receives [\d.]+ MXN, pays 103\.49 USD/);
      await screenshot(checker, "console-configuration-preview");
      const approved = await approveProposal(checker, proposalId, "Checked against the rate card");
      const version = Number(/Configuration version (\d+) approved/.exec(approved)?.[1]);
      assert.equal(version, inForce + 1);

      // Before the effective time: the old fee. After it: the new one, and the transfer names its version.
      const before = await serviceQuote(c, beneficiaryId);
      assert.equal(before.principalFee, "2.990000");
      await advanceClock(Math.ceil((Date.parse(`${effectiveAt}:00Z`) - (await serverNow()).getTime()) / 1000) + 5);
      const { transferId, quote: after } = await acceptTransfer(c, beneficiaryId);
      assert.equal(after.principalFee, "3.490000");
      assert.equal(after.totalCustomerCost, "103.490000");

      await maker.goto(consoleUrl(`/transfers/${transferId}`));
      assert.equal(await maker.getByTestId("priced-under").textContent(), `priced under configuration version ${version}`);

      // The page: the new version in force, the history, and the difference from the one before.
      await maker.goto(consoleUrl(`/configuration?from=${inForce}&to=${version}`));
      assert.match((await maker.getByTestId("version-in-force").textContent()) ?? "", new RegExp(`^Version ${version} in force`));
      assert.match(
        (await maker.getByTestId(`version-${version}`).textContent()) ?? "",
        new RegExp(`in force.*Autumn price for US-MX.*${ADMIN.email} / ${checkerCredentials.email}`),
      );
      assert.match((await maker.getByTestId("diff-US-MX.principalFee").textContent()) ?? "", /US-MX\.principalFee\s*2\.99\s*3\.49/);
      assert.equal(await maker.getByTestId("diff").locator("tbody tr").count(), 1, "only the fee changed");
      await screenshot(maker, "console-configuration-history");

      // The shipped fee back, from now, the same way.
      const restore = proposalIn(await proposeFee(maker, "2.99", localUtc(await serverNow(), 1), "Back to the shipped price"));
      await approveProposal(checker, restore, "Restoring");
      await advanceClock(61);
      assert.equal((await serviceQuote(c, beneficiaryId)).principalFee, "2.990000");
      for (const p of [maker, checker]) await p.context().close();
    },
  );

  test(
    "fee bands, an FX margin and a corridor maximum proposed on the form, approved, shown in force and in the diff, price the next quotes",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      await useServicePricing();
      const c = await onboardedCustomer();
      const beneficiaryId = await validBeneficiaryId(c);
      const maker = await signedInPage(e2e.browser, ADMIN);
      const checkerCredentials = await createOperatorInConsole(maker, "admin", "Bea Bands");
      const checker = await signedInPage(e2e.browser, checkerCredentials);

      await maker.goto(consoleUrl("/configuration"));
      const before = Number(/Version (\d+) in force/.exec((await maker.getByTestId("version-in-force").textContent()) ?? "")?.[1]);
      await maker.getByTestId("propose-US-MX").locator("summary").click();
      const form = maker.getByTestId("price-form-US-MX");
      // A band below the corridor's minimum is refused at the bands' field.
      await form.getByLabel("Fee bands (from=fee; …)").fill("10.00=1.99");
      await form.getByLabel("Effective from (UTC)").fill(localUtc(await serverNow(), 1));
      await form.getByLabel("Why").fill("Banded fees");
      await form.getByRole("button", { name: "Propose new prices" }).click();
      await form.getByTestId("field-error").filter({ hasText: "must exceed minimumOriginAmount" }).waitFor();

      await form.getByLabel("Fee bands (from=fee; …)").fill("500.00=4.99; 1500.00=7.99");
      await form.getByLabel("FX tolerance").fill("0.02");
      await form.getByLabel("FX margin (empty: none)").fill("0.01");
      await form.getByLabel("Maximum amount (empty: none)").fill("2500.00");
      await form.getByRole("button", { name: "Propose new prices" }).click();
      const done = form.getByRole("status");
      await done.waitFor();
      const proposalId = proposalIn((await done.textContent()) ?? "");
      await checker.goto(consoleUrl(`/approvals/${proposalId}`));
      await checker.getByTestId("change-US-MX.principalFeeBands").waitFor();
      assert.match((await checker.getByTestId("change-preview US-MX").textContent()) ?? "", /rate [\d.]+, receives [\d.]+ MXN, pays 102\.99 USD/);
      const version = Number(/Configuration version (\d+) approved/.exec(await approveProposal(checker, proposalId, "Rate card checked"))?.[1]);
      assert.equal(version, before + 1);
      await advanceClock(61);

      // The quotes: the band's fee at 600 USD, the corridor's margin off the rate, nothing above the maximum.
      const small = await serviceQuote(c, beneficiaryId);
      const banded = await serviceQuote(c, beneficiaryId, { originAmount: "600.000000" });
      assert.deepEqual([small.principalFee, banded.principalFee], ["2.990000", "4.990000"]);
      const refused = await createQuote(c, quoteBody(beneficiaryId, { originAmount: "2600.000000" }));
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.text, /above the maximum of 2500\.00 USD for US-MX/);

      // The page: the bands and the margin in force, and each change in the diff.
      await maker.goto(consoleUrl(`/configuration?from=${before}&to=${version}`));
      assert.equal(await maker.getByTestId("fee-bands-US-MX").textContent(), "from 500.00: 4.99, from 1500.00: 7.99");
      assert.equal(await maker.getByTestId("fx-margin-US-MX").textContent(), "0.01");
      for (const field of ["fxTolerance", "principalFeeBands", "fxMargin", "maximumOriginAmount"]) {
        await maker.getByTestId(`diff-US-MX.${field}`).waitFor();
      }
      await screenshot(maker, "console-configuration-fee-bands");

      // The shipped prices back: the version the first test ended on, imported whole.
      const exported = await (await maker.request.get(consoleUrl(`/configuration/${before}/export`))).text();
      await maker.getByTestId("import-form").locator("textarea").fill(exported);
      await maker
        .getByTestId("import-form")
        .getByLabel("Effective from (UTC)")
        .fill(localUtc(await serverNow(), 1));
      await maker.getByTestId("import-form").getByLabel("Why").fill("Back to the shipped prices");
      await maker.getByTestId("import-form").getByRole("button", { name: "Propose as a new version" }).click();
      const imported = maker.getByTestId("import-form").getByRole("status");
      await imported.waitFor();
      await approveProposal(checker, proposalIn((await imported.textContent()) ?? ""), "Restoring");
      await advanceClock(61);
      assert.equal((await serviceQuote(c, beneficiaryId, { originAmount: "600.000000" })).principalFee, "2.990000");
      for (const p of [maker, checker]) await p.context().close();
    },
  );

  test(
    "a lower tier limit proposed on the form, approved by a second admin, refuses an acceptance after its effective time and not before",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      await useServicePricing();
      const c = await onboardedCustomer();
      const beneficiaryId = await validBeneficiaryId(c);
      const maker = await signedInPage(e2e.browser, ADMIN);
      const checkerCredentials = await createOperatorInConsole(maker, "admin", "Lou Limits");
      const checker = await signedInPage(e2e.browser, checkerCredentials);
      const limitP1D = async () => (await call("GET", "/v1/core/limits", { token: c.token })).body.windows[0].limit;

      /** On the Configuration page, the maker proposes tier 1's limits; the form (its status once proposed). */
      const proposeLimits = async (limits: Record<string, string>, note: string, effectiveAt: string) => {
        await maker.goto(consoleUrl("/configuration"));
        const form = maker.getByTestId("tier-limits-form");
        for (const [label, value] of Object.entries(limits)) await form.getByLabel(label).fill(value);
        await form.getByLabel("Effective from (UTC)").fill(effectiveAt);
        await form.getByLabel("Why").fill(note);
        await form.getByRole("button", { name: "Propose new limits" }).click();
        return form;
      };

      await maker.goto(consoleUrl("/configuration"));
      const before = Number(/Version (\d+) in force/.exec((await maker.getByTestId("version-in-force").textContent()) ?? "")?.[1]);
      assert.match((await maker.getByTestId("tier-limits-1").textContent()) ?? "", /^1\s*2999\s*10000\s*18000$/);
      assert.equal(await limitP1D(), "2999.000000");

      // A 30-day limit below the one-day limit is refused at its field; nothing is proposed.
      const refused = await proposeLimits({ "Tier 1 P30D": "1000" }, "Typo", localUtc(await serverNow(), 30));
      await refused.getByTestId("field-error").filter({ hasText: "may not be below tier 1's P1D" }).waitFor();
      assert.equal(await refused.getByLabel("Tier 1 P30D").inputValue(), "1000", "what was typed stays beside its problem");

      // Tier 1's one-day limit lowered to 150 USD, from half an hour ahead; the second admin sees the change and approves.
      const effectiveAt = localUtc(await serverNow(), 30);
      const form = await proposeLimits({ "Tier 1 P1D": "150", "Tier 1 P30D": "10000" }, "Lower daily limit for tier 1", effectiveAt);
      await form.getByRole("status").waitFor();
      const proposalId = proposalIn((await form.getByRole("status").textContent()) ?? "");
      await checker.goto(consoleUrl(`/approvals/${proposalId}`));
      assert.match((await checker.getByTestId("change-tierLimits.1.P1D").textContent()) ?? "", /2999.*150/);
      const version = Number(/Configuration version (\d+) approved/.exec(await approveProposal(checker, proposalId, "Risk agreed"))?.[1]);
      assert.equal(version, before + 1);

      // Before the effective time: two 100 USD transfers in the day, 200 over the coming 150, both accepted.
      await acceptTransfer(c, beneficiaryId);
      await acceptTransfer(c, beneficiaryId);
      assert.equal(await limitP1D(), "2999.000000");

      // After it: the third is over the day's 150.
      await advanceClock(Math.ceil((Date.parse(`${effectiveAt}:00Z`) - (await serverNow()).getTime()) / 1000) + 5);
      assert.equal(await limitP1D(), "150.000000");
      const quote = await serviceQuote(c, beneficiaryId);
      const over = await acceptQuote(c, quote.quoteId, await disclosureToken(c, quote.quoteId));
      assertError(over, 422, "customer.limitExceeded");
      const details = over.body.error?.details ?? over.body.details;
      assert.deepEqual([details.window, details.limit], ["P1D", "150.000000"]);

      // The page: the limit in force and the change in the diff.
      await maker.goto(consoleUrl(`/configuration?from=${before}&to=${version}`));
      assert.match((await maker.getByTestId("tier-limits-1").textContent()) ?? "", /^1\s*150\s*10000\s*18000$/);
      assert.match((await maker.getByTestId("diff-tierLimits.1.P1D").textContent()) ?? "", /tierLimits\.1\.P1D\s*2999\s*150/);
      assert.equal(await maker.getByTestId("diff").locator("tbody tr").count(), 1, "only the limit changed");
      await screenshot(maker, "console-configuration-tier-limits");

      // The shipped limit back, the same way.
      const restore = await proposeLimits({ "Tier 1 P1D": "2999" }, "Back to the shipped limit", localUtc(await serverNow(), 1));
      await restore.getByRole("status").waitFor();
      await approveProposal(checker, proposalIn((await restore.getByRole("status").textContent()) ?? ""), "Restoring");
      await advanceClock(61);
      assert.equal(await limitP1D(), "2999.000000");
      for (const p of [maker, checker]) await p.context().close();
    },
  );

  test(
    "funding terms proposed on their form: an account's problem at its line; approved, the window and the account are in force",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const maker = await signedInPage(e2e.browser, ADMIN);
      const checker = await signedInPage(e2e.browser, await createOperatorInConsole(maker, "admin", "Fay Funding"));
      /** On the Configuration page, the maker proposes funding terms; the form. */
      const proposeFunding = async (fields: Record<string, string>, note: string) => {
        await maker.goto(consoleUrl("/configuration"));
        const form = maker.getByTestId("funding-form");
        for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
        await form.getByLabel("Effective from (UTC)").fill(localUtc(await serverNow(), 1));
        await form.getByLabel("Why").fill(note);
        await form.getByRole("button", { name: "Propose new funding terms" }).click();
        return form;
      };
      const ACCOUNTS = "Collection accounts, one per line: IBAN; BIC; currencies; time zone; name (empty: the setting)";
      const DAYS = "Bank transfer window, business days (empty: the setting)";

      await maker.goto(consoleUrl("/configuration"));
      assert.match((await maker.getByTestId("funding-window-bank-transfer").textContent()) ?? "", /2 business days.*\(setting\)/);

      // A wrong check digit is refused at its line; what was typed stays.
      const bad = "GB00BUKB20201555555555; BUKBGB22; USD; Europe/London; Remit Ltd";
      const refused = await proposeFunding({ [ACCOUNTS]: bad, [DAYS]: "3" }, "Collect dollars in London");
      await refused.getByTestId("field-error").filter({ hasText: "line 1.iban: expected an IBAN" }).waitFor();
      assert.equal(await refused.getByLabel(ACCOUNTS).inputValue(), bad);

      const form = await proposeFunding(
        { [ACCOUNTS]: "GB33BUKB20201555555555; BUKBGB22; USD; Europe/London; Remit Ltd", [DAYS]: "3" },
        "Collect dollars in London",
      );
      await form.getByRole("status").waitFor();
      const proposalId = proposalIn((await form.getByRole("status").textContent()) ?? "");
      await checker.goto(consoleUrl(`/approvals/${proposalId}`));
      await checker.getByTestId("change-funding.windows.BANK_TRANSFER.businessDays").waitFor();
      await approveProposal(checker, proposalId, "Agreed");
      await advanceClock(61);
      await maker.goto(consoleUrl("/configuration"));
      assert.match((await maker.getByTestId("funding-window-bank-transfer").textContent()) ?? "", /^Bank transfer: 3 business days/);
      assert.match((await maker.getByTestId("collection-account-GB33BUKB20201555555555").textContent()) ?? "", /Collects USD into GB33BUKB20201555555555/);
      await screenshot(maker, "console-configuration-funding");

      // The settings back: the fields emptied.
      const restore = await proposeFunding({ [ACCOUNTS]: "", [DAYS]: "" }, "Back to the settings");
      await restore.getByRole("status").waitFor();
      await approveProposal(checker, proposalIn((await restore.getByRole("status").textContent()) ?? ""), "Restoring");
      await advanceClock(61);
      await maker.goto(consoleUrl("/configuration"));
      assert.match((await maker.getByTestId("funding-window-bank-transfer").textContent()) ?? "", /2 business days.*\(setting\)/);
      for (const p of [maker, checker]) await p.context().close();
    },
  );

  test("calendar changes and payout banks: each form refuses a problem at its field, keeping what was typed", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const maker = await signedInPage(e2e.browser, ADMIN);
    await maker.goto(consoleUrl("/configuration"));
    assert.match((await maker.getByTestId("payout-banks-in-force").textContent()) ?? "", /sandbox: Sandbox Payout Bank/);

    const calendars = maker.getByTestId("calendars-form");
    await calendars.locator("textarea").fill("MX closed 2027-02-30");
    await calendars.getByLabel("Why").fill("Bank strike");
    await calendars.getByRole("button", { name: "Propose calendar changes" }).click();
    await calendars.getByTestId("field-error").filter({ hasText: "calendars.MX.closed.0: not a day of the calendar" }).waitFor();
    assert.equal(await calendars.locator("textarea").inputValue(), "MX closed 2027-02-30");

    const banks = maker.getByTestId("payout-banks-form");
    const typed = JSON.stringify([
      {
        id: "bbva-mx",
        name: "BBVA Mexico",
        bic: "BCMRMXMMXXX",
        debtorAccount: { scheme: "CLABE", id: "002010077777777772" },
        debtorName: "Remit Ltd",
        currencies: ["MXN"],
      },
    ]);
    await banks.locator("textarea").fill(typed);
    await banks.getByLabel("Why").fill("Pay Mexico from BBVA");
    await banks.getByRole("button", { name: "Propose payout banks" }).click();
    await banks.getByTestId("field-error").filter({ hasText: "payoutBanks.0.debtorAccount.id: not a valid CLABE" }).waitFor();
    assert.equal(await banks.locator("textarea").inputValue(), typed);
    await maker.context().close();
  });
});
