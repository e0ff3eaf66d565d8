import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { screenshot } from "./support/browser";
import { ADMIN, CONSOLE_TEST_TIMEOUT, consoleUrl, notice, signedInPage } from "./support/console";
import { fundedScenario } from "../test/integration/transfers/support";
import { advanceTo } from "../test/integration/support";
import { advanceClock, serverNow } from "../test/integration/support/clock";
import { camt053 } from "../test/support/camt053";
import { setupE2eFile } from "./support/setup";

// The accountant reads the trial balance and the P&L of last month, closes the month,
// exports its general ledger, and sees the daily bank reconciliation with one open difference
// (a statement whose closing balance is not what the ledger holds).

const e2e = setupE2eFile();

describe("console: month end", () => {
  test(
    "trial balance and P&L of last month, close it, export its general ledger, one open reconciliation difference",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await fundedScenario();
      await advanceTo(s.c, s.transferId, "topay", "reqpay", "paid");
      const page = await signedInPage(e2e.browser, ADMIN);

      // Our collection account's statement: one unmatched 25.00 EUR credit, a closing balance of 1000.00.
      const bankRef = `E2E-ME-${randomUUID().slice(0, 8).toUpperCase()}`;
      const dir = mkdtempSync(path.join(tmpdir(), "camt-"));
      const file = path.join(dir, "statement.xml");
      writeFileSync(
        file,
        camt053([{ bankReference: bankRef, amount: "25.00", currency: "EUR" }], { messageId: bankRef, closingBalance: "1000.00", balanceDate: "2026-11-20" }),
      );
      await page.goto(consoleUrl("/bank-credits"));
      await page.locator("input[type=file][name=statement]").setInputFiles(file);
      await page.getByRole("button", { name: "Import" }).click();
      await page.waitForURL((url) => url.pathname === "/console/bank-credits" && url.searchParams.has("notice"));

      // The month is over: the clock moves to the first hour of the next month.
      const now = await serverNow();
      const month = now.toISOString().slice(0, 7);
      const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1);
      await advanceClock(Math.ceil((nextMonth - now.getTime()) / 1000));

      await page.goto(consoleUrl("/ledger"));
      const table = page.getByTestId("trial-balance");
      await table.waitFor();
      const totals = await table
        .locator("tr[data-testid^=trial-total-]")
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
      for (const [, currency, debits, credits] of totals) assert.equal(debits, credits, `${currency} debit balances = credit balances`);
      assert.ok(await table.getByTestId("trial-subtotal-USD-cash").isVisible(), "a subtotal per family");
      await screenshot(page, "console-books-trial-balance");

      await page.getByRole("link", { name: "Month end (profit and loss, close)" }).click();
      await page.waitForURL(consoleUrl("/ledger/month"));
      assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), `Month end ${month}`, "last month by default");
      const fee = page.getByTestId("pnl-fee-revenue-USD");
      await fee.waitFor();
      assert.match((await fee.locator("td").last().textContent()) ?? "", /^[1-9]\d*\.\d{2}$/);
      assert.match((await page.getByTestId("pnl-fx-USD-MXN").textContent()) ?? "", /FX result USD → MXN/);
      await screenshot(page, "console-books-profit-and-loss");

      await page.getByLabel("Reason").fill("Month reviewed and reconciled");
      await page.getByRole("button", { name: `Close ${month}` }).click();
      await page.waitForURL((url) => url.pathname === "/console/ledger/month" && url.searchParams.has("notice"));
      assert.equal(await notice(page).textContent(), `${month} is now CLOSED.`);
      assert.match((await page.getByTestId("period-state").textContent()) ?? "", /^CLOSED since/);

      const csv = await page.request.get(consoleUrl(`/ledger/export?period=${month}`));
      assert.equal(csv.status(), 200);
      const lines = (await csv.text()).trim().split("\r\n");
      assert.equal(lines[0], "JournalNumber,Date,AccountCode,Debit,Credit,Currency,Description,BankReference,Transfer,Customer,Partner,Kind,PostedAt");
      assert.ok(
        lines.some((l) => l.includes(s.transferId) && /,revenue:fees,,\d+\.\d{2},USD,/.test(l)),
        "the transfer's fee line",
      );
      assert.ok(
        lines.some((l) => /,cash:collection,25\.00,,EUR,/.test(l) && l.includes(bankRef)),
        "the statement credit with its bank reference",
      );
      const bad = await page.request.get(consoleUrl("/ledger/export?period=2026-13"));
      assert.equal(bad.status(), 400);

      await page.goto(consoleUrl("/ledger/reconciliation"));
      assert.equal(await page.getByTestId("open-differences").textContent(), "1 open difference");
      const open = page.getByTestId("reconciliation").locator("tr[data-status=DIFFERENCE]");
      assert.equal(await open.count(), 1);
      const cells = await open.locator("td").allTextContents();
      const [statement, ledger, difference] = cells.slice(3, 6);
      const cents = (v: string) => BigInt(v.replace(".", ""));
      assert.equal(statement, "1000.00");
      assert.ok(cents(ledger) >= 2500n, `the ledger holds the 25.00 credit: ${ledger}`);
      assert.equal(cents(difference), cents(statement) - cents(ledger), "statement − ledger");
      await screenshot(page, "console-books-reconciliation");
      await page.context().close();
    },
  );
});
