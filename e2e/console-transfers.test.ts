import assert from "node:assert/strict";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { screenshot } from "./support/browser";
import {
  ADMIN,
  approveProposal,
  CONSOLE_TEST_TIMEOUT,
  consoleUrl,
  createOperatorInConsole,
  proposalIn,
  signedInPage,
  type OperatorCredentials,
} from "./support/console";
import { setupE2eFile } from "./support/setup";
import { fundingScenario } from "../test/integration/transfers/support";
import { call } from "../test/integration/support";
import { camt053 } from "../test/support/camt053";

// The console's transfers list and search, names beside ids, claims with
// their transfer; the grouped navigation reaching every page, the Overview's new tiles and the
// Approvals badge; a proposal's before and after shown to its approver, and what an approved
// proposal creates revealed once to its proposer.

const e2e = setupE2eFile();

/** Opens the header's `group` menu and follows its `link`. */
async function navigate(page: Page, group: string, link: string, path: string) {
  const nav = page.getByRole("navigation", { name: "Console" });
  await nav.getByRole("button", { name: group }).click();
  await nav.getByRole("link", { name: link, exact: true }).click();
  await page.waitForURL((u) => u.pathname === path);
}

async function search(page: Page, fields: { q?: string; state?: string }) {
  await page.getByLabel("Search", { exact: true }).fill(fields.q ?? "");
  await page.getByLabel("State").selectOption(fields.state ?? "");
  await page.getByRole("button", { name: "Search" }).click();
  await page.waitForURL(
    (u) => u.pathname === "/console/transfers" && u.searchParams.get("q") === (fields.q ?? "") && u.searchParams.get("state") === (fields.state ?? ""),
  );
  await page.getByRole("heading", { name: "Transfers" }).waitFor();
}

const badge = async (page: Page) => {
  await page.goto(consoleUrl());
  const b = page.getByTestId("approvals-badge");
  return (await b.count()) ? Number(await b.textContent()) : 0;
};

