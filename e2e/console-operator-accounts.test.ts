import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { Secret, TOTP } from "otpauth";
import { screenshot } from "./support/browser";
import { ADMIN, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, newConsolePage, notice, signedInPage, signIn, submitLogin } from "./support/console";
import { serverNow } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// An operator sets up a TOTP second factor (RFC 6238) and signs in
// with a code; an admin disables an operator, whose open session ends at once; an admin's
// one-time reset link sets a new password. The codes are computed here from the secret the page
// shows, at the server's time (the e2e files move the sandbox clock).

const e2e = setupE2eFile();

/** The code an authenticator app would show `ahead` seconds after the server's now. */
async function codeFor(secret: string, ahead = 0): Promise<string> {
  const now = await serverNow();
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: now.getTime() + ahead * 1000 });
}

describe("console: operator accounts", () => {
  test("TOTP enrolment (QR, key, recovery codes shown once) and sign-in with a code", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const admin = await signedInPage(e2e.browser, ADMIN);
    const who = await createOperatorInConsole(admin, "reviewer", "Tess Totp");
    await admin.context().close();

    const page = await signedInPage(e2e.browser, who);
    await page.getByTestId("operator").click();
    await page.waitForURL(consoleUrl("/account"));
    assert.match((await page.getByTestId("totp-status").textContent()) ?? "", /^Off\./);
    await page.getByRole("link", { name: "Set up two-factor authentication" }).click();
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await page.getByAltText("QR code of the authenticator secret").waitFor();
    const secret = await page.getByLabel("Secret key").inputValue();
    assert.match(await page.getByLabel("otpauth URI").inputValue(), new RegExp(`^otpauth://totp/Remit%20Console:${encodeURIComponent(who.email)}\\?`));
    await page.getByLabel("Code from the app").fill(await codeFor(secret));
    await page.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByTestId("recovery-codes").locator("li");
    await codes.first().waitFor();
    assert.equal(await codes.count(), 10, "ten recovery codes, shown once");
    await screenshot(page, "console-totp-enrolled");
    await page.reload();
    assert.equal(await page.getByTestId("recovery-codes").count(), 0, "not shown again");
    await page.context().close();

    // Sign-in now asks the code after the password; a wrong one is refused.
    const next = await newConsolePage(e2e.browser);
    await next.goto(consoleUrl("/login"));
    await submitLogin(next, who);
    const code = next.getByLabel("Authentication code");
    await code.waitFor();
    await code.fill("000000");
    await next.getByRole("button", { name: "Sign in" }).click();
    await next.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor();
    // The next 30-second step's code (the enrolment spent the current one: a code is good once).
    await code.fill(await codeFor(secret, 30));
    await next.getByRole("button", { name: "Sign in" }).click();
    await next.waitForURL(consoleUrl());
    assert.equal(await next.getByTestId("operator").textContent(), `${who.email} · reviewer`);
    await screenshot(next, "console-totp-signed-in");
    await next.context().close();

    // The Operators page shows it on, with the last sign-in.
    const again = await signedInPage(e2e.browser, ADMIN);
    await again.goto(consoleUrl("/operators"));
    const row = again.getByTestId("operator-row").filter({ hasText: who.email });
    assert.match((await row.textContent()) ?? "", /Last sign-in: (?!never).+ · Two-factor: on/);
    await again.context().close();
  });

  test("a disabled operator's open session ends at once; enabled again, they sign in", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const admin = await signedInPage(e2e.browser, ADMIN);
    const who = await createOperatorInConsole(admin, "reviewer", "Dana Disabled");
    const reviewer = await signedInPage(e2e.browser, who);

    await admin.getByRole("button", { name: `Disable ${who.email}` }).click();
    // The page already carries the creation's notice: wait for this one.
    await notice(admin).filter({ hasText: "is disabled: their sessions have ended" }).waitFor();

    await reviewer.goto(consoleUrl("/review"));
    await reviewer.waitForURL((u) => u.pathname === "/console/login");
    await reviewer.getByRole("alert").filter({ hasText: "Your session has ended." }).waitFor();
    await screenshot(reviewer, "console-disabled-signed-out");
    await submitLogin(reviewer, who);
    await reviewer.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor();

    await admin.getByRole("button", { name: `Enable ${who.email}` }).click();
    await notice(admin).filter({ hasText: "is enabled" }).waitFor();
    await signIn(reviewer, who);
    await reviewer.context().close();

    await admin.goto(consoleUrl("/audit?action=operator.disable"));
    await admin.getByTestId("audit-table").getByText("operator.disable").first().waitFor();
    await admin.context().close();
  });

  test("an admin's one-time reset link sets a new password; used once, it is spent", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const admin = await signedInPage(e2e.browser, ADMIN);
    const who = await createOperatorInConsole(admin, "reviewer", "Rudi Reset");
    const row = admin.getByTestId("operator-row").filter({ hasText: who.email });
    await row.getByRole("button", { name: "Make reset link" }).click();
    const linkField = admin.getByLabel("One-time reset link");
    await linkField.waitFor();
    const link = await linkField.inputValue();
    assert.match(link, /\/console\/reset\/[A-Za-z0-9_-]{40,}$/);
    await admin.context().close();

    const page = await newConsolePage(e2e.browser);
    await page.goto(link);
    const password = `e2e-new-${randomUUID()}`;
    await page.getByLabel("New password (12+)").fill(password);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.waitForURL((u) => u.pathname === "/console/login");
    await signIn(page, { email: who.email, password });
    await page.goto(link);
    await page.getByText("This link is used or expired").waitFor();
    await page.context().close();
  });
});
