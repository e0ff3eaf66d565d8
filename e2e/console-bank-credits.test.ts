import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
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
import { fundingScenario } from "../test/integration/transfers/support";
import { call, readTransfer } from "../test/integration/support";
import { camt053 } from "../test/support/camt053";
import { setupE2eFile } from "./support/setup";

// An over-paid bank credit waits in the console's "Bank credits" queue; an
// operator matches it to the transfer (which is funded) and then returns the excess. Both are
// under dual control: the first operator proposes, a second one approves.

const e2e = setupE2eFile();

describe("console: bank credits", () => {
  test("match an over-paid credit to its transfer, then return the excess", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const s = await fundingScenario();
    const bt = await call("POST", `/v1/sandbox/funding-sessions/${s.confirmed.fundingSession.fundingSessionId}/bank-transfer`, { token: s.c.token });
    assert.equal(bt.status, 200, bt.text);
    const bankRef = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
    const over = (Number(bt.body.amount) + 5).toFixed(2);
    const xml = camt053([{ bankReference: bankRef, amount: over, currency: bt.body.currency, reference: bt.body.reference }], { messageId: `E2E-${bankRef}` });
    const imported = await call("POST", "/v1/sandbox/bank-statements", { rawBody: xml, headers: { "content-type": "application/xml" } });
    assert.deepEqual(imported.body, { entries: 1, matched: 0, unmatched: 1, duplicates: 0 }, imported.text);

    const page = await signedInPage(e2e.browser, ADMIN);
    await page.goto(consoleUrl("/bank-credits"));
    const card = cardFor(page, `sandbox:partner_demo:${bankRef}`);
    await card.waitFor();
    assert.match((await card.textContent()) ?? "", /More than the sum due/);
    await screenshot(page, "console-bank-credits-queue");

    const match = card.locator("form").filter({ has: page.getByRole("button", { name: "Match", exact: true }) });
    await match.getByLabel("Transfer").fill(s.transferId);
    await match.getByLabel("Reason").fill("The customer paid a little more");
    await match.getByRole("button", { name: "Match", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/console/bank-credits" && url.searchParams.has("notice"));
    const matchProposal = proposalIn(await notice(page).textContent());
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funding", "nothing moves until a second operator approves");

    const checker = await signedInPage(e2e.browser, await createOperatorInConsole(page, "reviewer", "Bank Checker"));
    assert.match(await approveProposal(checker, matchProposal), new RegExp(`funded transfer ${s.transferId}.*5\\.00 USD over-paid stays to return`));
    assert.notEqual((await readTransfer(s.c, s.transferId)).body.transferStatus, "funding");

    await page.goto(consoleUrl("/bank-credits"));
    const excess = cardFor(page, `sandbox:partner_demo:${bankRef}`);
    const back = excess.locator("form").filter({ has: page.getByRole("button", { name: "Return 5.00 USD" }) });
    await back.getByLabel("Reason").fill("Excess sent back to the payer");
    await back.getByRole("button", { name: "Return 5.00 USD" }).click();
    await page.waitForURL((url) => url.pathname === "/console/bank-credits" && url.searchParams.has("notice"));
    assert.match(await approveProposal(checker, proposalIn(await notice(page).textContent())), /5\.00 USD to return to the payer/);
    await page.goto(consoleUrl("/bank-credits"));
    // Listed until the bank executed the return, then recorded with its reference.
    const requested = cardFor(page, `sandbox:partner_demo:${bankRef}`);
    const executed = requested.locator("form").filter({ has: page.getByRole("button", { name: "Record 5.00 USD returned" }) });
    await executed.getByLabel("Bank reference").fill("RET-E2E-1");
    await executed.getByLabel("Reason").fill("Sent from the bank");
    await executed.getByRole("button", { name: "Record 5.00 USD returned" }).click();
    await page.waitForURL((url) => url.pathname === "/console/bank-credits" && url.searchParams.get("notice")?.includes("RET-E2E-1") === true);
    assert.equal(await cardFor(page, `sandbox:partner_demo:${bankRef}`).count(), 0, "resolved: it left the queue");
    await checker.context().close();
    await screenshot(page, "console-bank-credits-resolved");
    await page.context().close();
  });
});
