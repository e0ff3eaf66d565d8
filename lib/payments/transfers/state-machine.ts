/**
 * Transfer states and transitions (spec 3.1, decisions 7). The table below is the only place a
 * transfer's state may change; services call transferMachine.next() and persist { to, reasonCode }.
 * Refusals are transfer.stateInvalid (decisions 7, 8).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { TRANSFER_STATES, type TransferState } from "@/db/schema/transfers";
export { TRANSFER_STATES, type TransferState } from "@/db/schema/transfers";

// Classes of spec 3.1. "spended" (the suspended value) is post-funding active by the spec's list,
// even when the transfer was parked before funding; its prior state decides what cancel does.
export const PRE_FUNDING_ACTIVE = ["registered", "onreview", "validated", "funding"] as const satisfies readonly TransferState[];
export const POST_FUNDING_ACTIVE = ["funded", "topay", "reqpay", "spended"] as const satisfies readonly TransferState[];
export const TERMINAL = ["paid", "aborted", "rejected", "expired", "canceled"] as const satisfies readonly TransferState[];
/** States a compliance hold can park and later restore (every active state but spended itself). */
export const HOLDABLE = ["registered", "onreview", "validated", "funding", "funded", "topay", "reqpay"] as const satisfies readonly TransferState[];

export type PreFundingState = (typeof PRE_FUNDING_ACTIVE)[number];

export const TRANSFER_TRIGGERS = [
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
] as const;
export type TransferTrigger = (typeof TRANSFER_TRIGGERS)[number];

const NETWORK = ["topay", "reqpay"] as const satisfies readonly TransferState[];

