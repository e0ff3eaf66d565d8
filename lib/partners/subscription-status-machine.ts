/**
 * The partner-customer relationship status (spec 3.5): opened active with the customer's login; the
 * partner (its admin) suspends it (spended), restores it or closes it; a closed relationship never
 * reopens. Setting the status it already has is accepted and changes nothing.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "./subscription-status";

export const SUBSCRIPTION_TRIGGERS = ["open", "partner.setStatus"] as const;
export type SubscriptionTrigger = (typeof SUBSCRIPTION_TRIGGERS)[number];

export const subscriptionMachine = defineMachine<SubscriptionStatus, SubscriptionTrigger>({
  name: "subscription",
  states: SUBSCRIPTION_STATUSES,
  triggers: SUBSCRIPTION_TRIGGERS,
  refusedCode: "customer.statusInvalid",
  transitions: [
    { from: [NONE], trigger: "open", to: "active", notes: "a verified identifier opens the relationship" },
    { from: ["active", "spended"], trigger: "partner.setStatus", to: "requested", notes: "partner admin: suspend, restore or close" },
  ],
  refusals: [{ from: ["closed"], code: "customer.statusInvalid", message: "A closed subscription cannot be reopened." }],
});
