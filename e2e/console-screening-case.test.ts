import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { screenshot } from "./support/browser";
import { ADMIN, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, decide, notice, signedInPage, type OperatorCredentials } from "./support/console";
import {
  acceptTransfer,
  assertError,
  awaitFastCheck,
  call,
  mexBeneficiary,
  onboardedCustomer,
  readBeneficiary,
  readTransfer,
  reasons,
  screenedBeneficiary,
  submit,
  submitBody,
  type Customer,
} from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// A close match stops the money until a human clears it. A beneficiary one letter
// off a (sandbox) watch-list name is MONITORED with an open case; its transfer goes onreview. A
// reviewer clears one case as a false positive (the next transfer validates) and confirms another
// as a true match (the beneficiary is BLOCKED, its transfer rejected, the blocking report due);
// the customers' console records carry the flags; every decision is in the audit log.

const e2e = setupE2eFile();

let reviewer: OperatorCredentials | undefined;

/** A reviewer created once through the console by the admin (reviewers decide cases). */
async function reviewerPage(): Promise<Page> {
  if (!reviewer) {
    const admin = await signedInPage(e2e.browser, ADMIN);
    reviewer = await createOperatorInConsole(admin, "reviewer", "Casey Reviewer");
    await admin.context().close();
  }
  return signedInPage(e2e.browser, reviewer);
}

/** A transfer to the beneficiary, submitted; the fast-check's answer. */
async function submitted(c: Customer, beneficiaryId: string) {
  const { transferId } = await acceptTransfer(c, beneficiaryId);
  const res = await submit(c, transferId, submitBody(beneficiaryId));
  assert.equal(res.status, 202, res.text);
  return awaitFastCheck(c, transferId);
}

/** A close-match beneficiary with an open case, and its first transfer sent to onreview. */
async function casedBeneficiary(firstName: string, lastName: string) {
  const c = await onboardedCustomer();
  const b = await screenedBeneficiary(c, mexBeneficiary({ firstName, lastName }));
  assert.equal(b.state, "MONITORED", "a close match is MONITORED");
  const first = await submitted(c, b.beneficiaryId);
  assert.equal(first.transferStatus, "onreview", JSON.stringify(first));
  assert.deepEqual(reasons(first).slice(-1), ["TRF_CHECK_REVIEW"]);
  return { c, beneficiaryId: b.beneficiaryId as string, first };
}

/** The open case card of a beneficiary in the queue. */
function caseCard(page: Page, beneficiaryId: string): Locator {
  return page.locator("main section").filter({ hasText: beneficiaryId });
}

/** The flags on the customer's console record (an admin page). */
async function flagsText(page: Page, subscriptionId: string): Promise<string> {
  await page.goto(consoleUrl(`/customers/${subscriptionId}`));
  const flags = page.getByTestId("customer-flags");
  await flags.waitFor();
  return (await flags.textContent()) ?? "";
}

