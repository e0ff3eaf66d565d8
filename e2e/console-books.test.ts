import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
  flashError,
  notice,
  proposalIn,
  signedInPage,
} from "./support/console";
import { fundedScenario, fundingScenario } from "../test/integration/transfers/support";
import { advanceTo, call, CLABES, readTransfer } from "../test/integration/support";
import { serverNow } from "../test/integration/support/clock";
import { pain002 } from "../test/support/iso20022";
import { camt053 } from "../test/support/camt053";
import { setupE2eFile } from "./support/setup";

// Console and books: closing the running month is refused with why and
// stays on that month; the P&L has a net result; exports are named for their period; a day's
// later statement is reconciled and each one shown; an over-payment's return proposal names the
// excess; a payout paid on its resend no longer reads "rejected", and its attempts are listed.

const e2e = setupE2eFile();

/** Uploads a camt.053 file on the Bank credits page and waits for the import's notice. */
async function uploadStatement(page: Page, xml: string): Promise<void> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "camt-")), "statement.xml");
  writeFileSync(file, xml);
  await page.goto(consoleUrl("/bank-credits"));
  await page.locator("input[type=file][name=statement]").setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();
  await page.waitForURL((url) => url.pathname === "/console/bank-credits" && url.searchParams.has("notice"));
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? "").replace(/\u00a0/g, " ");
const cents = (v: string) => BigInt(v.replace(/[,.]/g, ""));

