import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { EX } from "../lib/interface/api/examples/ids";
import { BASE_URL } from "../test/integration/support";
import { newPage, screenshot, TEST_TIMEOUT } from "./support/browser";
import { setupE2eFile } from "./support/setup";

// The interactive API reference at /docs (Scalar, docs/decisions.md "API
// reference"), rendered from /v1/openapi.json with everything served by this origin, under the
// page's nonce CSP: the quote operation with its request and response examples (per status), and
// the customer.status.changed webhook's payload.

const ORIGIN = new URL(BASE_URL).origin;
const e2e = setupE2eFile();

/** /docs on a desktop page, recording requests to other origins and CSP violations. */
async function openDocs(): Promise<{ page: Page; foreign: string[]; violations: string[] }> {
  const page = await newPage(e2e.browser, { viewport: { width: 1400, height: 1000 } });
  const foreign: string[] = [];
  const violations: string[] = [];
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${BASE_URL}/docs`);
  await page.getByRole("heading", { name: "Remittance Partner API" }).waitFor();
  return { page, foreign, violations };
}

test("/docs: the quote operation with its request and response examples, offline and under the CSP", { timeout: TEST_TIMEOUT }, async () => {
  const { page, foreign, violations } = await openDocs();
  await page.getByRole("link", { name: "Get a signed quote" }).first().click();
  const op = page.locator('section[id$="tag/quotes/POST/v1/core/quotes"]');
  await op.getByRole("heading", { name: "Get a signed quote" }).waitFor();

  // The request example (the curl sample's body) and the 200 example.
  await op.getByText(`"beneficiaryId": "${EX.beneficiaryId}"`).first().waitFor();
  await op.getByText(`"originAmount": "100.000000"`).first().waitFor();
  await op.getByText(`"quoteValidUntil": "2026-11-21T10:11:00.000Z"`).first().waitFor();
  await op.getByText(`"totalCustomerCost": "103.990000"`).first().waitFor();

  // A tab per documented status (named "STATUS: 403"); 503 shows its error envelope.
  const tab = (status: string) => op.getByRole("tab", { name: new RegExp(`\\b${status}$`) });
  for (const status of ["200", "400", "401", "403", "404", "409", "422", "500", "503"]) assert.equal(await tab(status).count(), 1, status);
  await tab("503").click();
  await op.getByText(`"code": "internal.unavailable"`).first().waitFor();
  await screenshot(page, "api-reference-quote");

  assert.deepEqual(foreign, [], "nothing is loaded from another origin");
  assert.deepEqual(violations, [], "no CSP violation");
});

test("/docs: the customer.status.changed webhook with its payload example", { timeout: TEST_TIMEOUT }, async () => {
  const { page, foreign, violations } = await openDocs();
  await page.getByRole("link", { name: "Customer status or KYC status changed" }).first().click();
  const hook = page.locator('section[id$="webhook/POST/customer.status.changed"]');
  await hook.getByRole("heading", { name: "Customer status or KYC status changed" }).waitFor();
  await hook.getByText(`"eventType": "customer.status.changed"`).first().waitFor();
  await hook.getByText(`"previousKycStatus": "IN_PROGRESS"`).first().waitFor();
  await hook.getByText(`"subscriptionId": "${EX.subscriptionId}"`).first().waitFor();
  // The signature scheme is on the page.
  await hook.getByText("webhook-signature", { exact: true }).first().waitFor();
  assert.match(await hook.innerText(), /HMAC-SHA256/);
  await screenshot(page, "api-reference-webhook");
  assert.deepEqual(foreign, []);
  assert.deepEqual(violations, []);
});
