import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page, Request } from "playwright-core";
import { screenshot } from "./support/browser";
import {
  ADMIN,
  cardFor,
  CONSOLE_TEST_TIMEOUT,
  consoleUrl,
  createOperatorInConsole,
  decide,
  newConsolePage,
  notice,
  signedInPage,
  signIn,
  submitLogin,
  type OperatorCredentials,
} from "./support/console";
import { mexBeneficiary, onboardedCustomer, readBeneficiary, screenedBeneficiary } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// Sign-in, roles and sign-out of the operator console. A reviewer works the queues;
// every admin page sends them to /console/forbidden, and their navigation has no admin links.

// The header's links in order (grouped in menus, every page reachable).
const QUEUE_LINKS = [
  "Overview",
  "Transfers",
  "Review",
  "Holds",
  "Bank credits",
  "Claims",
  "Cases",
  "Screening cases",
  "Screening",
  "KYC review",
  "Customers",
  "Your account",
  "Approvals",
];
const ADMIN_LINKS = [
  "Overview",
  "Transfers",
  "Review",
  "Holds",
  "Bank credits",
  "Claims",
  "Refunds",
  "Payout files",
  "Payout liquidity",
  "Cases",
  "Screening cases",
  "Screening",
  "KYC review",
  "Customers",
  "Monitoring",
  "Ledger",
  "Journals",
  "Month end",
  "Reconciliation",
  "Partners",
  "Webhooks",
  "Failed deliveries",
  "Configuration",
  "Operators",
  "Audit log",
  "Your account",
  "Approvals",
];
const ADMIN_PAGES = [
  "/partners",
  "/webhooks",
  "/deliveries",
  "/payout-files",
  "/liquidity",
  "/refunds",
  "/ledger",
  "/ledger/export",
  "/monitoring",
  "/configuration",
  "/audit",
  "/operators",
];

const e2e = setupE2eFile();

// Every link, a closed menu's included; Approvals without its badge's count.
const navLinks = async (page: Page) =>
  (await page.getByRole("navigation", { name: "Console" }).locator("a").allTextContents()).map((t) => t.replace(/\d+$/, "").trim());

describe("console: sign-in", () => {
  test("a wrong password is refused with a message, on the sign-in page", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const page = await newConsolePage(e2e.browser);
    await page.goto(consoleUrl("/login"));
    await submitLogin(page, { email: ADMIN.email, password: "not-the-password" });
    const alert = page.getByRole("alert").filter({ hasText: "Wrong email or password." });
    await alert.waitFor();
    assert.equal(new URL(page.url()).pathname, "/console/login");
    assert.equal(new URL(page.url()).search, "");
    await screenshot(page, "console-login-refused");
    await page.context().close();
  });

  test("the form cannot be submitted before the page's script runs (no native GET with the password)", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const page = await newConsolePage(e2e.browser);
    const leaks: string[] = [];
    page.on("request", (r: Request) => {
      if (r.url().includes("password=")) leaks.push(r.url());
    });
    await page.route("**/_next/static/**", (route) => route.abort());
    await page.goto(consoleUrl("/login"));
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    assert.equal(await page.getByRole("button", { name: "Sign in" }).isDisabled(), true);
    await page.getByLabel("Password").press("Enter"); // implicit submission: nothing either
    await page.waitForTimeout(500);
    assert.deepEqual(leaks, []);
    assert.equal(new URL(page.url()).search, "");
    await page.context().close();
  });

  test(
    "a CSRF cookie replaced by a concurrent first request does not silently bounce the operator back to the sign-in page",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const page = await newConsolePage(e2e.browser);
      await page.goto(consoleUrl("/login"));
      // What the race produces: the token the form sends no longer matches next-auth's cookie.
      await page.route("**/api/auth/csrf", (route) => route.fulfill({ json: { csrfToken: "0".repeat(64) } }), { times: 1 });
      await submitLogin(page, ADMIN);
      await page.waitForURL(consoleUrl());
      await page.getByTestId("operator").waitFor();
      assert.equal(await page.getByTestId("operator").textContent(), `${ADMIN.email} · admin`);
      await page.context().close();
    },
  );
});

