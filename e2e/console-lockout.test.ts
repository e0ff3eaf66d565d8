import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { screenshot } from "./support/browser";
import { setupE2eFile } from "./support/setup";
import { CONSOLE_TEST_TIMEOUT, consoleUrl, newConsolePage, submitLogin } from "./support/console";

// After five wrong passwords for one operator email the sign-in form says how long
// to wait, instead of "Wrong email or password." (an unknown email locks the same way).

const e2e = setupE2eFile();

test("the sixth wrong password shows the lockout and its wait on the sign-in page", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
  const page = await newConsolePage(e2e.browser);
  await page.goto(consoleUrl("/login"));
  const who = { email: `locked.${randomUUID().slice(0, 8)}@example.com`, password: "not-the-password" };
  for (let i = 0; i < 5; i++) {
    await submitLogin(page, who);
    await page.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
  }
  await submitLogin(page, who);
  const alert = page.getByRole("alert").filter({ hasText: /^Too many failed sign-ins\. Try again in 15 minutes\.$/ });
  await alert.waitFor();
  assert.equal(new URL(page.url()).pathname, "/console/login");
  await screenshot(page, "console-login-locked");
  await page.context().close();
});
