import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { screenshot } from "./support/browser";
import { setupE2eFile } from "./support/setup";
import { approveProposal, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, notice, proposalIn, signedInPage } from "./support/console";
import { call, eventually, customerWithProfile, openKyc } from "../test/integration/support";

// In the console: a new webhook secret is shown once, in full, with a copy
// button; an endpoint that answered 410 is shown disabled and an admin re-enables it (audited).
// A new partner key is shown once on the page, never in a URL, and a webhook
// URL set for the first time shows the endpoint's first secret once.

const e2e = setupE2eFile();
let server: Server;
let url: string;
let status = 204;
const received: { body: string; headers: Record<string, string> }[] = [];

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers as Record<string, string> });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const set = await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: url } });
  assert.equal(set.status, 200, set.text);
});

after(async () => {
  await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: null } });
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A customer.status.changed event for the demo partner; resolves with its delivery. */
async function deliveredEvent() {
  const c = await customerWithProfile();
  await openKyc(c);
  return eventually(async () => received.find((r) => r.body.includes(c.subscriptionId)), 15_000, "a delivery");
}

describe("console: webhook secret and endpoint", () => {
  test("rotating shows the new secret once, in full, with a copy button; deliveries verify with it", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const page = await signedInPage(e2e.browser);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(consoleUrl()).origin });
    await page.goto(consoleUrl("/partners/partner_demo"));
    assert.equal(await page.getByText(/whsec_/).count(), 0, "no stored secret on the page");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const field = page.getByLabel("New webhook secret");
    await field.waitFor();
    const secret = await field.inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/, "the full secret");
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await screenshot(page, "console-webhook-secret-shown-once");

    // It is the partner's secret now: a delivery verifies with it (and carries two signatures).
    const d = await deliveredEvent();
    assert.equal(d.headers["webhook-signature"].split(" ").length, 2);
    new Webhook(secret).verify(d.body, d.headers);

    // Shown once: a reload does not show it again, nor does the page's HTML carry it.
    await page.reload();
    await page.getByRole("button", { name: "Rotate secret" }).waitFor();
    assert.equal(await page.getByLabel("New webhook secret").count(), 0);
    assert.ok(!(await page.content()).includes(secret));
    assert.ok(!page.url().includes("whsec"), "the secret never travels in a URL");
    await page.context().close();
  });

  test("a new partner's key is shown once, never in a URL; its first webhook URL shows the first secret once", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const page = await signedInPage(e2e.browser);
    // Every URL the browser asked for or was sent to (Location headers included).
    const seen: string[] = [];
    page.on("request", (r) => seen.push(r.url()));
    page.on("response", (r) => seen.push(r.headers()["location"] ?? ""));
    await page.goto(consoleUrl("/partners"));
    const name = `E2E keys ${randomUUID().slice(0, 8)}`;
    await page.getByLabel("Partner name").fill(name);
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("link", { name }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/console/partners/partner"));

    const partnerPath = new URL(page.url()).pathname;

    // A new key is under dual control: proposed here, issued when a second admin
    // approves, and revealed once to its proposer, the operator onboarding the partner, never to the
    // approver.
    await page.getByRole("button", { name: "Issue a new key" }).click();
    const proposed = page.getByRole("status").filter({ hasText: "Proposed for a second operator" });
    await proposed.waitFor();
    const proposalId = proposalIn(await proposed.textContent());
    const checker = await signedInPage(e2e.browser, await createOperatorInConsole(page, "admin", "Key Checker"));
    checker.on("request", (r) => seen.push(r.url()));
    checker.on("response", (r) => seen.push(r.headers()["location"] ?? ""));
    const approved = await approveProposal(checker, proposalId, "Partner asked for a second key");
    assert.match(approved, /revealed once to admin@example\.com, the proposer/);
    assert.equal(await checker.getByLabel("New subscription key").count(), 0, "the approver is not shown the key");
    assert.ok(!(await checker.content()).includes("pk_"), "nor is it anywhere on the approver's page");
    await checker.reload();
    assert.equal(await checker.getByRole("button", { name: "Reveal once" }).count(), 0, "nor may the approver reveal it");

    await page.goto(consoleUrl(`/approvals/${proposalId}`));
    await page.getByRole("button", { name: "Reveal once" }).click();
    const keyField = page.getByLabel("New subscription key");
    await keyField.waitFor();
    const key = await keyField.inputValue();
    assert.match(key, /^pk_[A-Za-z0-9_-]{20,}$/, "the full key");
    assert.match((await page.getByTestId("reveal-secret").textContent()) ?? "", /Only its hash is stored/);
    await screenshot(page, "console-proposal-key-revealed-to-proposer");
    await page.reload();
    await page.getByTestId("proposal").waitFor();
    assert.equal(await page.getByRole("button", { name: "Reveal once" }).count(), 0, "revealed once: nothing left to reveal");
    assert.ok(!(await page.content()).includes(key));
    await page.goto(`${new URL(consoleUrl()).origin}${partnerPath}`);
    await page.getByText(`${key.slice(0, 8)}…`).waitFor(); // the list shows the new key's prefix
    const health = await call("GET", "/v1/auth/health", { key });
    assert.equal(health.status, 200, "the key shown is the partner's key");

    await page.getByLabel(/^Webhook URL/).fill(url);
    await page.getByRole("button", { name: "Save settings" }).click();
    const secretField = page.getByLabel("New webhook secret");
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/, "the full secret");
    // How it is kept, truly: a webhook secret signs deliveries, so it cannot be a hash.
    const secretBox = page.getByRole("status").filter({ has: page.getByLabel("New webhook secret") });
    assert.match((await secretBox.textContent()) ?? "", /stored as issued/);
    assert.doesNotMatch((await secretBox.textContent()) ?? "", /hash is stored/);
    const stored = await call("PUT", "/v1/sandbox/partner", { key, body: {} });
    assert.equal(stored.body.webhookSecret, secret, "the secret shown is the endpoint's secret");
    await screenshot(page, "console-partner-key-and-first-secret");
    // Saving again issues nothing: the secret was shown once.
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Partner settings saved.").waitFor();
    assert.equal(await page.getByLabel("New webhook secret").count(), 0);

    await page.reload();
    await page.getByRole("button", { name: "Issue a new key" }).waitFor();
    const html = await page.content();
    const partnerId = new URL(page.url()).pathname.split("/").pop()!;
    assert.ok(!html.includes(key) && !html.includes(secret), "a reload shows neither again");
    await checker.reload();
    assert.ok(!(await checker.content()).includes(key), "nor does the approver's page");
    await checker.context().close();
    assert.ok(seen.length > 3);
    for (const u of seen) assert.ok(!u.includes(key) && !u.includes(secret) && !u.includes("whsec"), `never in a URL: ${u}`);

    // The audit log has the partner's entries (the settings' JSON is long) and fits 1280 px without a scrollbar (item 11).
    await page.goto(consoleUrl(`/audit?q=${partnerId}`));
    const table = page.getByTestId("audit-table");
    await table.waitFor();
    assert.deepEqual(await table.locator("tbody tr td:nth-child(3)").allTextContents(), [
      "partner.update",
      "partner.update",
      "proposal.secret.reveal",
      "partner.apiKey.issue",
      "proposal.create",
      "partner.create",
    ]);
    const width = await table.evaluate((t) => ({ table: t.scrollWidth, box: t.parentElement!.clientWidth, page: document.documentElement.scrollWidth }));
    assert.ok(width.table <= width.box && width.page <= 1280, `the audit table fits 1280 px: ${JSON.stringify(width)}`);
    await screenshot(page, "console-audit-1280");
    await page.context().close();
  });

  test("an endpoint answering 410 is shown disabled; an admin re-enables it and the audit log has it", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    status = 410;
    const gone = await deliveredEvent();
    assert.ok(gone);
    status = 204;
    const page = await signedInPage(e2e.browser);
    // The 410 reached our receiver just before the service recorded it: reload until shown.
    const disabled = page.getByRole("alert").filter({ hasText: "410 Gone" });
    await eventually(
      async () => {
        await page.goto(consoleUrl("/webhooks?partner=partner_demo"));
        return (await disabled.count()) > 0;
      },
      15_000,
      "the disabled endpoint shown",
    );
    await page.getByRole("button", { name: "Re-enable endpoint" }).click();
    await notice(page).filter({ hasText: "re-enabled" }).waitFor();
    await page.goto(consoleUrl("/audit"));
    await page.getByText("webhook.endpoint.reenable").first().waitFor();
    // Deliveries flow again.
    const again = await deliveredEvent();
    assert.ok(again);
    await page.context().close();
  });
});