describe("console: screening cases", () => {
  test("a reviewer clears a close match as a false positive: the next transfer validates", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const s = await casedBeneficiary("Olga", "Watchlistowa");
    const page = await reviewerPage();
    const count = page.getByTestId("count-screening-cases");
    assert.ok(Number(await count.textContent()) >= 1, "the Overview counts the open case");

    // The Overview tile leads to the queue (the header has no room for another link at 1280 px).
    await count.click();
    await page.waitForURL(consoleUrl("/screening-cases"));
    const card = caseCard(page, s.beneficiaryId);
    await card.waitFor();
    const text = (await card.textContent()) ?? "";
    for (const part of ["Olga Watchlistowa", "OPEN", "sandbox-watchlist", "Olga Watchlistova", "CLOSE_MATCH", s.first.transferId]) {
      assert.ok(text.includes(part), `the case shows ${part}: ${text}`);
    }
    await screenshot(page, "console-screening-case-open");
    await decide(page, card, "False positive", "Different person: born 1990 in Puebla", "/screening-cases");
    assert.match((await notice(page).textContent()) ?? "", /^Case case_[a-z0-9]+ cleared as a false positive/);
    assert.equal(await caseCard(page, s.beneficiaryId).count(), 0, "a decided case leaves the open queue");

    // The next transfer to the beneficiary validates; the one in review waits for a reviewer.
    const next = await submitted(s.c, s.beneficiaryId);
    assert.equal(next.transferStatus, "validated", JSON.stringify(next));
    assert.equal((await readTransfer(s.c, s.first.transferId)).body.transferStatus, "onreview");
    await page.goto(consoleUrl("/review"));
    const inReview = page.locator("main section").filter({ hasText: s.first.transferId });
    await inReview.waitFor();
    assert.match((await inReview.textContent()) ?? "", /screening case cleared as a false positive/);
    assert.equal((await readBeneficiary(s.c, s.beneficiaryId)).body.state, "MONITORED");
    await page.context().close();

    // The admin sees the flag (paid while cased) and the decision in the audit log, with who and why.
    const admin = await signedInPage(e2e.browser, ADMIN);
    assert.match(await flagsText(admin, s.c.subscriptionId), /Paid a beneficiary under a screening case: Olga Watchlistowa/);
    await admin.goto(consoleUrl(`/audit?q=${s.beneficiaryId}`));
    const rows = await admin
      .getByTestId("audit-table")
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((r) => Array.from(r.children, (td) => td.textContent)));
    assert.deepEqual(
      rows.map((r) => [r[1], r[2], r[5]]),
      [[reviewer!.email, "screeningCase.falsePositive", "Different person: born 1990 in Puebla"]],
    );
    assert.match(rows[0][4] ?? "", /"list":"sandbox-watchlist","entryId":"2","listVersionId":"v1"/);
    await admin.context().close();
  });

  test(
    "a reviewer confirms a true match: the beneficiary is BLOCKED, its transfer rejected, the blocking report due; the customer is flagged",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await casedBeneficiary("Viktor", "Sanctionof");
      const page = await reviewerPage();
      await page.goto(consoleUrl("/screening-cases"));
      const card = caseCard(page, s.beneficiaryId);
      await card.waitFor();
      await decide(page, card, "True match", "Same date of birth and passport number", "/screening-cases");
      const said = (await notice(page).textContent()) ?? "";
      assert.match(said, /the beneficiary is BLOCKED, 1 transfer\(s\) rejected; blocking report due \d{4}-\d{2}-\d{2}\.$/);

      const b = await readBeneficiary(s.c, s.beneficiaryId);
      assert.equal(b.body.state, "BLOCKED", b.text);
      const t = (await readTransfer(s.c, s.first.transferId)).body;
      assert.equal(t.transferStatus, "rejected");
      assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_COMPLIANCE_REJECTED");

      // The decided case shows the blocking report's due date.
      await page.goto(consoleUrl("/screening-cases?view=decided"));
      const decided = caseCard(page, s.beneficiaryId);
      await decided.waitFor();
      assert.match((await decided.getByTestId("case-decision").textContent()) ?? "", /true match by .* Blocking report due \d{4}-\d{2}-\d{2}/);
      await screenshot(page, "console-screening-case-true-match");
      await page.context().close();

      // Paying the BLOCKED beneficiary is refused exactly as before, and flags the customer.
      const quote = await call("POST", "/v1/core/quotes", {
        token: s.c.token,
        body: { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId: s.beneficiaryId },
      });
      assertError(quote, 403, "beneficiary.stateBlocking");
      const admin = await signedInPage(e2e.browser, ADMIN);
      const flags = await flagsText(admin, s.c.subscriptionId);
      assert.match(flags, /Tried to pay a BLOCKED beneficiary: Viktor Sanctionof/);
      assert.match(flags, /confirmed as a listed person/);
      await admin.context().close();
    },
  );
});
