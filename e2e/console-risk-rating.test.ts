import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { screenshot } from "./support/browser";
import {
  ADMIN,
  approveProposal,
  cardFor,
  CONSOLE_TEST_TIMEOUT,
  consoleUrl,
  createOperatorInConsole,
  notice,
  proposalIn,
  signedInPage,
} from "./support/console";
import { onreviewTransfer } from "./support/journey";
import { onboardedCustomer, validBeneficiaryId } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// A transfer the review rules hold opens its customer's case, and the rating job rates the
// customer MEDIUM for it. An analyst sees the rating with its reasons on the case page and the
// customer's page, and proposes an override with a reason; nothing changes until a second analyst
// approves it on the Approvals page; then the override stands, naming both.

const e2e = setupE2eFile();

/** The case page reloaded until the rating job has rated the customer with `reason` (it runs after the case opened). */
async function ratingWith(page: Page, text: RegExp): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const shown = (await page.getByTestId("risk-rating").textContent()) ?? "";
    if (text.test(shown)) return shown;
    await new Promise((resolve) => setTimeout(resolve, 250));
    await page.reload();
  }
  return (await page.getByTestId("risk-rating").textContent()) ?? "";
}

describe("console: customer risk rating", () => {
  test(
    "an analyst sees a customer's rating with its reasons and proposes an override that a second analyst approves",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const c = await onboardedCustomer();
      const s = await onreviewTransfer({ c, beneficiaryId: await validBeneficiaryId(c) });
      const admin = await signedInPage(e2e.browser, ADMIN);
      const analystCredentials = await createOperatorInConsole(admin, "reviewer", "Ana Analyst");
      const secondCredentials = await createOperatorInConsole(admin, "reviewer", "Sam Second");
      await admin.context().close();

      // The analyst goes from the review queue to the customer's case: the rating and why.
      const analyst = await signedInPage(e2e.browser, analystCredentials);
      await analyst.goto(consoleUrl("/review"));
      const card = cardFor(analyst, s.transferId);
      await card.waitFor();
      const caseLink = card.getByTestId("transfer-case").getByRole("link");
      const caseId = (await caseLink.textContent())!;
      await caseLink.click();
      await analyst.waitForURL((url) => url.pathname === `/console/cases/${caseId}`);
      const shown = await ratingWith(analyst, /Rating MEDIUM/);
      assert.match(shown, /Rating MEDIUM · computed MEDIUM from 30 points/);
      const reasons = (await analyst.getByTestId("risk-rating-reasons").textContent())!;
      assert.match(reasons, new RegExp(`A compliance case not yet closed: case ${caseId} \\(25 points\\)`));
      assert.match(reasons, /Tier 1: no source-of-funds evidence \(ENHANCED KYC\) on file: tier 1 \(5 points\)/);
      await screenshot(analyst, "console-risk-rating-case");

      // The override is proposed with a reason: nothing changes yet.
      await analyst.getByLabel("Override rating").selectOption("LOW");
      await analyst.getByLabel("Override reason").fill("Payslips on file explain the amount; case to be closed.");
      const before = analyst.url();
      await analyst.getByRole("button", { name: "Propose override" }).click();
      await analyst.waitForURL((url) => url.href !== before && url.searchParams.has("notice"));
      const proposalId = proposalIn(await notice(analyst).textContent());
      assert.match((await analyst.getByTestId("risk-rating").textContent())!, /Rating MEDIUM/, "a proposal changes nothing");

      // A second analyst approves it: the override stands, naming both.
      const second = await signedInPage(e2e.browser, secondCredentials);
      assert.match(await approveProposal(second, proposalId, "Agreed: evidence on file"), /Risk rating overridden: LOW \(computed MEDIUM\)/);
      await second.context().close();

      // On the customer's page (from the case's customer link), as on the case.
      await analyst.goto(consoleUrl(`/cases/${caseId}`));
      await analyst.getByTestId("customer-label").getByRole("link").click();
      await analyst.waitForURL((url) => url.pathname.startsWith("/console/customers/"));
      assert.match((await analyst.getByTestId("risk-rating").textContent())!, /Rating LOW · computed MEDIUM/);
      assert.match(
        (await analyst.getByTestId("risk-rating-override").textContent())!,
        new RegExp(`Overridden to LOW by ${analystCredentials.email}, approved by ${secondCredentials.email}.*Payslips on file explain the amount`),
      );
      await screenshot(analyst, "console-risk-rating-overridden");
      await analyst.context().close();
    },
  );
});
