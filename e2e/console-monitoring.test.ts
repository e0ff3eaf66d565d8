import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { screenshot } from "./support/browser";
import { ADMIN, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, flashError, notice, signedInPage } from "./support/console";
import { setupE2eFile } from "./support/setup";
import { advanceClock, newCustomer } from "../test/integration/support";

// An admin drafts a rule set version from the live one, backtests
// and proposes it; their own attempt to activate it is refused (four eyes); a second admin
// activates it, and the version live until then is retired. A rule snoozed for one customer is
// listed until its expiry at the server's clock (moved by the sandbox clock, not the machine's).

const e2e = setupE2eFile();

const ruleSetCard = (page: Page, version: number) => page.locator("main section").filter({ has: page.getByTestId(`rule-set-${version}`) });

/** Presses a rule set's button and waits for the page it returns to (a new notice or error in the URL). */
async function press(page: Page, version: number, button: string): Promise<void> {
  const before = page.url();
  await ruleSetCard(page, version).getByRole("button", { name: button, exact: true }).click();
  await page.waitForURL(
    (url) => url.href !== before && url.pathname === "/console/monitoring" && (url.searchParams.has("notice") || url.searchParams.has("error")),
  );
}

test("a second operator activates a rule set the first one drafted; the author's own attempt is refused", { timeout: CONSOLE_TEST_TIMEOUT * 2 }, async () => {
  const admin = await signedInPage(e2e.browser, ADMIN);
  const authorCredentials = await createOperatorInConsole(admin, "admin", "Rule Author");
  const author = await signedInPage(e2e.browser, authorCredentials);

  await author.goto(consoleUrl("/monitoring"));
  await author.getByLabel("Note", { exact: true }).first().fill("Same rules, reviewed for the quarterly check");
  await author.getByRole("button", { name: "Save as draft" }).click();
  await author.waitForURL((url) => url.searchParams.has("notice"));
  const saved = (await notice(author).textContent()) ?? "";
  const version = Number(/Draft version (\d+) saved/.exec(saved)?.[1]);
  assert.ok(version > 1, saved);
  const live = Number(
    (await author.locator("[data-testid^=rule-set-]").filter({ hasText: "active" }).first().getAttribute("data-testid"))?.replace("rule-set-", ""),
  );

  await press(author, version, "Backtest (30 days)");
  assert.match((await notice(author).textContent()) ?? "", new RegExp(`Backtest of version ${version}: \\d+ of \\d+ transfers would be held`));
  await ruleSetCard(author, version).getByTestId("backtest").waitFor();
  await press(author, version, "Propose");
  assert.match((await notice(author).textContent()) ?? "", /proposed: another operator may activate it/);

  await press(author, version, "Activate");
  assert.match((await flashError(author).textContent()) ?? "", new RegExp(`You drafted rule set version ${version}: another operator must activate it`));
  await ruleSetCard(author, version).getByText("proposed", { exact: true }).waitFor();
  await screenshot(author, "console-monitoring-author-refused");

  await admin.goto(consoleUrl("/monitoring"));
  await press(admin, version, "Activate");
  assert.match((await notice(admin).textContent()) ?? "", new RegExp(`Version ${version} is live; version ${live} retired`));
  await ruleSetCard(admin, version).getByText("active", { exact: true }).waitFor();
  await ruleSetCard(admin, live).getByText("retired", { exact: true }).waitFor();
  assert.match((await ruleSetCard(admin, version).textContent()) ?? "", new RegExp(`activated by ${ADMIN.email}`));
  await screenshot(admin, "console-monitoring-activated");
  await author.context().close();
  await admin.context().close();
});

test("a snooze is listed until it expires at the server's clock", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
  const c = await newCustomer();
  const admin = await signedInPage(e2e.browser, ADMIN);
  await admin.goto(consoleUrl(`/customers/${c.subscriptionId}`));
  const customerId = /cus_[a-z0-9]{24}/.exec((await admin.locator("main").textContent()) ?? "")?.[0];
  assert.ok(customerId, "the customer page names the customer's id");

  await admin.goto(consoleUrl("/monitoring"));
  await admin.getByLabel("Customer", { exact: true }).fill(customerId);
  await admin.getByLabel("Rule", { exact: true }).selectOption("structuring");
  await admin.getByLabel("Days", { exact: true }).fill("1");
  await admin.getByLabel("Reason", { exact: true }).fill("Rent paid in two halves, documented");
  await admin.getByRole("button", { name: "Snooze", exact: true }).click();
  await admin.waitForURL((url) => url.searchParams.has("notice"));
  assert.match((await notice(admin).textContent()) ?? "", new RegExp(`Rule structuring snoozed for ${customerId}`));
  assert.match((await admin.getByTestId("snoozes").textContent()) ?? "", new RegExp(`${customerId} · structuring until`));

  // A day and a minute later at the server's clock (the machine's has not moved): expired, not listed.
  await advanceClock(24 * 3600 + 60);
  await admin.context().close();
  const later = await signedInPage(e2e.browser, ADMIN);
  await later.goto(consoleUrl("/monitoring"));
  assert.doesNotMatch((await later.getByTestId("snoozes").textContent()) ?? "", new RegExp(customerId));
  await later.context().close();
});
