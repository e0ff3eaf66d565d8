import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { screenshot } from "./support/browser";
import { setupE2eFile } from "./support/setup";
import { CONSOLE_TEST_TIMEOUT, consoleUrl, signedInPage } from "./support/console";
import { call, customerWithProfile, eventually, openKyc } from "../test/integration/support";

// The console header on one line at desktop widths, and the webhook log for a
// partner without a webhook URL (one notice with a link, no replay) and with one (each attempt's
// time, status code and latency; replay offered).

const e2e = setupE2eFile();
let server: Server;
let url: string;
const received: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

after(async () => {
  await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl: null } });
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function setWebhookUrl(webhookUrl: string | null) {
  const set = await call("PUT", "/v1/sandbox/partner", { body: { webhookUrl } });
  assert.equal(set.status, 200, set.text);
}

/** The header's box and the top of each of its items: one line means every item on the same row. */
async function headerLine(page: Page) {
  const header = page.getByTestId("console-header");
  const box = (await header.boundingBox())!;
  const centers = await header.evaluate((el) =>
    [
      el.querySelector("span"),
      ...el.querySelectorAll("nav [data-nav-top]"),
      el.querySelector('[data-testid="operator"]'),
      el.querySelector("button:not([data-nav-top])"),
    ].map((n) => {
      const r = n!.getBoundingClientRect();
      return Math.round(r.top + r.height / 2);
    }),
  );
  return { height: box.height, centers };
}

describe("console for operators", () => {
  for (const width of [1280, 1440, 1600]) {
    test(`the header fits on one line at ${width} px, "Sign out" included`, { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
      const page = await signedInPage(e2e.browser);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(consoleUrl("/webhooks"));
      const { height, centers } = await headerLine(page);
      assert.ok(height <= 56, `header height ${height}px (one line is under 56px)`);
      assert.ok(Math.max(...centers) - Math.min(...centers) <= 2, `items on one line: ${centers.join(", ")}`);
      assert.equal(await page.getByRole("button", { name: "Sign out" }).isVisible(), true);
      await screenshot(page, `console-header-${width}`);
      await page.context().close();
    });
  }

  test(
    "webhook log: no URL says so once with a link to the settings and offers no replay; with a URL each attempt shows time, status and latency",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      await setWebhookUrl(null);
      const c = await customerWithProfile();
      await openKyc(c); // an event for the demo partner, settled undeliverable
      const page = await signedInPage(e2e.browser);
      await page.goto(consoleUrl("/webhooks?partner=partner_demo"));
      const notice = page.getByTestId("no-webhook-url");
      await notice.waitFor();
      assert.match((await notice.textContent()) ?? "", /has no webhook URL/);
      assert.equal(await notice.getByRole("link", { name: /Set a webhook URL/ }).getAttribute("href"), "/console/partners/partner_demo");
      assert.equal(await page.getByRole("button", { name: "Replay" }).count(), 0);
      assert.equal(await page.getByRole("button", { name: "Replay range" }).count(), 0);
      assert.equal(await page.getByText("undeliverable", { exact: true }).count(), 0);
      // Events name their customer: a name, then the id.
      assert.match((await page.getByTestId("webhook-event").first().textContent()) ?? "", /Ana Tester[A-Za-z]+ ?cus_/);
      await screenshot(page, "console-webhooks-no-url");

      await setWebhookUrl(url);
      const d = await customerWithProfile();
      await openKyc(d);
      await eventually(async () => received.length > 0, 15_000, "a delivery");
      const attempts = page.getByTestId("webhook-attempts").first();
      await eventually(
        async () => {
          await page.goto(consoleUrl("/webhooks?partner=partner_demo"));
          return (await attempts.count()) > 0;
        },
        15_000,
        "the attempt shown",
      );
      const row = (await attempts.locator("tbody tr").first().textContent()) ?? "";
      assert.match(row, /\d{1,2} [A-Z][a-z]{2} 20\d\d, \d\d:\d\d:\d\d UTC204\d+ ms/);
      assert.equal(await page.getByTestId("no-webhook-url").count(), 0);
      assert.ok((await page.getByRole("button", { name: "Replay" }).count()) > 0);
      await screenshot(page, "console-webhooks-attempts");
      await page.context().close();
    },
  );
});
