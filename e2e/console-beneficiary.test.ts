import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { screenshot } from "./support/browser";
import { ADMIN, cardFor, CONSOLE_TEST_TIMEOUT, consoleUrl, decide, flashError, notice, signedInPage } from "./support/console";
import { call, mexBeneficiary, onboardedCustomer, readBeneficiary, screenedBeneficiary, type Customer } from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// A beneficiary blocked by screening (an exact watch-list name) is released by an
// operator in the screening queue (decide VALID); the customer can then quote with it.

const e2e = setupE2eFile();

const quote = (c: Customer, beneficiaryId: string) =>
  call("POST", "/v1/core/quotes", { token: c.token, body: { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId } });

describe("console: beneficiary screening", () => {
  test(
    "a BLOCKED beneficiary released as VALID by an operator can be quoted; a stale second decision is refused",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const c = await onboardedCustomer();
      const { beneficiaryId, state } = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Viktor", lastName: "Sanctionov" }));
      assert.equal(state, "BLOCKED");
      const refused = await quote(c, beneficiaryId);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.error.code, "beneficiary.stateBlocking", refused.text);

      const page = await signedInPage(e2e.browser, ADMIN);
      const stale = await signedInPage(e2e.browser, ADMIN); // a second operator with the queue open
      await page.goto(consoleUrl("/beneficiaries"));
      await stale.goto(consoleUrl("/beneficiaries"));
      const card = cardFor(page, beneficiaryId);
      await card.waitFor();
      await cardFor(stale, beneficiaryId).waitFor();
      const text = (await card.textContent()) ?? "";
      assert.match(text, /Viktor Sanctionov/);
      assert.match(text, /BLOCKED/);
      // The customer by name, the id beside it.
      assert.match(text, /FAMILY of Ana Tester[A-Za-z]+ ?cus_[A-Za-z0-9]+/);
      assert.match(text, /screening result HIT/);
      await screenshot(page, "console-beneficiary-queue");

      await decide(page, card, "Valid", "False positive: different date of birth", "/beneficiaries");
      assert.equal(await notice(page).textContent(), "Beneficiary Viktor Sanctionov is now VALID.");
      assert.equal(await cardFor(page, beneficiaryId).count(), 0, "a VALID beneficiary leaves the queue");
      await screenshot(page, "console-beneficiary-released");

      // The second operator, deciding on what they saw (BLOCKED), is told and changes nothing.
      await decide(stale, cardFor(stale, beneficiaryId), "Blocked", "Still looks like the listed person", "/beneficiaries");
      assert.equal(await flashError(stale).textContent(), "Already decided by someone else (now VALID): nothing was changed.");

      const read = await readBeneficiary(c, beneficiaryId);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.state, "VALID", read.text);
      const quoted = await quote(c, beneficiaryId);
      assert.equal(quoted.status, 200, quoted.text);
      assert.equal(quoted.body.beneficiaryId ?? beneficiaryId, beneficiaryId);
      assert.equal(typeof quoted.body.quoteId, "string");

      // The audit log has the release with its reason, and nothing for the refused decision.
      await page.goto(consoleUrl(`/audit?q=${beneficiaryId}`));
      const rows = await page
        .getByTestId("audit-table")
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((r) => Array.from(r.children, (td) => td.textContent)));
      assert.deepEqual(
        rows.map((r) => [r[1], r[2], r[4], r[5]]),
        [[ADMIN.email, "beneficiary.decide", `{"state":"BLOCKED"} → {"state":"VALID"}`, "False positive: different date of birth"]],
      );
      await page.context().close();
      await stale.context().close();
    },
  );

  test(
    "the queue card and the customer page show why screening matched (list, entry, alias, program, score, fields)",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      // An alias of OFAC SDN entry 2674 (ABBAS, Abu; SDGT) with its listed day of birth: name and
      // date of birth agree, so it blocks (a name alone is a case for a human).
      const c = await onboardedCustomer();
      const { beneficiaryId, state } = await screenedBeneficiary(c, mexBeneficiary({ firstName: "Muhammad", lastName: "Zaydan", dateOfBirth: "1948-12-10" }));
      assert.equal(state, "BLOCKED");
      const page = await signedInPage(e2e.browser, ADMIN);
      await page.goto(consoleUrl("/beneficiaries"));
      const evidence = cardFor(page, beneficiaryId).getByTestId("screening-evidence");
      await evidence.waitFor();
      const text = (await evidence.textContent()) ?? "";
      for (const part of ["HIT", "ofac-sdn", "2674", "ZAYDAN, Muhammad", "(alias of ABBAS, Abu)", "SDGT", "1.000", "firstName, lastName"]) {
        assert.ok(text.includes(part), `evidence shows ${part}: ${text}`);
      }
      await screenshot(page, "console-beneficiary-evidence");

      // The customer page shows the customer's own sanctions screening (a clean one: no match);
      // the PEP screening's card beside it has evidence of its own.
      await page.goto(consoleUrl(`/customers/${c.subscriptionId}`));
      const own = page.locator("section").filter({ hasText: "Sanctions screening" }).getByTestId("screening-evidence");
      await own.waitFor();
      assert.match((await own.textContent()) ?? "", /Screening CLEAR .* against .*ofac-sdn slv_/);
      await page.context().close();
    },
  );
});