describe("console: roles", () => {
  let reviewer: OperatorCredentials;

  test("an admin creates a reviewer in /console/operators", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const admin = await signedInPage(e2e.browser, ADMIN);
    assert.deepEqual(await navLinks(admin), ADMIN_LINKS);
    reviewer = await createOperatorInConsole(admin, "reviewer", "Rita Reviewer");
    const listed = admin.locator("main li").filter({ hasText: reviewer.email });
    assert.equal(await listed.locator("p").first().textContent(), `${reviewer.email} · Rita Reviewer · reviewer`);
    assert.match((await listed.textContent()) ?? "", /Last sign-in: never · Two-factor: off/);
    await screenshot(admin, "console-operators-created");
    await admin.context().close();
  });

  test("a reviewer works the queues, is sent to /console/forbidden from every admin page, and signs out", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    assert.ok(reviewer, "the previous test created the reviewer");
    const c = await onboardedCustomer();
    const { beneficiaryId, state } = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
    assert.equal(state, "BLOCKED");

    const page = await newConsolePage(e2e.browser);
    await signIn(page, reviewer);
    assert.equal(await page.getByTestId("operator").textContent(), `${reviewer.email} · reviewer`);
    assert.deepEqual(await navLinks(page), QUEUE_LINKS, "no admin links for a reviewer");
    // Every queue a reviewer works is counted; the admin pages' tiles are not shown.
    for (const name of ["review", "holds", "beneficiaries", "screening-cases", "kyc-review", "bank-credits", "claims"]) {
      assert.match((await page.getByTestId(`count-${name}`).textContent()) ?? "", /^\d+$/);
    }
    for (const name of ["refunds", "payout-files", "deliveries"]) assert.equal(await page.getByTestId(`count-${name}`).count(), 0, name);
    await screenshot(page, "console-reviewer-overview");

    // The queues open...
    for (const [path, title] of [
      ["/review", "Review queue"],
      ["/holds", "Compliance holds"],
      ["/screening-cases", "Screening cases"],
      ["/beneficiaries", "Beneficiary screening"],
    ]) {
      await page.goto(consoleUrl(path));
      assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), title);
      assert.equal(new URL(page.url()).pathname, `/console${path}`);
    }
    // ...and their decisions are the reviewer's to make.
    await decide(page, cardFor(page, beneficiaryId), "Monitored", "Partial match, keep watching", "/beneficiaries");
    assert.equal(await notice(page).textContent(), "Beneficiary Viktor Sanctionov is now MONITORED.");
    assert.equal((await readBeneficiary(c, beneficiaryId)).body.state, "MONITORED");

    // Admin pages, including the detail pages, land on the forbidden page.
    // The customer a case is about is an analyst's to read; changing it is an admin's.
    await page.goto(consoleUrl(`/customers/${c.subscriptionId}`));
    await page.getByTestId("customer-risk-flags").waitFor();
    assert.equal(await page.getByRole("button", { name: "Set status" }).count(), 0, "no status form for a reviewer");
    for (const path of [...ADMIN_PAGES, "/partners/partner_demo"]) {
      await page.goto(consoleUrl(path));
      await page.getByTestId("console-forbidden").waitFor();
      assert.equal(new URL(page.url()).pathname, "/console/forbidden", `${path} as a reviewer`);
      assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Not allowed");
    }
    await screenshot(page, "console-reviewer-forbidden");
    await page.getByRole("link", { name: "Back to the queues" }).click();
    await page.waitForURL(consoleUrl());

    // Sign out: back to the sign-in page, and the console is closed again.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(consoleUrl("/login"));
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await page.goto(consoleUrl());
    await page.waitForURL(consoleUrl("/login"));
    assert.equal(await page.getByTestId("operator").count(), 0);
    await page.goto(consoleUrl("/review"));
    await page.waitForURL(consoleUrl("/login"));
    await screenshot(page, "console-signed-out");
    await page.context().close();
  });
});
