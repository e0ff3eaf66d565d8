import { launchBrowser, newPage } from "/work/main/e2e/support/browser";
(async () => {
  const b = await launchBrowser();
  const page = await newPage(b);
  page.setDefaultTimeout(120000); page.setDefaultNavigationTimeout(120000);
  await page.goto("http://127.0.0.1:3308/console");
  console.log("url after /console:", page.url());
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByLabel("Password").fill("sandbox-operator-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/console$/);
  console.log("signed in:", page.url(), await page.getByTestId("operator").textContent());
  for (const p of ["review", "holds", "beneficiaries", "customers", "partners", "webhooks", "audit", "operators"]) {
    const t = Date.now();
    const r = await page.goto("http://127.0.0.1:3308/console/" + p);
    console.log(p, r?.status(), page.url(), Date.now() - t, "ms", await page.locator("h1").first().textContent());
  }
  await b.close();
})();
