import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { newPage, PHONE, screenshot, TEST_TIMEOUT } from "./support/browser";
import { ADMIN, cardFor, CONSOLE_TEST_TIMEOUT, consoleUrl, notice, signedInPage } from "./support/console";
import { fundedScenario } from "../test/integration/transfers/support";
import { call } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// The hosted receipt page in French on a phone, and an operator resolving a customer's
// error claim with a refund in the console claims queue (the customer sees it resolved, the
// partner gets the claim.status.changed events).

const e2e = setupE2eFile();

describe("consumer protection", () => {
  test("the hosted receipt page in French: every price component, the date available and both rights", { timeout: TEST_TIMEOUT }, async () => {
    const s = await fundedScenario();
    const res = await call("GET", `/v1/core/transfers/${s.transferId}/receipt`, { token: s.c.token, headers: { "accept-language": "fr" } });
    assert.equal(res.status, 200, res.text);
    const page = await newPage(e2e.browser, { ...PHONE, locale: "fr-FR" });
    await page.goto(res.body.receiptUrl);
    await page.getByTestId("receipt").waitFor();
    assert.equal(await page.locator("html").getAttribute("lang"), "fr");
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Reçu de transfert");
    const text = (await page.getByTestId("receipt").textContent()) ?? "";
    for (const label of ["Montant envoyé", "Frais de transfert", "Frais du partenaire", "Taxes", "Total payé", "Taux de change", "Date de mise à disposition"])
      assert.ok(text.includes(label), `${label} missing: ${text}`);
    assert.ok(text.includes(res.body.recipientName), text);
    assert.match(text, /remboursé intégralement, frais compris/);
    assert.match(text, /dans les 180 jours/);
    assert.match(text, /\d[\d\s\u202f\u00a0]*,\d\d[\s\u202f\u00a0]USD/);
    assert.match((await page.getByTestId("receipt-provider").textContent()) ?? "", /Demo Partner Remittances/);
    await page.getByTestId("receipt-print").waitFor();
    await screenshot(page, "receipt-fr");
    await page.context().close();
  });

  test("an operator resolves a claim with a refund: the customer sees RESOLVED, the partner the events", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const s = await fundedScenario();
    const opened = await call("POST", `/v1/core/transfers/${s.transferId}/claims`, {
      token: s.c.token,
      body: { type: "WRONG_AMOUNT", description: "My brother received less than promised." },
    });
    assert.equal(opened.status, 201, opened.text);
    const { claimId } = opened.body;
    const page = await signedInPage(e2e.browser, ADMIN);

    await page.goto(consoleUrl("/claims"));
    const card = cardFor(page, claimId);
    await card.waitFor();
    assert.match((await card.textContent()) ?? "", /WRONG_AMOUNT/);
    await card.getByRole("button", { name: "Start investigation" }).click();
    await page.waitForURL((url) => url.pathname === "/console/claims" && url.searchParams.has("notice"));
    assert.equal(await notice(page).textContent(), `Claim ${claimId} is being investigated.`);

    const again = cardFor(page, claimId);
    await again.getByLabel(`Outcome for ${claimId}`).selectOption("REFUND");
    await again.getByLabel(`Refund amount for ${claimId}`).fill("2.50");
    await again.getByLabel(`Notice for ${claimId}`).fill("We found a wrong fee: 2.50 USD is refunded to your card.");
    await screenshot(page, "console-claim-resolve");
    await again.getByRole("button", { name: "Resolve" }).click();
    // The URL already carries the investigation's notice: wait for the resolution's.
    await page.waitForURL((url) => url.pathname === "/console/claims" && (url.searchParams.get("notice") ?? "").includes("resolved"));
    assert.equal(await notice(page).textContent(), `Claim ${claimId} resolved: REFUND.`);
    assert.equal(await cardFor(page, claimId).count(), 0, "a resolved claim left the queue");
    assert.match((await page.getByTestId(`resolved-${claimId}`).textContent()) ?? "", /REFUND USD\s2\.50/);

    // The customer's view and the partner's events.
    const listed = await call("GET", `/v1/core/transfers/${s.transferId}/claims`, { token: s.c.token });
    assert.equal(listed.body.items[0].status, "RESOLVED");
    assert.equal(listed.body.items[0].outcome, "REFUND");
    assert.equal(listed.body.items[0].resolutionAmount, "2.500000");
    assert.equal(listed.body.items[0].resolutionNotice, "We found a wrong fee: 2.50 USD is refunded to your card.");
    const events = await call("GET", "/v1/core/events?type=claim.status.changed&limit=200", { token: s.c.token });
    const mine = events.body.items.filter((e: any) => e.data.claimId === claimId).map((e: any) => [e.data.previousStatus, e.data.status]);
    assert.deepEqual(mine, [
      [null, "OPEN"],
      ["OPEN", "INVESTIGATING"],
      ["INVESTIGATING", "RESOLVED"],
    ]);

    // Audited.
    await page.goto(consoleUrl(`/audit?q=${claimId}`));
    const actions = await page
      .getByTestId("audit-table")
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.children[2].textContent));
    assert.deepEqual(actions, ["claim.resolve.refund", "claim.investigate"]);
    await page.context().close();
  });
});
