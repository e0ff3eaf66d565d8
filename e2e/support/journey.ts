import assert from "node:assert/strict";
import { call, registerCustomer } from "../../test/integration/support/client";
import {
  acceptTransfer,
  awaitFastCheck,
  awaitTransfer,
  readBeneficiary,
  submit,
  submitBody,
  usaProfile,
  WAIT_MS,
  type Customer,
  type Scenario,
} from "../../test/integration/transfers/support";
import { eventually } from "../../test/integration/support/client";

/**
 * The API side of the e2e journeys, over HTTP as a partner calls it. Built on the transfer
 * integration helpers (test/integration/transfers/support): device proofs and assertions take
 * their iat from the server's clock, which the e2e files move forward.
 */
export {
  acceptTransfer,
  advanceTo,
  awaitFastCheck,
  awaitTransfer,
  completeFunding,
  confirm,
  deviceAssertion,
  fundedScenario,
  fundingScenario,
  hold,
  onboardedCustomer,
  readBeneficiary,
  readTransfer,
  registerDevice,
  registeredScenario,
  states,
  submit,
  submitAndValidate,
  submitBody,
  uniqueSurname,
  usaProfile,
  validBeneficiary,
  validatedScenario,
  WAIT_MS,
  type Customer,
  type Device,
  type Scenario,
} from "../../test/integration/transfers/support";

/** The review threshold of US-MX (decisions 7): at or above it the fast-check sends to onreview. */
export const REVIEW_AMOUNT = "1000.000000";

/** A registered customer with a USA profile submitted (PENDING, KYC not done yet). */
export async function customerWithUsaProfile(profile: Record<string, unknown> = {}): Promise<Customer> {
  const reg = await registerCustomer();
  const c: Customer = { identifier: reg.identifier, password: reg.password, token: reg.tokens.accessToken, subscriptionId: reg.tokens.subscriptionId };
  const res = await call("POST", "/v1/core/profile", { token: c.token, body: usaProfile(profile) });
  assert.equal(res.status, 200, res.text);
  return c;
}

/** Creates a MEX beneficiary and waits for screening to decide; returns its id and state. */
export async function screenedBeneficiary(c: Customer, names: { firstName: string; lastName: string }): Promise<{ beneficiaryId: string; state: string }> {
  const res = await call("POST", "/v1/core/beneficiaries", { token: c.token, body: { ...names, countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" } });
  assert.equal(res.status, 202, res.text);
  const beneficiaryId = res.body.beneficiaryId as string;
  const read = await eventually(
    async () => {
      const r = await readBeneficiary(c, beneficiaryId);
      return r.status === 200 && r.body.state !== "PENDING" ? r : null;
    },
    WAIT_MS,
    `screening of ${beneficiaryId}`,
  );
  return { beneficiaryId, state: read.body.state };
}

/** A transfer at the review threshold, submitted and sent to onreview by the fast-check. */
export async function onreviewTransfer(s: Omit<Scenario, "transferId" | "quoteId">): Promise<Scenario> {
  const { transferId, quoteId } = await acceptTransfer(s.c, s.beneficiaryId, { originAmount: REVIEW_AMOUNT });
  const res = await submit(s.c, transferId, submitBody(s.beneficiaryId));
  assert.equal(res.status, 202, res.text);
  const t = await awaitFastCheck(s.c, transferId);
  assert.equal(t.transferStatus, "onreview", JSON.stringify(t));
  return { ...s, transferId, quoteId };
}

/** Waits until the transfer is in `state` and returns its detail. */
export const transferIn = (c: Customer, transferId: string, state: string) => awaitTransfer(c, transferId, state);
