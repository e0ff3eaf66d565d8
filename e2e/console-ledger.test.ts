import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { screenshot } from "./support/browser";
import { ADMIN, CONSOLE_TEST_TIMEOUT, consoleUrl, signedInPage } from "./support/console";
import { fundedScenario } from "../test/integration/transfers/support";
import { advanceTo } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// After a paid journey the ledger page's trial balance sums to zero in every
// currency; the transfer's page shows its state history and its journal entries; accountants get
// the journal lines as CSV.

const e2e = setupE2eFile();

describe("console: ledger", () => {
  test(
    "a paid transfer's books: the trial balance sums to zero per currency, the transfer page shows its entries, the CSV has its lines",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await fundedScenario();
      await advanceTo(s.c, s.transferId, "topay", "reqpay", "paid");
      const page = await signedInPage(e2e.browser, ADMIN);

      const nav = page.getByRole("navigation", { name: "Console" });
      await nav.getByRole("button", { name: "Books" }).click();
      await nav.getByRole("link", { name: "Ledger", exact: true }).click();
      await page.waitForURL(consoleUrl("/ledger"));
      const table = page.getByTestId("trial-balance");
      await table.waitFor();
      // Every account with its balance, and per currency total debit balances = total credit balances.
      const totals = await table
        .locator("tr[data-testid^=trial-total-]")
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
      const currencies = totals.map((r) => r[1]);
      // A USD → MXN transfer: both currencies are on the books, each balanced on its own.
      for (const c of ["USD", "MXN"]) assert.ok(currencies.includes(c), `${c} in ${currencies.join(",")}`);
      for (const [, currency, debits, credits] of totals) {
        assert.equal(debits, credits, currency);
        assert.notEqual(debits.replace(/[0.]/g, ""), "", `${currency} has balances`);
      }
      const accounts = await table.getByTestId("trial-row").locator("td:first-child").allTextContents();
      for (const a of ["cash:card-clearing", "revenue:fees", "fx:conversion", "cash:payout-bank"])
        assert.ok(accounts.includes(a), `${a} in ${accounts.join(",")}`);
      await screenshot(page, "console-ledger-trial-balance");

      // Filtered to the transfer: its three accounts, all back to zero once paid.
      await page.getByLabel("Transfer").fill(s.transferId);
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/transferId=/);
      const balances = await page
        .getByTestId("account-balances")
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
      assert.deepEqual(balances.map((r) => r[0]).sort(), ["transfer:customer-funds", "transfer:payout-in-flight"]);
      for (const r of balances) assert.match(r[5], /^0\.00$/, `${r[0]} balance`);

      // The transfer's page: its history and its three entries.
      await page.getByRole("link", { name: s.transferId }).first().click();
      await page.waitForURL(consoleUrl(`/transfers/${s.transferId}`));
      const history = (await page.getByTestId("state-history").locator("li").allTextContents()).map((t) => t.split(" · ")[0]);
      assert.deepEqual(history, ["registered", "validated", "funding", "funded", "topay", "reqpay", "paid"]);
      const kinds = await page.getByTestId("journal-entry").locator("p span.rounded").allTextContents();
      assert.deepEqual(kinds, ["funding.received", "payout.sent", "payout.confirmed"]);
      await screenshot(page, "console-transfer-entries");

      // The accountants' export: the transfer's lines with decimal amounts.
      const csv = await page.request.get(consoleUrl("/ledger/export"));
      assert.equal(csv.status(), 200);
      assert.match(csv.headers()["content-type"], /^text\/csv/);
      const lines = (await csv.text()).trim().split("\r\n");
      assert.equal(lines[0], "JournalNumber,Date,AccountCode,Debit,Credit,Currency,Description,BankReference,Transfer,Customer,Partner,Kind,PostedAt");
      const mine = lines.filter((l) => l.includes(s.transferId));
      assert.ok(
        mine.some((l) => /^je_[^,]+,\d{4}-\d{2}-\d{2},transfer:customer-funds,,\d+\.\d{2},USD,.*,funding\.received,/.test(l)),
        mine.join("\n"),
      );
      assert.ok(
        mine.some((l) => /,transfer:payout-in-flight,\d+\.\d{2},,MXN,.*,payout\.confirmed,/.test(l)),
        mine.join("\n"),
      );
      await page.context().close();
    },
  );
});