export const transferMachine = defineMachine<TransferState, TransferTrigger>({
  name: "transfer",
  states: TRANSFER_STATES,
  triggers: TRANSFER_TRIGGERS,
  refusedCode: "transfer.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "quote.accepted", to: "registered", reasonCode: "TRF_INITIATION_QUOTE_ACCEPTED", notes: "120-minute timer starts" },
    // Submit keeps registered and starts the asynchronous fast-check (spec 4.1 rule 9).
    { from: ["registered"], trigger: "submit", to: "unchanged", notes: "fast-check starts" },
    {
      from: ["registered"],
      trigger: "submit.quoteExpired",
      to: "expired",
      reasonCode: "TRF_QUOTE_EXPIRED",
      notes: "transfer.quoteExpired, kept (keepChanges)",
    },
    { from: ["registered"], trigger: "fastCheck.passed", to: "validated", reasonCode: "TRF_CHECK_PASSED" },
    { from: ["registered"], trigger: "fastCheck.review", to: "onreview", reasonCode: "TRF_CHECK_REVIEW" },
    { from: ["registered"], trigger: "fastCheck.failed", to: "rejected", reasonCode: "TRF_CHECK_FAILED" },
    // Resolution of onreview is "not shown" in spec 3.1; decisions 7 gives APPROVE / REJECT.
    { from: ["onreview"], trigger: "review.approved", to: "validated", reasonCode: "TRF_REVIEW_APPROVED" },
    { from: ["onreview"], trigger: "review.rejected", to: "rejected", reasonCode: "TRF_REVIEW_REJECTED" },
    // 120 minutes since registered without reaching funded. A held (spended) transfer is not
    // timed out: its clock resumes on restore, and the next sweep expires it if overdue.
    { from: PRE_FUNDING_ACTIVE, trigger: "timeout", to: "expired", reasonCode: "TRF_EXPIRED_TIMEOUT" },
    // Confirm only from validated (decisions 7); anything else is transfer.stateInvalid.
    { from: ["validated"], trigger: "confirm", to: "funding", reasonCode: "TRF_AUTH_DEVICE_VERIFIED", notes: "fundingSession allocated" },
    { from: ["funding"], trigger: "funding.succeeded", to: "funded", reasonCode: "TRF_FUNDING_SUCCESS" },
    { from: ["funding"], trigger: "funding.failed", to: "unchanged", notes: "a decline: the funding session stays OPEN for another attempt" },
    // The session's last allowed decline closes it FAILED: back to validated, so a new confirm
    // opens a new session at once instead of waiting for the 120-minute deadline.
    { from: ["funding"], trigger: "funding.declined", to: "validated", reasonCode: "TRF_FUNDING_DECLINED", notes: "funding session FAILED" },
    // Reopening after the funding URL expires needs a new confirm (spec 4.1 rule 11), and confirm
    // is accepted only from validated, so an expired session returns the transfer to validated.
    {
      from: ["funding"],
      trigger: "funding.expired",
      to: "validated",
      reasonCode: "TRF_FUNDING_SESSION_EXPIRED",
      notes: "funding session EXPIRED; new challenge on reads",
    },
    // Cancellation (spec 3.1, 4.1 rule 10). From spended it resolves by the prior state.
    {
      from: PRE_FUNDING_ACTIVE,
      trigger: "cancel",
      to: "aborted",
      reasonCode: "TRF_CANCEL_ABORTED_PRE_FUNDING",
      outcome: "ABORTED_PRE_FUNDING",
      notes: "no refund",
    },
    { from: ["funded"], trigger: "cancel", to: "canceled", reasonCode: "TRF_CANCEL_PRE_NETWORK", outcome: "CANCELED_PRE_NETWORK", notes: "refund starts" },
    { from: NETWORK, trigger: "cancel", to: "unchanged", outcome: "NETWORK_CANCELLATION_PENDING", notes: "network asked to cancel" },
    {
      from: ["spended"],
      whenPrior: PRE_FUNDING_ACTIVE,
      trigger: "cancel",
      to: "aborted",
      reasonCode: "TRF_CANCEL_ABORTED_PRE_FUNDING",
      outcome: "ABORTED_PRE_FUNDING",
    },
    { from: ["spended"], whenPrior: ["funded"], trigger: "cancel", to: "canceled", reasonCode: "TRF_CANCEL_PRE_NETWORK", outcome: "CANCELED_PRE_NETWORK" },
    { from: ["spended"], whenPrior: NETWORK, trigger: "cancel", to: "unchanged", outcome: "NETWORK_CANCELLATION_PENDING" },
    // Network progress: "not shown" in spec 3.1; driven by the sandbox advance (decisions 7).
    // It pauses while a transfer is held (spended).
    { from: ["funded"], trigger: "network.toPay", to: "topay", reasonCode: "TRF_NETWORK_TO_PAY" },
    { from: ["topay"], trigger: "network.requestPay", to: "reqpay", reasonCode: "TRF_NETWORK_REQUEST_PAY" },
    { from: NETWORK, trigger: "network.paid", to: "paid", reasonCode: "TRF_PAID" },
    // Outcomes of a pending network cancellation; they also land while the transfer is held,
    // because the network answers regardless of our compliance hold.
    {
      from: NETWORK,
      trigger: "network.cancellationSucceeded",
      to: "canceled",
      reasonCode: "TRF_CANCEL_NETWORK_SUCCESS",
      outcome: "NETWORK_CANCELLATION_SUCCESS",
      notes: "refund starts",
    },
    { from: NETWORK, trigger: "network.alreadyPaid", to: "paid", reasonCode: "TRF_CANCEL_NETWORK_ALREADY_PAID", outcome: "NETWORK_ALREADY_PAID" },
    {
      from: NETWORK,
      trigger: "network.retryAllowed",
      to: "unchanged",
      outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED",
      notes: "a new cancel with a new key is admitted",
    },
    {
      from: ["spended"],
      whenPrior: NETWORK,
      trigger: "network.cancellationSucceeded",
      to: "canceled",
      reasonCode: "TRF_CANCEL_NETWORK_SUCCESS",
      outcome: "NETWORK_CANCELLATION_SUCCESS",
    },
    {
      from: ["spended"],
      whenPrior: NETWORK,
      trigger: "network.alreadyPaid",
      to: "paid",
      reasonCode: "TRF_CANCEL_NETWORK_ALREADY_PAID",
      outcome: "NETWORK_ALREADY_PAID",
    },
    { from: ["spended"], whenPrior: NETWORK, trigger: "network.retryAllowed", to: "unchanged", outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED" },
    // The payout bank refused or returned the payment (a pain.002 RJCT): nothing reached
    // the beneficiary, so the transfer fails and its refund starts. It lands while held too.
    { from: NETWORK, trigger: "network.rejected", to: "rejected", reasonCode: "TRF_PAYOUT_REJECTED", notes: "refund starts" },
    { from: ["spended"], whenPrior: NETWORK, trigger: "network.rejected", to: "rejected", reasonCode: "TRF_PAYOUT_REJECTED" },
    // Compliance (spec 3.1 "any active"): the caller stores `from` as the prior state. A second
    // hold keeps the first prior, so it is accepted without a change.
    { from: HOLDABLE, trigger: "compliance.hold", to: "spended", reasonCode: "TRF_COMPLIANCE_HOLD", notes: "remember from as prior" },
    { from: ["spended"], trigger: "compliance.hold", to: "unchanged", notes: "keep the original prior" },
    { from: ["spended"], trigger: "compliance.restore", to: "prior", targets: HOLDABLE, reasonCode: "TRF_COMPLIANCE_RESTORED" },
    { from: ["spended"], trigger: "compliance.reject", to: "rejected", reasonCode: "TRF_COMPLIANCE_REJECTED" },
    // A confirmed sanctions match: rejected like any compliance rejection (the partner
    // sees the same reason code), but money received is blocked, not refunded (postings.ts).
    {
      from: ["spended"],
      trigger: "compliance.block",
      to: "rejected",
      reasonCode: "TRF_COMPLIANCE_REJECTED",
      notes: "true sanctions match: funds to blocked:sanctions, no refund",
    },
  ],
});

