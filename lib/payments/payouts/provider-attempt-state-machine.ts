/**
 * A payout provider attempt (payout_provider_attempts): one try at paying a transfer through one
 * provider of the routed payout. A retryable failure (timeout, provider down, technical
 * rejection) ends the try FAILED and the router tries the next provider; a rejection of the
 * beneficiary's data ends it REJECTED and waits for a repair; a provider without cover holds the
 * try WAITING_COVER until a top-up. A success reported for a try that is no longer the
 * transfer's (it failed over meanwhile) is refused: LATE_PAID, and the provider is asked to
 * reverse it, so the transfer is never paid twice; REVERSED once the provider reports the money
 * back in our prefunding. A paid try whose money the beneficiary's bank sent back later (account
 * closed, name mismatch found late, an ACH or SEPA return) is RETURNED: the money is back in the
 * provider's prefunding and held for the customer until an operator refunds it (RETURN_REFUNDED).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { PROVIDER_ATTEMPT_STATES, type ProviderAttemptState } from "@/db/schema/payout-provider-attempts";
export { PROVIDER_ATTEMPT_STATES, type ProviderAttemptState } from "@/db/schema/payout-provider-attempts";

export const PROVIDER_ATTEMPT_TRIGGERS = [
  "route.chosen",
  "route.noCover",
  "cover.toppedUp",
  "provider.accepted",
  "provider.paid",
  "provider.failed",
  "provider.rejected",
  "destination.repaired",
  "transfer.left",
  "provider.paidLate",
  "provider.reversed",
  "provider.returned",
  "operator.refunded",
] as const;
export type ProviderAttemptTrigger = (typeof PROVIDER_ATTEMPT_TRIGGERS)[number];

/** The tries still counting against their provider's cover (asked or about to be). */
export const IN_FLIGHT_STATES: readonly ProviderAttemptState[] = ["QUEUED", "SUBMITTED"];

export const providerAttemptMachine = defineMachine<ProviderAttemptState, ProviderAttemptTrigger>({
  name: "payout provider attempt",
  states: PROVIDER_ATTEMPT_STATES,
  triggers: PROVIDER_ATTEMPT_TRIGGERS,
  refusedCode: "transfer.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "route.chosen", to: "QUEUED", notes: "the router chose this provider; it has cover" },
    { from: [NONE], trigger: "route.noCover", to: "WAITING_COVER", notes: "no provider had cover: held, not failed" },
    { from: ["WAITING_COVER"], trigger: "cover.toppedUp", to: "QUEUED", notes: "a top-up gave the provider cover" },
    { from: ["QUEUED"], trigger: "provider.accepted", to: "SUBMITTED", notes: "the provider took it (API accepted, or in a file)" },
    { from: ["QUEUED", "SUBMITTED"], trigger: "provider.paid", to: "PAID", notes: "the provider paid the beneficiary" },
    { from: ["QUEUED", "SUBMITTED"], trigger: "provider.failed", to: "FAILED", notes: "timeout, provider down, technical rejection: the next provider tries" },
    { from: ["QUEUED", "SUBMITTED"], trigger: "provider.rejected", to: "REJECTED", notes: "the beneficiary's data (AC01, AC04, name): waits for a repair" },
    { from: ["REJECTED"], trigger: "destination.repaired", to: "REPAIRED", notes: "a new destination: the router tries again" },
    {
      from: ["WAITING_COVER", "QUEUED", "REJECTED"],
      trigger: "transfer.left",
      to: "ABANDONED",
      notes: "the transfer was cancelled, held or refunded meanwhile",
    },
    { from: ["FAILED", "ABANDONED"], trigger: "provider.paidLate", to: "LATE_PAID", notes: "paid after the failover: refused, reversal asked" },
    { from: ["LATE_PAID"], trigger: "provider.reversed", to: "REVERSED", notes: "the provider reversed the late payment: the money is back in our prefunding" },
    {
      from: ["PAID"],
      trigger: "provider.returned",
      to: "RETURNED",
      notes: "the beneficiary's bank sent the paid payout back: in our prefunding, held in suspense:returned-payouts",
    },
    { from: ["RETURNED"], trigger: "operator.refunded", to: "RETURN_REFUNDED", notes: "an operator refunds the customer from the returned money" },
  ],
});
