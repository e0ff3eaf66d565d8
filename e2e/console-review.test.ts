import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { screenshot } from "./support/browser";
import { ADMIN, cardFor, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, decide, flashError, notice, signedInPage } from "./support/console";
import { onreviewTransfer } from "./support/journey";
import { type Scenario } from "../test/integration/transfers/support";
import { completeFunding, confirmNow, onboardedCustomer, readTransfer, registerDevice, states, validBeneficiaryId } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// A transfer the fast-check sent to review (amount at the threshold) is approved by an
// operator in the console, then confirmed and funded by the customer; the audit log shows who did
// it and why. Two operators deciding the same item: the second is told it is already decided.

const e2e = setupE2eFile();

async function reviewScenario(): Promise<Scenario> {
  const c = await onboardedCustomer();
  return onreviewTransfer({ c, beneficiaryId: await validBeneficiaryId(c) });
}

/** The audit rows whose target is `targetId`, as {who, action, target, change, reason}. */
async function auditRows(page: Page, targetId: string) {
  await page.goto(consoleUrl(`/audit?q=${encodeURIComponent(targetId)}`));
  const table = page.getByTestId("audit-table");
  await table.waitFor();
  return table.locator("tbody tr").evaluateAll((rows) =>
    rows.map((r) => {
      const [, who, action, target, change, reason] = Array.from(r.querySelectorAll("td"), (td) => td.textContent ?? "");
      return { who, action, target, change, reason };
    }),
  );
}

describe("console: review queue", () => {
  test(
    "an operator approves a transfer in review; the customer confirms and funds it; the audit log has the decision and its reason",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await reviewScenario();
      const page = await signedInPage(e2e.browser, ADMIN);

      await page.goto(consoleUrl("/review"));
      const card = cardFor(page, s.transferId);
      await card.waitFor();
      const text = (await card.textContent()) ?? "";
      // Amounts for people: "USD 1,000.00 → MXN 17,123.45".
      assert.match(text, /USD\s1,000\.00 → MXN\s[0-9,]+\.\d\d/);
      assert.match(text, /Why held: amount ≥ 1000 USD/);
      assert.match(text, /Customer: Ana Tester[A-Za-z]+ ?cus_[A-Za-z0-9]+ \(VALID, KYC COMPLETED\)/);
      assert.ok(!text.includes("002010077777777771"), "the card never shows the full destination identifier");
      await screenshot(page, "console-review-queue");

      const reason = "Source of funds verified by phone";
      await decide(page, card, "Approve", reason, "/review");
      assert.equal(await notice(page).textContent(), `Transfer ${s.transferId} is now validated.`);
      assert.equal(await cardFor(page, s.transferId).count(), 0, "the decided transfer left the queue");
      await screenshot(page, "console-review-approved");

      // The customer side: validated, then confirm on the device and fund (sandbox provider).
      const validated = await readTransfer(s.c, s.transferId);
      assert.equal(validated.body.transferStatus, "validated", validated.text);
      assert.deepEqual(states(validated.body), ["registered", "onreview", "validated"]);
      const device = await registerDevice(s.c);
      const confirmed = await confirmNow({ customer: s.c, device }, s.transferId);
      assert.equal(confirmed.transferStatus, "funding");
      const funded = await completeFunding(s.c, confirmed.fundingSession.fundingSessionId);
      assert.equal(funded.status, 200, funded.text);
      assert.equal(funded.body.transferStatus, "funded", funded.text);
      assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "funded");

      // The audit log: one entry, by the admin, with the before and after states and the reason.
      assert.deepEqual(await auditRows(page, s.transferId), [
        {
          who: ADMIN.email,
          action: "transfer.review.approve",
          target: `transfer:${s.transferId}`,
          change: `{"state":"onreview"} → {"state":"validated"}`,
          reason,
        },
      ]);
      await screenshot(page, "console-review-audit");
      await page.context().close();
    },
  );

  test(
    "two operators decide the same transfer: the second is told it was already decided, and the first decision stands",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const s = await reviewScenario();
      const admin = await signedInPage(e2e.browser, ADMIN);
      const reviewer = await signedInPage(e2e.browser, await createOperatorInConsole(admin, "reviewer", "Second Reviewer"));

      // Both have the queue open with the same transfer.
      await admin.goto(consoleUrl("/review"));
      await reviewer.goto(consoleUrl("/review"));
      await cardFor(admin, s.transferId).waitFor();
      await cardFor(reviewer, s.transferId).waitFor();

      // The first approves...
      await decide(admin, cardFor(admin, s.transferId), "Approve", "Documents checked", "/review");
      assert.equal(await notice(admin).textContent(), `Transfer ${s.transferId} is now validated.`);

      // ...the second, on a stale page, rejects: refused, nothing changes.
      await decide(reviewer, cardFor(reviewer, s.transferId), "Reject", "Looks suspicious", "/review");
      assert.equal(await flashError(reviewer).textContent(), "Already decided by someone else (now validated): nothing was changed.");
      assert.equal(await notice(reviewer).count(), 0);
      await screenshot(reviewer, "console-review-already-decided");

      const t = await readTransfer(s.c, s.transferId);
      assert.equal(t.body.transferStatus, "validated", t.text);
      assert.deepEqual(states(t.body), ["registered", "onreview", "validated"]);
      const rows = await auditRows(admin, s.transferId);
      assert.deepEqual(
        rows.map((r) => [r.who, r.action, r.reason]),
        [[ADMIN.email, "transfer.review.approve", "Documents checked"]],
        "only the decision that took effect is audited",
      );
      await admin.context().close();
      await reviewer.context().close();
    },
  );
});
