import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { screenshot } from "./support/browser";
import { ADMIN, cardFor, CONSOLE_TEST_TIMEOUT, consoleUrl, createOperatorInConsole, decide, flashError, notice, signedInPage } from "./support/console";
import {
  acceptTransfer,
  awaitFastCheck,
  completeKyc,
  onboardedCustomer,
  openKyc,
  readProfile,
  readTransfer,
  submit,
  submitBody,
  validBeneficiaryId,
} from "../test/integration/support";
import { setupE2eFile } from "./support/setup";

// PEP screening, seen by the compliance team: a customer onboarded under a name of the PEP list
// (the sandbox's fixture of made-up people) sends a small transfer; it waits in review, which the
// partner sees as any review. An analyst finds the PEP case (the list match) and cannot approve the
// transfer; an admin cannot approve the PEP before the customer's ENHANCED KYC, then does; the
// analyst sees the approval on the customer's page and approves the transfer.

const e2e = setupE2eFile();

describe("console: PEP screening", () => {
  test(
    "a PEP's transfer waits in review; the analyst sees the PEP case, the admin approves after ENHANCED KYC, the analyst releases it",
    { timeout: CONSOLE_TEST_TIMEOUT },
    async () => {
      const c = await onboardedCustomer({ firstName: "Amara", lastName: "Okonkwo-Delacroix", dateOfBirth: "1975-01-15" });
      const beneficiaryId = await validBeneficiaryId(c);
      const { transferId } = await acceptTransfer(c, beneficiaryId, { originAmount: "50.000000" });
      assert.equal((await submit(c, transferId, submitBody(beneficiaryId))).status, 202);
      const held = await awaitFastCheck(c, transferId);
      assert.equal(held.transferStatus, "onreview", "a 50 USD transfer waits only because its sender is a PEP");
      // The partner is told nothing: the transfer and the profile read as for any review.
      const partnerView = JSON.stringify([(await readTransfer(c, transferId)).body, (await readProfile(c)).body]);
      assert.doesNotMatch(partnerView, /pep|politic|enhanced|case|flag/i);

      // The analyst: the review card says why, and links to the PEP case.
      const admin = await signedInPage(e2e.browser, ADMIN);
      const analystLogin = await createOperatorInConsole(admin, "reviewer", "Pia Analyst");
      const analyst = await signedInPage(e2e.browser, analystLogin);
      await analyst.goto(consoleUrl("/review"));
      const card = cardFor(analyst, transferId);
      await card.waitFor();
      assert.match((await card.textContent())!, /PEP: ENHANCED KYC and an admin's approval needed/);
      await decide(analyst, card, "Approve", "Small amount, looks fine", "/review");
      assert.match((await flashError(analyst).textContent())!, /The customer is a PEP/);
      assert.equal((await readTransfer(c, transferId)).body.transferStatus, "onreview", "refused: still in review");

      const caseLink = cardFor(analyst, transferId).getByTestId("transfer-case").getByRole("link");
      const caseId = (await caseLink.textContent())!;
      await caseLink.click();
      await analyst.waitForURL((url) => url.pathname === `/console/cases/${caseId}`);
      assert.match(
        (await analyst.getByTestId("case-timeline").textContent())!,
        /PEP list match.*Amara Okonkwo-Delacroix.*ENHANCED KYC and an admin's approval/,
      );
      await screenshot(analyst, "console-pep-case");
      await analyst
        .getByRole("link", { name: /Okonkwo-Delacroix/ })
        .first()
        .click();
      await analyst.waitForURL((url) => url.pathname.startsWith("/console/customers/"));
      const customerPage = analyst.url();
      const pep = analyst.getByTestId("customer-pep");
      assert.match((await pep.textContent())!, /PEP set by PEP screening.*Amara Okonkwo-Delacroix \(OpenSanctions Politically Exposed Persons, HIT/);
      assert.match((await analyst.getByTestId("customer-pep-approval").textContent())!, /ENHANCED KYC\s*not yet.*approval\s*waiting/);
      assert.equal(await analyst.getByRole("button", { name: "Approve PEP" }).count(), 0, "an admin's approval, not an analyst's");

      // The admin: refused before the ENHANCED KYC; approves once the customer's source of funds was approved.
      const approvePep = async () => {
        await admin.goto(customerPage);
        await admin.getByLabel("PEP approval reason").fill("Senior management approval: source of wealth documented");
        const before = admin.url();
        await admin.getByRole("button", { name: "Approve PEP" }).click();
        await admin.waitForURL((url) => url.href !== before && (url.searchParams.has("notice") || url.searchParams.has("error")));
      };
      await approvePep();
      assert.match((await flashError(admin).textContent())!, /ENHANCED KYC \(source of funds\) must be approved/);
      const session = await openKyc(c);
      assert.equal(session.purpose, "ENHANCED");
      assert.equal((await completeKyc(c, session.kycSessionId, "APPROVED")).status, 200);
      await approvePep();
      assert.equal(await notice(admin).textContent(), "PEP approved: the customer's transfers may be approved out of review.");
      await screenshot(admin, "console-pep-approved");
      await admin.context().close();

      // The analyst sees the approval, then approves the transfer out of review.
      await analyst.goto(customerPage);
      assert.match(
        (await analyst.getByTestId("customer-pep-approval").textContent())!,
        new RegExp(`Approved by ${ADMIN.email.replace(".", "\\.")}.*Senior management approval`),
      );
      await analyst.goto(consoleUrl("/review"));
      await decide(analyst, cardFor(analyst, transferId), "Approve", "PEP approved by an admin; small amount", "/review");
      assert.equal(await notice(analyst).textContent(), `Transfer ${transferId} is now validated.`);
      assert.equal((await readTransfer(c, transferId)).body.transferStatus, "validated");
      await analyst.context().close();
    },
  );
});
