/**
 * The whole customer journey, once per sandbox corridor (decisions 6): register, profile resident in
 * the corridor's origin, KYC, device, beneficiary in the destination, quote in the corridor's
 * currencies, disclosure, accept, submit with a known-good bank account of the corridor's format,
 * fast-check to validated, device-bound confirm, funding, payout network to paid. The final
 * stateHistory must tell that story in order.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { sandboxTestIdentifiers, type SandboxCorridor } from "@/lib/payments/payout-identifiers/sandbox-identifiers";
import { corridorTransfer, awaitState, CORRIDORS, submitTransfer, corridorBeneficiary, corridorCustomer } from "./confirm-support";
import { advance, completeFunding, confirmNow, readTransfer, registerDevice, transferDetail, useServicePricing } from "../support";

const EXPECTED_HISTORY = [
  ["registered", "TRF_INITIATION_QUOTE_ACCEPTED"],
  ["validated", "TRF_CHECK_PASSED"],
  ["funding", "TRF_AUTH_DEVICE_VERIFIED"],
  ["funded", "TRF_FUNDING_SUCCESS"],
  ["topay", "TRF_NETWORK_TO_PAY"],
  ["reqpay", "TRF_NETWORK_REQUEST_PAY"],
  ["paid", "TRF_PAID"],
];

before(useServicePricing);

describe("journeys: one full transfer to paid per sandbox corridor", () => {
  for (const code of Object.keys(CORRIDORS) as SandboxCorridor[]) {
    const corridor = CORRIDORS[code];
    test(`${code}: ${corridor.originCurrency} → ${corridor.destinationCurrency}, ${sandboxTestIdentifiers[code].bankAccountFormat} account, ends paid`, async () => {
      const customer = await corridorCustomer(code);
      const device = await registerDevice(customer);
      const beneficiaryId = await corridorBeneficiary(customer);

      const { transferId, quote } = await corridorTransfer(customer, beneficiaryId);
      assert.equal(quote.originCurrency, corridor.originCurrency);
      assert.equal(quote.destinationCurrency, corridor.destinationCurrency);
      assert.deepEqual(quote.corridor, {
        originCountry: corridor.originCountry,
        destinationCountry: corridor.beneficiaryCountry,
        payoutMethod: "bank_account",
        // Version 1 (the seed) offers both funding methods in every sandbox corridor.
        fundingMethods: ["CARD", "BANK_TRANSFER"],
      });

      const account = sandboxTestIdentifiers[code].bankAccounts[0];
      const submitted = await submitTransfer(customer, transferId, beneficiaryId, account);
      assert.equal(submitted.transferStatus, "registered");
      assert.equal(submitted.nextStep, "AWAIT_FAST_CHECK");
      assert.equal(submitted.payoutMethod.destinationIdentifierMasked.slice(-4), account.slice(-4));

      const validated = await awaitState(customer, transferId, "validated", "registered");
      assert.equal(validated.originCurrency, corridor.originCurrency);
      assert.equal(validated.destinationCurrency, corridor.destinationCurrency);
      assert.equal(validated.nextStep, "CONFIRM_TRANSFER");
      assert.ok(validated.confirmationChallenge);

      const confirmed = await confirmNow({ customer, device }, transferId);
      const funding = await transferDetail(customer, transferId);
      assert.equal(funding.transferStatus, "funding");
      assert.equal(funding.fundingSession?.fundingSessionId, confirmed.fundingSession.fundingSessionId);
      assert.equal(funding.confirmationChallenge, undefined, "no challenge outside validated");

      const funded = await completeFunding(customer, confirmed.fundingSession.fundingSessionId);
      assert.equal(funded.status, 200, funded.text);
      await awaitState(customer, transferId, "funded", "funding");

      for (const to of ["topay", "reqpay", "paid"] as const) {
        const moved = await advance(customer, transferId, to);
        assert.equal(moved.status, 200, moved.text);
        assert.equal(moved.body.transferStatus, to);
      }

      const final = await readTransfer(customer, transferId);
      assert.equal(final.status, 200, final.text);
      assert.equal(final.body.transferStatus, "paid");
      assert.equal(final.body.nextStep, null);
      assert.equal(final.body.customerActionExpected, "NONE");
      assert.equal(final.body.transferExpiresAt, undefined, "no expiry after funding");
      assert.deepEqual(
        final.body.stateHistory.map((h: { state: string; reasonCode: string }) => [h.state, h.reasonCode]),
        EXPECTED_HISTORY,
        final.text,
      );
      const times = final.body.stateHistory.map((h: { transitionedAt: string }) => Date.parse(h.transitionedAt));
      assert.deepEqual(
        [...times].sort((a, b) => a - b),
        times,
        "history in time order",
      );
    });
  }
});
