import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { screenshot } from "./support/browser";
import { ADMIN, approveProposal, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, proposalIn, signedInPage } from "./support/console";
import { acceptTransfer, advanceClock, onboardedCustomer, serverNow, serviceQuote, useServicePricing, validBeneficiaryId } from "../test/integration/support";
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
});
