import assert from "node:assert/strict";
import type { Scenario } from "../../test/integration/transfers/support";
import { acceptTransfer, awaitFastCheck, submit, submitBody, type Customer } from "../../test/integration/support";

/**
 * The API side of the e2e journeys, over HTTP as a partner calls it: the integration tests'
 * support (test/integration/support) and transfer scenarios, plus what only the e2e files need.
 * Device proofs and assertions take their iat from the server's clock, which the e2e files move
 * forward.
 */

/** The review threshold of US-MX (decisions 7): at or above it the fast-check sends to onreview. */
export const REVIEW_AMOUNT = "1000.000000";

/** A transfer at the review threshold (or `originAmount` above it), submitted and sent to onreview by the fast-check. */
export async function onreviewTransfer(s: { c: Customer; beneficiaryId: string }, originAmount = REVIEW_AMOUNT): Promise<Scenario> {
  const { transferId, quoteId } = await acceptTransfer(s.c, s.beneficiaryId, { originAmount });
  const res = await submit(s.c, transferId, submitBody(s.beneficiaryId));
  assert.equal(res.status, 202, res.text);
  const t = await awaitFastCheck(s.c, transferId);
  assert.equal(t.transferStatus, "onreview", JSON.stringify(t));
  return { ...s, transferId, quoteId };
}
