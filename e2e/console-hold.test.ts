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
  flashError,
  notice,
  proposalIn,
  signedInPage,
} from "./support/console";
import { fundedScenario, validatedScenario } from "../test/integration/transfers/support";
import {
  acceptTransfer,
  awaitFastCheck,
  completeFunding,
  confirmNow,
  hold,
  mexBeneficiary,
  onboardedCustomer,
  readTransfer,
  registerDevice,
  review,
  screenedBeneficiary,
  states,
  submit,
  submitBody,
} from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// An operator puts a funded transfer on compliance hold from the customer's page,
// then resolves the hold with REJECT in the holds queue; the customer sees the transfer rejected.
// The queue and the transfer page say who held it, when and why.
// A transfer held for screening is decided on its screening case, never here.

const e2e = setupE2eFile();

describe("console: compliance holds", () => {
  test(
    "hold a funded transfer from the customer page, reject it in the holds queue: the customer sees rejected",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await fundedScenario();
      assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funded");
      const page = await signedInPage(e2e.browser, ADMIN);

      // Find the customer by subscriptionId and open their page.
      await page.goto(consoleUrl("/customers"));
      await page.getByLabel("Search customers").fill(s.c.subscriptionId);
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("link", { name: s.c.subscriptionId, exact: true }).click();
      await page.waitForURL(consoleUrl(`/customers/${s.c.subscriptionId}`));
      const row = page.locator("main tr").filter({ has: page.getByText(s.transferId, { exact: true }) });
      assert.equal(await row.locator("td").nth(1).textContent(), "funded");
      await screenshot(page, "console-hold-customer");

      // Hold it.
      await row.getByLabel(`Hold reason for ${s.transferId}`).fill("Sanctions alert on the beneficiary's bank");
      await row.getByRole("button", { name: "Hold" }).click();
      await page.waitForURL((url) => url.pathname === `/console/customers/${s.c.subscriptionId}` && url.searchParams.has("notice"));
      assert.equal(await notice(page).textContent(), `Transfer ${s.transferId} is on hold (was funded).`);
      assert.equal(await row.locator("td").nth(1).textContent(), "spended");
      assert.equal(await row.getByRole("button", { name: "Hold" }).count(), 0, "a held transfer offers no second hold");
      const held = await readTransfer(s.c, s.transferId);
      assert.equal(held.body.transferStatus, "spended", held.text);

      // The holds queue: the card says what the transfer was before the hold; reject it.
      await page.goto(consoleUrl("/holds"));
      const card = cardFor(page, s.transferId);
      await card.waitFor();
      assert.match((await card.textContent()) ?? "", /State before hold: funded/);
      // Who held it, when and why, in the queue and on the transfer page.
      const heldBy = new RegExp(
        `^Held: by ${ADMIN.email.replace(/\./g, "\\.")} on \\d{1,2} \\w{3,4} \\d{4}, [\\d:]{8} UTC: Sanctions alert on the beneficiary's bank$`,
      );
      assert.match((await card.getByTestId("hold-info").textContent()) ?? "", heldBy);
      await screenshot(page, "console-hold-queue");
      await card.getByRole("link", { name: s.transferId }).click();
      await page.waitForURL(consoleUrl(`/transfers/${s.transferId}`));
      assert.match((await page.getByTestId("hold-info").textContent()) ?? "", new RegExp(heldBy.source.replace("^Held: by", "^Held by")));
      assert.match((await page.getByTestId("operator-actions").textContent()) ?? "", /transfer\.hold · Sanctions alert on the beneficiary's bank/);
      await page.goto(consoleUrl("/holds"));
      await card.waitFor();
      await decide(page, card, "Reject", "Confirmed sanctions match", "/holds");
      assert.equal(await notice(page).textContent(), `Transfer ${s.transferId} is now rejected.`);
      assert.equal(await cardFor(page, s.transferId).count(), 0, "the resolved hold left the queue");
      await screenshot(page, "console-hold-rejected");

      // The customer's view.
      const t = await readTransfer(s.c, s.transferId);
      assert.equal(t.status, 200, t.text);
      assert.equal(t.body.transferStatus, "rejected", t.text);
      assert.deepEqual(states(t.body).slice(-3), ["funded", "spended", "rejected"]);
      assert.equal(t.body.stateHistory.at(-1).reasonCode, "TRF_COMPLIANCE_REJECTED");

      // Both actions are in the audit log with their reasons.
      await page.goto(consoleUrl(`/audit?q=${s.transferId}`));
      const actions = await page
        .getByTestId("audit-table")
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => [r.children[2].textContent, r.children[5].textContent]));
      assert.deepEqual(actions, [
        ["transfer.hold.reject", "Confirmed sanctions match"],
        ["transfer.hold", "Sanctions alert on the beneficiary's bank"],
      ]);
      await page.context().close();
    },
  );

  test(
    "a funded transfer held for screening offers no Restore or Reject, links to its case, and a forged reject or restore is refused; confirmed, its money is released under licence by two operators",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      // A close-match beneficiary (one letter off a sandbox watch-list name): MONITORED, with an open case.
      const c = await onboardedCustomer();
      const b = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Olga", lastName: "Watchlistowa" }));
      assert.equal(b.state, "MONITORED");
      const { transferId } = await acceptTransfer(c, b.beneficiaryId);
      assert.equal((await submit(c, transferId, submitBody(b.beneficiaryId))).status, 202);
      assert.equal((await awaitFastCheck(c, transferId)).transferStatus, "onreview");
      // The sandbox's reviewer lets it on and the customer pays; then it is held: funded money under a case.
      const approved = await review(c, transferId, "APPROVE");
      assert.equal(approved.status, 200, approved.text);
      const confirmed = await confirmNow({ customer: c, device: await registerDevice(c) }, transferId);
      const funded = await completeFunding(c, confirmed.fundingSession.fundingSessionId);
      assert.equal(funded.body.transferStatus, "funded", funded.text);
      assert.equal((await hold(c, transferId)).status, 200);
      // A hold no case concerns, whose form the forged posts reuse.
      const plain = await validatedScenario();
      assert.equal((await hold(plain.c, plain.transferId)).status, 200);

      const page = await signedInPage(e2e.browser, ADMIN);
      await page.goto(consoleUrl("/holds"));
      const card = cardFor(page, transferId);
      await card.waitFor();
      assert.equal(await card.getByRole("button", { name: "Reject" }).count(), 0, "no Reject on a screening hold");
      assert.equal(await card.getByRole("button", { name: "Restore" }).count(), 0, "no Restore on a screening hold");
      const held = card.getByTestId("held-by-screening-case");
      assert.match((await held.textContent()) ?? "", /^Held for sanctions screening: .*screening case case_[a-z0-9]+/);
      const caseId = (await held.getByRole("link").textContent())!;
      await screenshot(page, "console-hold-screening");

      // The compliance case that the review opened lists the transfer the same way: no Restore or Reject, the screening case's link.
      const complianceCaseId = (await card.getByTestId("transfer-case").getByRole("link").textContent())!;
      await page.goto(consoleUrl(`/cases/${complianceCaseId}`));
      const linked = page.getByTestId("case-transfers").locator("li").filter({ hasText: transferId });
      await linked.waitFor();
      assert.equal(await linked.getByRole("button", { name: "Reject" }).count(), 0, "no Reject on the compliance case for a screening hold");
      assert.equal(await linked.getByRole("button", { name: "Restore" }).count(), 0, "no Restore on the compliance case for a screening hold");
      assert.equal(await linked.getByTestId("held-by-screening-case").getByRole("link", { name: caseId }).count(), 1);
      await page.goto(consoleUrl("/holds"));

      // Forged: the other card's form with this transfer's id. The server refuses both, naming the case.
      for (const button of ["Reject", "Restore"]) {
        const other = cardFor(page, plain.transferId);
        await other.waitFor();
        await other.locator('input[name="transferId"]').evaluate((el, id) => ((el as HTMLInputElement).value = id), transferId);
        await decide(page, other, button, "Forged from another card", "/holds");
        assert.equal(
          await flashError(page).textContent(),
          `Screening case ${caseId} holds transfer ${transferId}: its money moves only through that case (decide it on the Screening cases page).`,
        );
      }
      const t = await readTransfer(c, transferId);
      assert.equal(t.body.transferStatus, "spended", t.text);
      assert.equal(t.body.refund ?? null, null, "nothing refunded");
      assert.equal((await readTransfer(plain.c, plain.transferId)).body.transferStatus, "spended", "the other hold is untouched");

      // The link leads to the case.
      await cardFor(page, transferId).getByRole("link", { name: caseId }).click();
      await page.waitForURL((url) => url.pathname === "/console/screening-cases" && url.searchParams.get("case") === caseId);
      const caseCard = page.locator("main section").filter({ hasText: b.beneficiaryId });
      const caseText = (await caseCard.textContent()) ?? "";
      assert.ok(caseText.includes(caseId) && caseText.includes("OPEN") && caseText.includes(transferId), caseText);

      // Confirmed: the money is blocked, and leaves only by a release under licence that a second operator approves.
      await decide(page, caseCard, "True match", "Same date of birth and passport number", "/screening-cases");
      assert.match((await notice(page).textContent()) ?? "", /1 transfer\(s\) rejected/);
      await page.goto(consoleUrl(`/screening-cases?case=${caseId}`));
      const blocked = page.getByTestId("blocked-money");
      await blocked.waitFor();
      assert.match((await blocked.textContent()) ?? "", /^Blocked: /);
      await blocked.getByLabel("Licence or authority reference").fill("OFAC-SDGT-2026-4711");
      await blocked.getByLabel("Reason").fill("Licence authorises return to the remitter");
      await blocked.getByRole("button", { name: "Release under licence" }).click();
      await page.waitForURL((url) => url.pathname === "/console/screening-cases" && url.searchParams.has("notice"));
      const proposalId = proposalIn(await notice(page).textContent());
      assert.equal((await readTransfer(c, transferId)).body.refund, null, "a proposal moves nothing");
      const checker = await signedInPage(e2e.browser, await createOperatorInConsole(page, "reviewer", "Rita Release"));
      assert.match(await approveProposal(checker, proposalId, "Licence verified with OFAC"), /under licence OFAC-SDGT-2026-4711: its refund is PENDING/);
      const released = await readTransfer(c, transferId);
      assert.equal(released.body.transferStatus, "rejected", released.text);
      // The sandbox's refund provider moves on by itself within seconds.
      assert.ok(["PENDING", "PROCESSING", "COMPLETED"].includes(released.body.refund?.refundStatus), released.text);
      await page.goto(consoleUrl(`/screening-cases?case=${caseId}`));
      assert.match((await page.getByTestId("blocked-money").textContent()) ?? "", /^Nothing blocked now · released under licence OFAC-SDGT-2026-4711 on /);
      await screenshot(page, "console-screening-case-released");
      for (const p of [page, checker]) await p.context().close();
    },
  );
});
