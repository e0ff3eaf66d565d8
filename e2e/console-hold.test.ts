import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { screenshot } from "./support/browser";
import { ADMIN, cardFor, CONSOLE_TEST_TIMEOUT, consoleUrl, decide, notice, signedInPage } from "./support/console";
import { fundedScenario } from "../test/integration/transfers/support";
import { readTransfer, states } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// Issue 6 (c): an operator puts a funded transfer on compliance hold from the customer's page,
// then resolves the hold with REJECT in the holds queue; the customer sees the transfer rejected.
// Issue 20 item 11: the queue and the transfer page say who held it, when and why.

const e2e = setupE2eFile();

describe("console: compliance holds", () => {
  test(
    "hold a funded transfer from the customer page, reject it in the holds queue: the customer sees rejected",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await fundedScenario();
      assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funded");
      const page = await signedInPage(e2e.browser, ADMIN);

      // Find the customer by subscriptionId and open their page.
      await page.goto(consoleUrl("/customers"));
      await page.getByLabel("Search customers").fill(s.c.subscriptionId);
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("link", { name: s.c.subscriptionId, exact: true }).click();
      await page.waitForURL(consoleUrl(`/customers/${s.c.subscriptionId}`));
      const row = page.locator("main tr").filter({ has: page.getByText(s.transferId, { exact: true }) });
      assert.equal(await row.locator("td").nth(1).textContent(), "funded");
      await screenshot(page, "console-hold-customer");

      // Hold it.
      await row.getByLabel(`Hold reason for ${s.transferId}`).fill("Sanctions alert on the beneficiary's bank");
      await row.getByRole("button", { name: "Hold" }).click();
      await page.waitForURL((url) => url.pathname === `/console/customers/${s.c.subscriptionId}` && url.searchParams.has("notice"));
      assert.equal(await notice(page).textContent(), `Transfer ${s.transferId} is on hold (was funded).`);
      assert.equal(await row.locator("td").nth(1).textContent(), "spended");
      assert.equal(await row.getByRole("button", { name: "Hold" }).count(), 0, "a held transfer offers no second hold");
      const held = await readTransfer(s.c, s.transferId);
      assert.equal(held.body.transferStatus, "spended", held.text);

      // The holds queue: the card says what the transfer was before the hold; reject it.
      await page.goto(consoleUrl("/holds"));
      const card = cardFor(page, s.transferId);
      await card.waitFor();
      assert.match((await card.textContent()) ?? "", /State before hold: funded/);
      // Who held it, when and why (issue 20 item 11), in the queue and on the transfer page.
      const heldBy = new RegExp(
        `^Held: by ${ADMIN.email.replace(/\./g, "\\.")} on \\d{1,2} \\w{3,4} \\d{4}, [\\d:]{8} UTC: Sanctions alert on the beneficiary's bank$`,
      );
      assert.match((await card.getByTestId("hold-info").textContent()) ?? "", heldBy);
      await screenshot(page, "console-hold-queue");
      await card.getByRole("link", { name: s.transferId }).click();
      await page.waitForURL(consoleUrl(`/transfers/${s.transferId}`));
      assert.match((await page.getByTestId("hold-info").textContent()) ?? "", new RegExp(heldBy.source.replace("^Held: by", "^Held by")));
      assert.match((await page.getByTestId("operator-actions").textContent()) ?? "", /transfer\.hold · Sanctions alert on the beneficiary's bank/);
      await page.goto(consoleUrl("/holds"));
      await card.waitFor();
      await decide(page, card, "Reject", "Confirmed sanctions match", "/holds");
      assert.equal(await notice(page).textContent(), `Transfer ${s.transferId} is now rejected.`);
      assert.equal(await cardFor(page, s.transferId).count(), 0, "the resolved hold left the queue");
      await screenshot(page, "console-hold-rejected");

      // The customer's view.
      const t = await readTransfer(s.c, s.transferId);
      assert.equal(t.status, 200, t.text);
      assert.equal(t.body.transferStatus, "rejected", t.text);
      assert.deepEqual(states(t.body).slice(-3), ["funded", "spended", "rejected"]);
      assert.equal(t.body.stateHistory.at(-1).reasonCode, "TRF_COMPLIANCE_REJECTED");

      // Both actions are in the audit log with their reasons.
      await page.goto(consoleUrl(`/audit?q=${s.transferId}`));
      const actions = await page
        .getByTestId("audit-table")
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => [r.children[2].textContent, r.children[5].textContent]));
      assert.deepEqual(actions, [
        ["transfer.hold.reject", "Confirmed sanctions match"],
        ["transfer.hold", "Sanctions alert on the beneficiary's bank"],
      ]);
      await page.context().close();
    },
  );
});
