/**
 * The partner-customer relationship status (spec 3.5), declared beside its column
 * (db/schema/subscriptions.ts).
 */
export { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "@/db/schema/subscriptions";