const PRE_FUNDING_SET: ReadonlySet<string> = new Set(PRE_FUNDING_ACTIVE);

export function isPreFunding(state: TransferState): state is PreFundingState {
  return PRE_FUNDING_SET.has(state);
}

export interface CancelResolution {
  to: TransferState;
  changed: boolean;
  outcome: "ABORTED_PRE_FUNDING" | "CANCELED_PRE_NETWORK" | "NETWORK_CANCELLATION_PENDING";
  reasonCode?: string;
  /** Spec 2.7: refund is set for funded-state cancellation only (the network path refunds later). */
  refundStarts: boolean;
}

/**
 * What POST cancel does (spec 3.1, 4.1 rule 10). From spended it resolves by the state the
 * transfer was held in (priorState, required there). Terminal states throw transfer.stateInvalid.
 */
export function resolveCancel(state: TransferState, priorState?: TransferState): CancelResolution {
  const step = transferMachine.next(state, "cancel", priorState === undefined ? {} : { prior: priorState });
  const outcome = step.outcome as CancelResolution["outcome"];
  return {
    to: step.to,
    changed: step.changed,
    outcome,
    ...(step.reasonCode !== undefined ? { reasonCode: step.reasonCode } : {}),
    refundStarts: outcome === "CANCELED_PRE_NETWORK",
  };
}

/** NextStep values (spec 2.9) this service emits on transfers. */
export type TransferNextStep = "AWAIT_FAST_CHECK" | "WAIT_FOR_VALIDATION" | "CONFIRM_TRANSFER" | "COMPLETE_FUNDING" | "CONTINUE";

/**
 * CustomerActionExpected on transfers (its value set is "not shown", spec 2.11). Chosen values:
 * - NONE: terminal states (spec 2.7: "NONE on terminal states");
 * - CONFIRM: validated, the customer must confirm with the device (commitment moment 3);
 * - FUND: funding, the customer must complete the funding webview;
 * - WAIT: everything else (registered, onreview, funded, topay, reqpay, spended): nothing to do
 *   but poll at the cadence of spec 8;
 * - REPAIR_PAYOUT: not a state's but a payout's: the payout bank rejected the
 *   destination and the transfer waits with the network for a new one (POST .../payout-repair),
 *   announced by the payout.repair.required event; WAIT again once repaired (payout.repaired).
 *
 * NextStep on transfers: registered AWAIT_FAST_CHECK (also before submit, where the app is about
 * to submit); onreview WAIT_FOR_VALIDATION; validated CONFIRM_TRANSFER; funding COMPLETE_FUNDING;
 * post-funding active (funded, topay, reqpay, spended) CONTINUE, because spec 2.7 says nextStep is
 * null only on terminal states (a NETWORK_CANCELLATION_PENDING cancel response is non-terminal);
 * terminal null.
 */
export const CUSTOMER_ACTIONS_EXPECTED = ["NONE", "CONFIRM", "FUND", "WAIT", "REPAIR_PAYOUT"] as const;
export type CustomerActionExpected = (typeof CUSTOMER_ACTIONS_EXPECTED)[number];

const NEXT_STEP = {
  registered: "AWAIT_FAST_CHECK",
  onreview: "WAIT_FOR_VALIDATION",
  validated: "CONFIRM_TRANSFER",
  funding: "COMPLETE_FUNDING",
  funded: "CONTINUE",
  topay: "CONTINUE",
  reqpay: "CONTINUE",
  spended: "CONTINUE",
  paid: null,
  aborted: null,
  rejected: null,
  expired: null,
  canceled: null,
} as const satisfies Record<TransferState, TransferNextStep | null>;

const CUSTOMER_ACTION: Record<TransferState, CustomerActionExpected> = {
  registered: "WAIT",
  onreview: "WAIT",
  validated: "CONFIRM",
  funding: "FUND",
  funded: "WAIT",
  topay: "WAIT",
  reqpay: "WAIT",
  spended: "WAIT",
  paid: "NONE",
  aborted: "NONE",
  rejected: "NONE",
  expired: "NONE",
  canceled: "NONE",
};

/** The next step in `state`; typed per state, so an answer known to be in one state names its step. */
export function nextStepFor<S extends TransferState>(state: S): (typeof NEXT_STEP)[S] {
  return NEXT_STEP[state];
}

/** What the customer is expected to do: the state's, or REPAIR_PAYOUT while a rejected payout waits for a new destination. */
export function customerActionExpectedFor(state: TransferState, payoutRepairWanted = false): CustomerActionExpected {
  return payoutRepairWanted ? "REPAIR_PAYOUT" : CUSTOMER_ACTION[state];
}