describe("console: books (issue 36)", () => {
  test(
    "closing the running month is refused with why, on that month; the P&L's net result; the export is named for its month",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await fundedScenario();
      await advanceTo(s.c, s.transferId, "topay", "reqpay", "paid");
      const now = await serverNow();
      const month = now.toISOString().slice(0, 7);
      const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
      const page = await signedInPage(e2e.browser, ADMIN);
      await page.goto(consoleUrl(`/ledger/month?period=${month}`));
      assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), `Month end ${month}`);

      // The net result: the sum of the month's USD lines (fee revenue, FX result, expenses shown negative).
      const net = page.getByTestId("pnl-net-result-USD");
      await net.waitFor();
      assert.match((await net.locator("td").first().textContent()) ?? "", /^Net result/);
      const lines = await page
        .getByTestId("profit-and-loss")
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
      const usd = lines.filter((l) => l[1] === "USD").map((l) => l[2]);
      assert.ok(usd.length >= 2, `fee revenue and FX result in USD: ${JSON.stringify(lines)}`);
      const shown = (await net.locator("td").last().textContent()) ?? "";
      if (usd.some((v) => !/^-?\d+\.\d{2}$/.test(v))) assert.equal(shown, "unknown: no reference rate");
      else
        assert.equal(
          cents(shown),
          usd.map(cents).reduce((a, b) => a + b),
          `${shown} = ${usd.join(" + ")}`,
        );
      await screenshot(page, "console-books-net-result");

      // Close the running month: refused, and why; still on this month, still open.
      await page.getByLabel("Reason").fill("Trying to close early");
      await page.getByRole("button", { name: `Close ${month}` }).click();
      await page.waitForURL((url) => url.pathname === "/console/ledger/month" && url.searchParams.has("error"));
      assert.equal(new URL(page.url()).searchParams.get("period"), month, "back on the month it was about");
      assert.match(
        (await flashError(page).textContent()) ?? "",
        new RegExp(
          `^${month} is the running month \\(it ends with ${month}-\\d{2}, UTC\\): a month is closed once it is over\\. The last month that ended is ${previous}\\.$`,
        ),
      );
      assert.doesNotMatch((await flashError(page).textContent()) ?? "", /Already decided/);
      assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), `Month end ${month}`);
      assert.match(await text(page, "period-state"), /^OPEN\./);
      await screenshot(page, "console-books-running-month-refused");

      // The general ledger's file carries the period it covers, not the export day.
      const gl = await page.request.get(consoleUrl(`/ledger/export?period=${month}`));
      assert.equal(gl.status(), 200);
      assert.equal(gl.headers()["content-disposition"], `attachment; filename="gl-${month}.csv"`);
      assert.ok((await gl.text()).includes(s.transferId), "the month's lines");
      const days = await page.request.get(consoleUrl(`/ledger/export?from=${previous}-01&to=${month}-01`));
      assert.equal(days.headers()["content-disposition"], `attachment; filename="gl-${previous}.csv"`, "a calendar month by its dates");
      await page.context().close();
    },
  );

  test("a day's later statement is reconciled and each statement received is shown", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const page = await signedInPage(e2e.browser, ADMIN);
    const tag = randomUUID().slice(0, 8).toUpperCase();
    const [early, late] = [`E2E-EARLY-${tag}`, `E2E-LATE-${tag}`];
    const day = "2026-11-18";
    // The 18:00 statement, then the 22:00 one of the same account and day (imported in that order).
    await uploadStatement(page, camt053([], { messageId: early, closingBalance: "700.00", balanceDate: day, createdAt: `${day}T18:00:00Z` }));
    await uploadStatement(page, camt053([], { messageId: late, closingBalance: "800.37", balanceDate: day, createdAt: `${day}T22:00:00Z` }));

    await page.goto(consoleUrl("/ledger/reconciliation"));
    const table = page.getByTestId("reconciliation");
    const row = (statement: string) => table.locator(`tr[data-statement="${statement}"]`);
    await row(late).waitFor();
    assert.equal(await row(late).getAttribute("data-status"), "DIFFERENCE", "the day's last statement is the one reconciled");
    const lateCells = await row(late).locator("td").allTextContents();
    assert.equal(lateCells[3], "800.37");
    assert.equal(await row(early).getAttribute("data-status"), "SUPERSEDED");
    assert.match((await row(early).textContent()) ?? "", new RegExp(`SUPERSEDEDby ${late}`));
    assert.match((await row(early).textContent()) ?? "", /created 18 Nov 2026,? 18:00/);
    await screenshot(page, "console-books-reconciliation-statements");

    const csv = await page.request.get(consoleUrl("/ledger/reconciliation/export"));
    assert.match(csv.headers()["content-disposition"], /^attachment; filename="bank-reconciliation-\d{4}-\d{2}-\d{2}(_\d{4}-\d{2}-\d{2})?\.csv"$/);
    const body = await csv.text();
    assert.ok(body.includes(`,${early},2026-11-18T18:00:00.000Z,700.00,`) && body.includes(`,SUPERSEDED,${late},`), body);

    // Explained, so the day leaves no open difference behind.
    await row(late).getByLabel(`Explanation for ${day}`).fill("Test statements of issue 36");
    await row(late).getByRole("button", { name: "Explain" }).click();
    await page.waitForURL((url) => url.pathname === "/console/ledger/reconciliation" && url.searchParams.has("notice"));
    assert.equal(await row(late).getAttribute("data-status"), "EXPLAINED");
    await page.context().close();
  });

  test("an over-payment's return proposal names the excess returned, not the whole credit", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const s = await fundingScenario();
    const bt = await call("POST", `/v1/sandbox/funding-sessions/${s.confirmed.fundingSession.fundingSessionId}/bank-transfer`, { token: s.c.token });
    assert.equal(bt.status, 200, bt.text);
    const bankRef = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
    const paid = (cents(bt.body.amount) + 101n).toString().replace(/(\d{2})$/, ".$1");
    const xml = camt053([{ bankReference: bankRef, amount: paid, currency: bt.body.currency, reference: bt.body.reference }], { messageId: `E2E-${bankRef}` });
    const imported = await call("POST", "/v1/sandbox/bank-statements", { rawBody: xml, headers: { "content-type": "application/xml" } });
    assert.deepEqual(imported.body, { entries: 1, matched: 0, unmatched: 1, duplicates: 0 }, imported.text);

    const page = await signedInPage(e2e.browser, ADMIN);
    const credit = `sandbox:partner_demo:${bankRef}`;
    await page.goto(consoleUrl("/bank-credits"));
    const match = cardFor(page, credit)
      .locator("form")
      .filter({ has: page.getByRole("button", { name: "Match", exact: true }) });
    await match.getByLabel("Transfer").fill(s.transferId);
    await match.getByLabel("Reason").fill("Paid 1.01 more");
    await match.getByRole("button", { name: "Match", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/console/bank-credits" && url.searchParams.has("notice"));
    const matchProposal = proposalIn(await notice(page).textContent());
    const checker = await signedInPage(e2e.browser, await createOperatorInConsole(page, "reviewer", "Books Checker"));
    await approveProposal(checker, matchProposal);

    await page.goto(consoleUrl("/bank-credits"));
    const back = cardFor(page, credit)
      .locator("form")
      .filter({ has: page.getByRole("button", { name: "Return 1.01 USD" }) });
    await back.getByLabel("Reason").fill("Excess back to the payer");
    await back.getByRole("button", { name: "Return 1.01 USD" }).click();
    await page.waitForURL((url) => url.pathname === "/console/bank-credits" && url.searchParams.has("notice"));
    const proposal = proposalIn(await notice(page).textContent());
    // What the approver reads: the 1.01 returned, the credit named with its whole amount.
    await checker.goto(consoleUrl(`/approvals/${proposal}`));
    const main = ((await checker.locator("main").textContent()) ?? "").replace(/\u00a0/g, " ");
    assert.ok(main.includes(`Return USD 1.01 to the payer: the excess of bank credit ${credit} (USD ${paid})`), main);
    await screenshot(checker, "console-books-return-proposal");
    assert.match(await approveProposal(checker, proposal), /1\.01 USD to return to the payer/);
    await checker.context().close();
    await page.context().close();
  });

  test("a payout paid on its resend no longer reads rejected; the transfer page lists every attempt", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const s = await fundedScenario();
    const xmlPost = (p: string, xml?: string) => call("POST", p, xml === undefined ? {} : { rawBody: xml, headers: { "content-type": "application/xml" } });
    const first = await xmlPost("/v1/sandbox/payout-files");
    assert.equal(first.status, 200, first.text);
    const firstFile = /<MsgId>([^<]+)<\/MsgId>/.exec(first.text)![1];
    // Each answer names the attempt it is about by its InstrId (the first's is the EndToEndId, a resend's `<id>/2`).
    const naming = (xml: string, instrId: string) => xml.replace("<OrgnlEndToEndId>", `<OrgnlInstrId>${instrId}</OrgnlInstrId><OrgnlEndToEndId>`);
    const rejected = await xmlPost(
      "/v1/sandbox/payment-status-reports",
      naming(pain002(`REP-${firstFile}`, firstFile, [{ endToEndId: s.transferId, status: "RJCT", reason: "AC01" }]), s.transferId),
    );
    assert.equal(rejected.status, 200, rejected.text);

    const page = await signedInPage(e2e.browser, ADMIN);
    await page.goto(consoleUrl(`/transfers/${s.transferId}`));
    assert.match(await text(page, "payout-rejection"), /payout rejected by the bank: .*\(AC01\)/, "while the rejection waits for a repair");

    // The customer's app gives another account; it goes out in the next file, which the bank pays.
    const repaired = await call("POST", `/v1/core/transfers/${s.transferId}/payout-repair`, {
      token: s.c.token,
      body: { payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: CLABES[1] } },
    });
    assert.equal(repaired.status, 202, repaired.text);
    const resend = await xmlPost("/v1/sandbox/payout-files");
    assert.equal(resend.status, 200, resend.text);
    const resendFile = /<MsgId>([^<]+)<\/MsgId>/.exec(resend.text)![1];
    const settled = naming(pain002(`REP-${resendFile}`, resendFile, [{ endToEndId: s.transferId, status: "ACSC" }]), `${s.transferId}/2`);
    const paid = await xmlPost("/v1/sandbox/payment-status-reports", settled);
    assert.equal(paid.status, 200, paid.text);
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "paid");

    await page.goto(consoleUrl(`/transfers/${s.transferId}`));
    const attempts = page.getByTestId("payout-attempts");
    await attempts.waitFor();
    assert.equal(await page.getByTestId("payout-rejection").count(), 0, "paid on the resend: no rejection label");
    const rows = await attempts
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => (td.textContent ?? "").replace(/\u00a0/g, " "))));
    assert.equal(rows.length, 2, JSON.stringify(rows));
    const [one, two] = rows;
    assert.equal(one[0], "1");
    assert.match(one[3], /^RESENTRJCT AC01 · /, "the first attempt: rejected with AC01, then resent");
    assert.match(one[4], /\(AC01\)$/);
    assert.match(one[5], /^sent .*changed /);
    assert.equal(two[0], "2");
    assert.match(two[3], /^SENTACSC · /, "the second: settled");
    assert.equal(two[4], "");
    assert.notEqual(one[1], two[1], "each attempt in its own file");
    await screenshot(page, "console-transfer-payout-attempts");
    await page.context().close();
  });
});
