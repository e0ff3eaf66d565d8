/**
 * Transfer machine against spec 3.1 (plus decisions 7 and the documented choices for what the
 * spec leaves "not shown"). Expected data is literal here on purpose.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  transferMachine,
  resolveCancel,
  isPreFunding,
  nextStepFor,
  customerActionExpectedFor,
  PRE_FUNDING_ACTIVE,
  POST_FUNDING_ACTIVE,
  TERMINAL,
  type TransferState,
} from "@/lib/payments/transfers/state-machine";
import { assertRefused, checkExhaustively, moves, type ExpectedMove } from "./exhaustive";

const STATES = ["registered", "onreview", "validated", "funding", "funded", "topay", "reqpay", "spended", "paid", "aborted", "rejected", "expired", "canceled"];
const TRIGGERS = [
  "quote.accepted",
  "submit",
  "submit.quoteExpired",
  "fastCheck.passed",
  "fastCheck.review",
  "fastCheck.failed",
  "review.approved",
  "review.rejected",
  "timeout",
  "confirm",
  "funding.succeeded",
  "funding.failed",
  "funding.declined",
  "funding.expired",
  "cancel",
  "network.toPay",
  "network.requestPay",
  "network.paid",
  "network.cancellationSucceeded",
  "network.alreadyPaid",
  "network.retryAllowed",
  "network.rejected",
  "compliance.hold",
  "compliance.restore",
  "compliance.reject",
  "compliance.block",
];
const PRE = ["registered", "onreview", "validated", "funding"];
const HOLDABLE = ["registered", "onreview", "validated", "funding", "funded", "topay", "reqpay"];
const NET = ["topay", "reqpay"];
const STATE_INVALID = { code: "transfer.stateInvalid", status: 409 };

const MOVES: ExpectedMove[] = [
  { from: "none", trigger: "quote.accepted", to: "registered", reasonCode: "TRF_INITIATION_QUOTE_ACCEPTED" },
  { from: "registered", trigger: "submit", to: "registered" },
  { from: "registered", trigger: "submit.quoteExpired", to: "expired", reasonCode: "TRF_QUOTE_EXPIRED" },
  { from: "registered", trigger: "fastCheck.passed", to: "validated", reasonCode: "TRF_CHECK_PASSED" },
  { from: "registered", trigger: "fastCheck.review", to: "onreview", reasonCode: "TRF_CHECK_REVIEW" },
  { from: "registered", trigger: "fastCheck.failed", to: "rejected", reasonCode: "TRF_CHECK_FAILED" },
  { from: "onreview", trigger: "review.approved", to: "validated", reasonCode: "TRF_REVIEW_APPROVED" },
  { from: "onreview", trigger: "review.rejected", to: "rejected", reasonCode: "TRF_REVIEW_REJECTED" },
  ...moves(PRE, "timeout", "expired", { reasonCode: "TRF_EXPIRED_TIMEOUT" }),
  { from: "validated", trigger: "confirm", to: "funding", reasonCode: "TRF_AUTH_DEVICE_VERIFIED" },
  { from: "funding", trigger: "funding.succeeded", to: "funded", reasonCode: "TRF_FUNDING_SUCCESS" },
  { from: "funding", trigger: "funding.failed", to: "funding" },
  { from: "funding", trigger: "funding.declined", to: "validated", reasonCode: "TRF_FUNDING_DECLINED" },
  { from: "funding", trigger: "funding.expired", to: "validated", reasonCode: "TRF_FUNDING_SESSION_EXPIRED" },
  ...moves(PRE, "cancel", "aborted", { reasonCode: "TRF_CANCEL_ABORTED_PRE_FUNDING", outcome: "ABORTED_PRE_FUNDING" }),
  { from: "funded", trigger: "cancel", to: "canceled", reasonCode: "TRF_CANCEL_PRE_NETWORK", outcome: "CANCELED_PRE_NETWORK" },
  { from: "topay", trigger: "cancel", to: "topay", outcome: "NETWORK_CANCELLATION_PENDING" },
  { from: "reqpay", trigger: "cancel", to: "reqpay", outcome: "NETWORK_CANCELLATION_PENDING" },
  // Cancelling from spended resolves according to the prior state (spec 3.1).
  ...PRE.map((prior) => ({
    from: "spended",
    prior,
    trigger: "cancel",
    to: "aborted",
    reasonCode: "TRF_CANCEL_ABORTED_PRE_FUNDING",
    outcome: "ABORTED_PRE_FUNDING",
  })),
  { from: "spended", prior: "funded", trigger: "cancel", to: "canceled", reasonCode: "TRF_CANCEL_PRE_NETWORK", outcome: "CANCELED_PRE_NETWORK" },
  { from: "spended", prior: "topay", trigger: "cancel", to: "spended", outcome: "NETWORK_CANCELLATION_PENDING" },
  { from: "spended", prior: "reqpay", trigger: "cancel", to: "spended", outcome: "NETWORK_CANCELLATION_PENDING" },
  { from: "funded", trigger: "network.toPay", to: "topay", reasonCode: "TRF_NETWORK_TO_PAY" },
  { from: "topay", trigger: "network.requestPay", to: "reqpay", reasonCode: "TRF_NETWORK_REQUEST_PAY" },
  ...moves(NET, "network.paid", "paid", { reasonCode: "TRF_PAID" }),
  ...moves(NET, "network.cancellationSucceeded", "canceled", { reasonCode: "TRF_CANCEL_NETWORK_SUCCESS", outcome: "NETWORK_CANCELLATION_SUCCESS" }),
  ...moves(NET, "network.alreadyPaid", "paid", { reasonCode: "TRF_CANCEL_NETWORK_ALREADY_PAID", outcome: "NETWORK_ALREADY_PAID" }),
  ...moves(NET, "network.rejected", "rejected", { reasonCode: "TRF_PAYOUT_REJECTED" }),
  { from: "topay", trigger: "network.retryAllowed", to: "topay", outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED" },
  { from: "reqpay", trigger: "network.retryAllowed", to: "reqpay", outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED" },
  ...NET.flatMap((prior) => [
    {
      from: "spended",
      prior,
      trigger: "network.cancellationSucceeded",
      to: "canceled",
      reasonCode: "TRF_CANCEL_NETWORK_SUCCESS",
      outcome: "NETWORK_CANCELLATION_SUCCESS",
    },
    { from: "spended", prior, trigger: "network.alreadyPaid", to: "paid", reasonCode: "TRF_CANCEL_NETWORK_ALREADY_PAID", outcome: "NETWORK_ALREADY_PAID" },
    { from: "spended", prior, trigger: "network.retryAllowed", to: "spended", outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED" },
    { from: "spended", prior, trigger: "network.rejected", to: "rejected", reasonCode: "TRF_PAYOUT_REJECTED" },
  ]),
  ...moves(HOLDABLE, "compliance.hold", "spended", { reasonCode: "TRF_COMPLIANCE_HOLD" }),
  { from: "spended", trigger: "compliance.hold", to: "spended" },
  ...HOLDABLE.map((prior) => ({ from: "spended", prior, trigger: "compliance.restore", to: prior, reasonCode: "TRF_COMPLIANCE_RESTORED" })),
  { from: "spended", trigger: "compliance.reject", to: "rejected", reasonCode: "TRF_COMPLIANCE_REJECTED" },
  // A confirmed sanctions match, the same answer to the partner.
  { from: "spended", trigger: "compliance.block", to: "rejected", reasonCode: "TRF_COMPLIANCE_REJECTED" },
];

// From spended every prior is tried (all states, so wrong priors are refused too).
const contexts = (from: string) => (from === "spended" ? STATES.map((prior) => ({ prior })) : [{}]);

test("transfer: every (state, trigger) cell matches spec 3.1", () => {
  const cells = checkExhaustively(transferMachine, { states: STATES, triggers: TRIGGERS, moves: MOVES, refusal: () => STATE_INVALID, contexts });
  // (none + 12 states) x 26 triggers, plus spended x 26 triggers x 13 priors.
  assert.equal(cells, 13 * 26 + 26 * 13);
});

test("transfer: moves out of spended that depend on the prior need it (caller bug otherwise)", () => {
  for (const trigger of [
    "cancel",
    "compliance.restore",
    "network.cancellationSucceeded",
    "network.alreadyPaid",
    "network.retryAllowed",
    "network.rejected",
  ] as const) {
    assert.throws(() => transferMachine.next("spended", trigger), TypeError, trigger);
  }
  // Moves that do not depend on the prior work without it.
  assert.equal(transferMachine.next("spended", "compliance.reject").to, "rejected");
  assert.equal(transferMachine.next("spended", "compliance.hold").changed, false);
});

test("transfer: classes of spec 3.1", () => {
  assert.deepEqual([...PRE_FUNDING_ACTIVE], ["registered", "onreview", "validated", "funding"]);
  assert.deepEqual([...POST_FUNDING_ACTIVE], ["funded", "topay", "reqpay", "spended"]);
  assert.deepEqual([...TERMINAL], ["paid", "aborted", "rejected", "expired", "canceled"]);
  for (const s of STATES as TransferState[]) assert.equal(isPreFunding(s), PRE.includes(s), s);
});

test("transfer: terminal states accept no trigger at all", () => {
  for (const s of ["paid", "aborted", "rejected", "expired", "canceled"] as TransferState[]) {
    assert.deepEqual(transferMachine.allowed(s), [], s);
  }
});

test("transfer: nextStep and customerActionExpected per state", () => {
  const expected: Record<string, [string | null, string]> = {
    registered: ["AWAIT_FAST_CHECK", "WAIT"],
    onreview: ["WAIT_FOR_VALIDATION", "WAIT"],
    validated: ["CONFIRM_TRANSFER", "CONFIRM"],
    funding: ["COMPLETE_FUNDING", "FUND"],
    funded: ["CONTINUE", "WAIT"],
    topay: ["CONTINUE", "WAIT"],
    reqpay: ["CONTINUE", "WAIT"],
    spended: ["CONTINUE", "WAIT"],
    paid: [null, "NONE"],
    aborted: [null, "NONE"],
    rejected: [null, "NONE"],
    expired: [null, "NONE"],
    canceled: [null, "NONE"],
  };
  for (const s of STATES as TransferState[]) {
    assert.deepEqual([nextStepFor(s), customerActionExpectedFor(s)], expected[s], s);
  }
});

test("transfer: resolveCancel per state (spec 3.1, 4.1 rule 10)", () => {
  const aborted = {
    to: "aborted",
    changed: true,
    outcome: "ABORTED_PRE_FUNDING",
    reasonCode: "TRF_CANCEL_ABORTED_PRE_FUNDING",
    refundStarts: false,
  };
  const canceled = {
    to: "canceled",
    changed: true,
    outcome: "CANCELED_PRE_NETWORK",
    reasonCode: "TRF_CANCEL_PRE_NETWORK",
    refundStarts: true,
  };
  const pending = (to: string) => ({ to, changed: false, outcome: "NETWORK_CANCELLATION_PENDING", refundStarts: false });
  for (const s of PRE as TransferState[]) assert.deepEqual(resolveCancel(s), aborted, s);
  assert.deepEqual(resolveCancel("funded"), canceled);
  assert.deepEqual(resolveCancel("topay"), pending("topay"));
  assert.deepEqual(resolveCancel("reqpay"), pending("reqpay"));
  for (const p of PRE as TransferState[]) assert.deepEqual(resolveCancel("spended", p), aborted, `spended/${p}`);
  assert.deepEqual(resolveCancel("spended", "funded"), canceled);
  assert.deepEqual(resolveCancel("spended", "topay"), pending("spended"));
  assert.deepEqual(resolveCancel("spended", "reqpay"), pending("spended"));
  for (const s of ["paid", "aborted", "rejected", "expired", "canceled"] as TransferState[]) {
    assertRefused(() => resolveCancel(s), STATE_INVALID, s, "cancel");
  }
  // A corrupt prior (terminal or spended itself) is refused, and a missing one is a caller bug.
  assertRefused(() => resolveCancel("spended", "paid"), STATE_INVALID, "spended", "cancel");
  assertRefused(() => resolveCancel("spended", "spended"), STATE_INVALID, "spended", "cancel");
  assert.throws(() => resolveCancel("spended"), TypeError);
});
