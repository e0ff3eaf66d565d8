import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { Browser, Locator, Page } from "playwright-core";
import { TIMEOUT } from "./browser";
import { withoutDevReloads } from "./dev-server";
import { BASE_URL } from "../../test/integration/support";

/**
 * The operator console side of the e2e harness: sign-in through the real next-auth form, a
 * desktop-sized context per operator (its own cookies), and locators for the queue cards.
 */

/** The sandbox's seeded administrator (OPERATOR_EMAIL / OPERATOR_PASSWORD defaults). */
export const ADMIN = { email: "admin@example.com", password: "sandbox-operator-password" } as const;

export interface OperatorCredentials {
  email: string;
  password: string;
}

/** Console pages render on the server and compile on first load under `next dev`: be patient. */
export const CONSOLE_TIMEOUT = TIMEOUT * 3;

/** node:test timeout of one console journey (several first compiles under `next dev`). */
export const CONSOLE_TEST_TIMEOUT = TIMEOUT * 12;

export const consoleUrl = (path = "") => `${BASE_URL}/console${path}`;

/** A page in a new desktop-sized context (one operator = one context = one cookie jar). */
export async function newConsolePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(CONSOLE_TIMEOUT);
  context.setDefaultNavigationTimeout(CONSOLE_TIMEOUT);
  await withoutDevReloads(context);
  return context.newPage();
}

/** Fills and submits the sign-in form (the page must be on /console/login). */
export async function submitLogin(page: Page, who: OperatorCredentials): Promise<void> {
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in through /console/login and waits for the overview with the operator's badge. */
export async function signIn(page: Page, who: OperatorCredentials = ADMIN): Promise<void> {
  await page.goto(consoleUrl("/login"));
  await submitLogin(page, who);
  await page.waitForURL(consoleUrl());
  const badge = page.getByTestId("operator");
  await badge.waitFor();
  assert.match((await badge.textContent()) ?? "", new RegExp(`^${who.email.replace(/[.+]/g, "\\$&")} · `));
}

/** A new context signed in as `who`. */
export async function signedInPage(browser: Browser, who: OperatorCredentials = ADMIN): Promise<Page> {
  const page = await newConsolePage(browser);
  await signIn(page, who);
  return page;
}

/** The queue card (TransferCard or beneficiary card) whose title carries `id`. */
export function cardFor(page: Page, id: string): Locator {
  return page.locator("main section").filter({ has: page.locator("h2").getByText(id, { exact: true }) });
}

/** The flash message after a console action: role=status (notice) or role=alert (error). */
export function notice(page: Page): Locator {
  return page.locator("main").getByRole("status");
}

export function flashError(page: Page): Locator {
  return page.locator("main").getByRole("alert");
}

/**
 * Fills the reason of a card's decision form, clicks `button`, and waits for the redirect back to
 * `path` with ?notice= or ?error=.
 */
export async function decide(page: Page, card: Locator, button: string, reason: string, path: string): Promise<void> {
  await card.getByLabel("Reason").fill(reason);
  await card.getByRole("button", { name: button, exact: true }).click();
  await page.waitForURL((url) => url.pathname === `/console${path}` && (url.searchParams.has("notice") || url.searchParams.has("error")));
}

/** Creates an operator through /console/operators (the page must be signed in as an admin). */
export async function createOperatorInConsole(page: Page, role: "reviewer" | "admin" | "auditor", name = `E2E ${role}`): Promise<OperatorCredentials> {
  const who = { email: `${role}.${randomUUID().slice(0, 8)}@example.com`, password: `e2e-${randomUUID()}` };
  await page.goto(consoleUrl("/operators"));
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Role").selectOption(role);
  await page.getByLabel("Initial password").fill(who.password);
  await page.getByRole("button", { name: "Create" }).click();
  await page.waitForURL((url) => url.pathname === "/console/operators" && url.searchParams.has("notice"));
  assert.equal(await notice(page).textContent(), `Operator ${who.email} (${role}) created.`);
  return who;
}

/** The proposal a console notice names after an action under dual control was proposed. */
export function proposalIn(text: string | null): string {
  const id = /Proposed for a second operator's approval \((prop_[a-z0-9]+)\)/.exec(text ?? "")?.[1];
  assert.ok(id, `a proposal, not: ${text}`);
  return id;
}

/** On the proposal's page (/console/approvals/<id>), `page`'s operator approves it; the approval's notice. */
export async function approveProposal(page: Page, proposalId: string, reason = "Second pair of eyes: agreed"): Promise<string> {
  await page.goto(consoleUrl(`/approvals/${proposalId}`));
  await page.getByLabel("Reason").fill(reason);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  const done = page
    .locator("main")
    .getByRole("status")
    .filter({ hasText: `Approved ${proposalId}` });
  await done.waitFor();
  return (await done.textContent()) ?? "";
}
