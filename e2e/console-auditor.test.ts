import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Locator } from "playwright-core";
import { screenshot } from "./support/browser";
import { ADMIN, cardFor, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, newConsolePage, signedInPage, signIn } from "./support/console";
import { onreviewTransfer } from "./support/journey";
import { onboardedCustomer, readTransfer, validBeneficiaryId } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// The examiner's read-only role (`auditor`): created by an admin, it reads what an admin reads
// (the transfers, a compliance case, the ledger's export), is offered no action (its console hides
// every form that changes something), and an action it posts anyway is refused on the server (the
// forbidden page), its subject left as it was.

const e2e = setupE2eFile();

describe("console: auditor", () => {
  test("an auditor sees the transfers, a case and an export; an action they post is refused", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    const c = await onboardedCustomer();
    const s = await onreviewTransfer({ c, beneficiaryId: await validBeneficiaryId(c) });
    const admin = await signedInPage(e2e.browser, ADMIN);
    const auditor = await createOperatorInConsole(admin, "auditor", "Ed Examiner");
    await admin.context().close();

    const page = await newConsolePage(e2e.browser);
    await signIn(page, auditor);
    assert.equal(await page.getByTestId("operator").textContent(), `${auditor.email} · auditor`);
    // The admin's pages are in the auditor's header.
    const links = await page.getByRole("navigation", { name: "Console" }).locator("a").allTextContents();
    for (const name of ["Transfers", "Cases", "Ledger", "Audit log", "Operators"]) assert.ok(links.includes(name), `${name} in ${links.join(", ")}`);

    await page.goto(consoleUrl("/transfers"));
    assert.equal(new URL(page.url()).pathname, "/console/transfers");
    await page.getByText(s.transferId).first().waitFor();
    await page.goto(consoleUrl("/audit"));
    assert.equal(new URL(page.url()).pathname, "/console/audit", "an admin page is read");

    // The case the review rule opened, from the Review page's row.
    await page.goto(consoleUrl("/review"));
    const card = cardFor(page, s.transferId);
    const caseLink = card.getByTestId("transfer-case").getByRole("link");
    const caseId = (await caseLink.textContent())!;
    await caseLink.click();
    await page.waitForURL((url) => url.pathname === `/console/cases/${caseId}`);
    assert.match((await page.getByTestId("case-summary").textContent())!, /OPEN/);
    await screenshot(page, "console-auditor-case");

    // An export: the general ledger's CSV, as the auditor's session downloads it.
    const csv = await page.request.get(consoleUrl("/ledger/export"));
    assert.equal(csv.status(), 200);
    assert.match(csv.headers()["content-type"], /^text\/csv/);

    // The transactions export for an examiner: the transfer with its money, state and monitoring outcome.
    await page.goto(consoleUrl("/transfers"));
    await page.getByTestId("transactions-export").waitFor();
    const json = await page.request.get(consoleUrl("/transfers/export?format=json"));
    assert.equal(json.status(), 200);
    const exported = ((await json.json()) as { transactions: Record<string, string | null>[] }).transactions.find((t) => t.transferId === s.transferId);
    assert.ok(exported, "the transfer is exported");
    assert.equal(exported.state, "onreview");
    assert.equal(exported.originAmount, "1000.000000");
    const transactionsCsv = await page.request.get(consoleUrl("/transfers/export?format=csv"));
    assert.match(await transactionsCsv.text(), new RegExp(`^${s.transferId},`, "m"));

    // No action is offered: the Review card and the case show no button that changes anything; the
    // transfers' search and the auditor's own password form stay.
    await page.goto(consoleUrl("/review"));
    await card.waitFor();
    assert.equal(await card.getByRole("button").count(), 0, "no Approve, Reject or any other action on the card");
    await page.goto(consoleUrl(`/cases/${caseId}`));
    await page.getByTestId("case-summary").waitFor();
    assert.equal(await page.locator("main").getByRole("button").count(), 0, "no Take, Investigate, Note or Close on the case");
    await page.goto(consoleUrl("/transfers"));
    await page.getByRole("search").getByRole("button").first().waitFor();
    assert.equal((await page.getByRole("search").getByRole("button").count()) > 0, true, "the search stays");
    await page.goto(consoleUrl("/account"));
    await page.getByRole("button", { name: "Change password" }).waitFor();

    // An action posted anyway (the forms are in the page, not shown: a forged post): refused by
    // the server, nothing changed. The Review page's Approve, then a case's Take.
    const post = async (scope: Locator, button: string, fields: Record<string, string> = {}) => {
      await scope
        .locator("button", { hasText: new RegExp(`^${button}$`) })
        .first()
        .evaluate((submitter: HTMLButtonElement, values: Record<string, string>) => {
          const form = submitter.form!;
          for (const [name, value] of Object.entries(values)) (form.elements.namedItem(name) as HTMLInputElement).value = value;
          form.requestSubmit(submitter);
        }, fields);
      await page.getByTestId("console-forbidden").waitFor();
      assert.equal(new URL(page.url()).pathname, "/console/forbidden");
    };
    await page.goto(consoleUrl("/review"));
    await card.waitFor();
    await post(card, "Approve", { reason: "An examiner tries to release it" });
    await page.goto(consoleUrl(`/cases/${caseId}`));
    await page.getByTestId("case-summary").waitFor();
    await post(page.locator("main"), "Take");
    await page.goto(consoleUrl(`/cases/${caseId}`));
    assert.match((await page.getByTestId("case-summary").textContent())!, /OPEN/);
    assert.equal(await page.getByText(`assigned to ${auditor.email}`).count(), 0, "not taken");
    assert.equal((await readTransfer(c, s.transferId)).body.transferStatus, "onreview");
    await screenshot(page, "console-auditor-refused");
    await page.context().close();
  });
});
