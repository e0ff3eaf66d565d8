import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { screenshot } from "./support/browser";
import {
  ADMIN,
  approveProposal,
  cardFor,
  CONSOLE_TEST_TIMEOUT,
  consoleUrl,
  createOperatorInConsole,
  decide,
  notice,
  proposalIn,
  signedInPage,
} from "./support/console";
import { onreviewTransfer } from "./support/journey";
import { readTransfer, tierTwoCustomer, validBeneficiaryId } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// An operator's proposal to release a 5,000 USD transfer from review
// is refused to its own author and approved by a second operator; the audit log names both.

const e2e = setupE2eFile();

describe("console: dual control", () => {
  test("releasing a 5,000 USD transfer: proposed by one reviewer, refused to them, approved by another", { timeout: CONSOLE_TEST_TIMEOUT }, async () => {
    // 5,000 USD is above tier 1's daily limit: the customer has stepped up.
    const c = await tierTwoCustomer();
    const s = await onreviewTransfer({ c, beneficiaryId: await validBeneficiaryId(c) }, "5000.000000");
    const admin = await signedInPage(e2e.browser, ADMIN);
    const makerCredentials = await createOperatorInConsole(admin, "reviewer", "Mia Maker");
    const checkerCredentials = await createOperatorInConsole(admin, "reviewer", "Chen Checker");
    await admin.context().close();

    const maker = await signedInPage(e2e.browser, makerCredentials);
    await maker.goto(consoleUrl("/review"));
    const card = cardFor(maker, s.transferId);
    await card.waitFor();
    await decide(maker, card, "Approve", "Source of funds: payslips seen", "/review");
    const proposalId = proposalIn(await notice(maker).textContent());
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "onreview", "a proposal moves nothing");
    await maker.goto(consoleUrl());
    assert.ok(Number(await maker.getByTestId("count-approvals").textContent()) >= 1, "the Overview counts the queued proposal");

    // Its author cannot approve it.
    await maker.goto(consoleUrl(`/approvals/${proposalId}`));
    await maker.getByText("You proposed this").waitFor();
    await maker.getByLabel("Reason").fill("I am sure");
    await maker.getByRole("button", { name: "Approve", exact: true }).click();
    await maker.locator("main").getByRole("alert").filter({ hasText: "a different operator must approve it" }).waitFor();
    await screenshot(maker, "console-dual-control-self-approval-refused");
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "onreview");

    // A second operator approves: the release runs, as them.
    const checker = await signedInPage(e2e.browser, checkerCredentials);
    await checker.goto(consoleUrl("/approvals"));
    await checker.locator("main section").filter({ hasText: proposalId }).waitFor();
    assert.match(await approveProposal(checker, proposalId, "Agreed: evidence on file"), new RegExp(`Transfer ${s.transferId} is now validated`));
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "validated");
    await screenshot(checker, "console-dual-control-approved");

    // The audit log: the proposal by the maker, the release by the checker naming both.
    const audit = await signedInPage(e2e.browser, ADMIN);
    await audit.goto(consoleUrl(`/audit?q=${s.transferId}`));
    const rows = audit.getByTestId("audit-table").locator("tbody tr");
    await rows.first().waitFor();
    const text = (await rows.allTextContents()).join("\n");
    assert.match(text, new RegExp(`${checkerCredentials.email}.*transfer\\.review\\.approve`));
    assert.match(text, new RegExp(`${makerCredentials.email}.*proposal\\.create`));
    assert.ok(text.includes(makerCredentials.email) && text.includes(proposalId));
    for (const p of [maker, checker, audit]) await p.context().close();
  });
});