describe("console: transfers, navigation and approvals", () => {
  let proposer: OperatorCredentials;
  let approver: OperatorCredentials;

  test(
    "a transfer is found by its RF reference, amount, customer name or id, and shown with names beside ids; a claim shows its transfer",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await fundingScenario({ fresh: true });
      const bt = await call("POST", `/v1/sandbox/funding-sessions/${s.confirmed.fundingSession.fundingSessionId}/bank-transfer`, { token: s.c.token });
      assert.equal(bt.status, 200, bt.text);
      // Paid by bank transfer with its RF reference (a claim needs a funded transfer).
      const bankRef = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
      const xml = camt053([{ bankReference: bankRef, amount: bt.body.amount, currency: bt.body.currency, reference: bt.body.reference }], {
        messageId: `E2E-${bankRef}`,
      });
      const imported = await call("POST", "/v1/sandbox/bank-statements", { rawBody: xml, headers: { "content-type": "application/xml" } });
      assert.equal(imported.body.matched, 1, imported.text);
      const claim = await call("POST", `/v1/core/transfers/${s.transferId}/claims`, {
        token: s.c.token,
        body: { type: "NOT_RECEIVED", description: "Nothing arrived yet." },
      });
      assert.equal(claim.status, 201, claim.text);

      const page = await signedInPage(e2e.browser, ADMIN);
      await navigate(page, "Money", "Transfers", "/console/transfers");
      const row = page.getByTestId(`transfer-row-${s.transferId}`);
      // The RF reference as a customer reads it out, in groups of four.
      await search(page, { q: (bt.body.reference as string).replace(/(.{4})/g, "$1 ").trim() });
      await row.waitFor();
      const text = (await row.textContent()) ?? "";
      // The customer's name (Ana and a unique surname: test/integration/support) beside their id.
      const name = /Ana Tester[a-z]{10}/.exec(text)?.[0] ?? "";
      assert.ok(name && text.includes(`${name}${s.c.subscriptionId}`), `the customer by name and id: ${text}`);
      assert.match(text, /Demo Partner\s*partner_demo/, "the partner by name and id");
      assert.ok(text.includes(bt.body.reference), "its funding reference");
      assert.match((await page.getByTestId("search-read-as").textContent()) ?? "", /RF funding reference/);
      await screenshot(page, "console-transfers-search-reference");

      await search(page, { q: name });
      await row.waitFor();
      await search(page, { q: s.transferId });
      assert.equal(await page.getByTestId("transfers-table").locator("tbody tr").count(), 1);
      await search(page, { q: bt.body.amount, state: "funded" });
      await row.waitFor();
      await search(page, { q: bt.body.amount, state: "canceled" });
      assert.equal(await row.count(), 0, "the state narrows");

      // Its page: the customer and the partner by name beside their ids.
      await search(page, { q: s.transferId });
      await row.getByRole("link", { name: s.transferId }).click();
      await page.waitForURL(consoleUrl(`/transfers/${s.transferId}`));
      const sub = (await page.locator("main").textContent()) ?? "";
      assert.ok(sub.includes(`${name}`) && sub.includes(s.c.subscriptionId), "customer name and id on the transfer page");
      assert.ok(await page.getByTestId("partner-label").first().isVisible());

      // The claim's card: its transfer's essentials, not only its id.
      await navigate(page, "Money", "Claims", "/console/claims");
      const essentials = page.getByTestId(`claim-transfer-${claim.body.claimId}`);
      await essentials.waitFor();
      const claimText = (await essentials.textContent()) ?? "";
      assert.ok(claimText.includes(name) && claimText.includes(s.c.subscriptionId) && /funded|topay|reqpay|paid/.test(claimText), claimText);
      assert.match(claimText, /partner_demo/);
      await screenshot(page, "console-claims-with-transfer");
      await page.context().close();
    },
  );

  test(
    "every page is in a header menu; the Overview counts new claims with their 90-day clock and the new queues",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const page = await signedInPage(e2e.browser, ADMIN);
      proposer = await createOperatorInConsole(page, "admin", "Olga Onboarder");
      approver = await createOperatorInConsole(page, "admin", "Abe Approver");
      const nav = page.getByRole("navigation", { name: "Console" });
      const hrefs: string[] = [];
      for (const group of ["Money", "Compliance", "Books", "Partners", "Settings"]) {
        await nav.getByRole("button", { name: group }).click();
        const menu = nav.locator(`#nav-${group.toLowerCase()}`);
        await menu.waitFor();
        hrefs.push(...(await menu.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""))));
        if (group === "Compliance") await screenshot(page, "console-nav-compliance");
      }
      // The pages the header used to omit (Approvals stands on its own, with its badge).
      for (const path of ["claims", "refunds", "monitoring", "screening-cases", "ledger/month", "transfers"])
        assert.ok(hrefs.includes(`/console/${path}`), `${path} in a menu`);
      assert.ok(await nav.getByRole("link", { name: /^Approvals/ }).isVisible(), "Approvals stands in the header");
      await navigate(page, "Compliance", "Screening cases", "/console/screening-cases");
      assert.equal(await nav.locator("#nav-compliance").isVisible(), false, "the menu closes on the new page");
      await navigate(page, "Books", "Month end", "/console/ledger/month");

      await page.goto(consoleUrl());
      assert.ok(Number(await page.getByTestId("count-new-claims").textContent()) >= 1, "the claim of the previous test is new");
      assert.match((await page.getByTestId("note-new-claims").textContent()) ?? "", /first due .* \(\d+ days left\)/);
      for (const tile of ["funded-awaiting-file", "rejected-payouts", "reconciliation-differences", "returns-requested"]) {
        assert.match((await page.getByTestId(`count-${tile}`).textContent()) ?? "", /^\d+$/, tile);
      }
      await screenshot(page, "console-overview-tiles");
      await page.context().close();
    },
  );

  test(
    "a partner change shows before and after to its approver, whose badge counts it; the first webhook secret is revealed to the proposer",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      assert.ok(proposer && approver, "the previous test created both operators");
      const olga = await signedInPage(e2e.browser, proposer);
      const abe = await signedInPage(e2e.browser, approver);
      const before = { olga: await badge(olga), abe: await badge(abe) };

      await olga.goto(consoleUrl("/partners"));
      const partnerName = `E2E onboarding ${randomUUID().slice(0, 8)}`;
      await olga.getByLabel("Partner name").fill(partnerName);
      await olga.getByRole("button", { name: "Create" }).click();
      await olga.getByRole("link", { name: partnerName }).click();
      await olga.waitForURL((u) => u.pathname.startsWith("/console/partners/partner"));
      const kid = `onboarding-${randomUUID().slice(0, 8)}`;
      const jwk = { ...generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" }), kid };
      const webhookUrl = "http://127.0.0.1:9/onboarding-hooks";
      await olga.getByLabel(/^Webhook URL/).fill(webhookUrl);
      await olga.getByLabel(/^JWKS \(inline JSON/).fill(JSON.stringify({ keys: [jwk] }));
      await olga.getByRole("button", { name: "Save settings" }).click();
      const proposed = olga.getByRole("status").filter({ hasText: "Proposed for a second operator" });
      await proposed.waitFor();
      const proposalId = proposalIn(await proposed.textContent());

      // The approver is told: the badge counts it (not for its author).
      assert.equal(await badge(abe), before.abe + 1, "the approver's badge counts the new proposal");
      assert.equal(await badge(olga), before.olga, "its author's does not");

      // Before approving, the approver sees what changes: the key ids and the URL, before and after.
      await abe.goto(consoleUrl(`/approvals/${proposalId}`));
      const kids = abe.getByTestId("change-jwksKids");
      await kids.waitFor();
      assert.deepEqual(await kids.locator("td").allTextContents(), ["jwksKids", "[]", JSON.stringify([kid])]);
      assert.deepEqual(await abe.getByTestId("change-webhookUrl").locator("td").allTextContents(), ["webhookUrl", "—", webhookUrl]);
      assert.match((await abe.getByTestId("proposal-change").textContent()) ?? "", /After \(as proposed\)/);
      await screenshot(abe, "console-proposal-before-after");
      assert.match(await approveProposal(abe, proposalId, "Keys checked with the partner"), /revealed once to .*, the proposer/);
      assert.equal(await abe.getByLabel("New webhook secret").count(), 0, "the approver never sees the secret");

      // The proposer reveals the endpoint's first secret, once.
      await olga.goto(consoleUrl(`/approvals/${proposalId}`));
      await olga.getByRole("button", { name: "Reveal once" }).click();
      const field = olga.getByLabel("New webhook secret");
      await field.waitFor();
      assert.match(await field.inputValue(), /^whsec_/);
      const box = (await olga.getByTestId("reveal-secret").textContent()) ?? "";
      assert.match(box, /stored as issued/);
      assert.doesNotMatch(box, /hash is stored/);
      await screenshot(olga, "console-proposal-secret-revealed");
      await olga.reload();
      await olga.getByTestId("proposal").waitFor();
      assert.equal(await olga.getByRole("button", { name: "Reveal once" }).count(), 0, "once only");
      for (const p of [olga, abe]) await p.context().close();
    },
  );
});
