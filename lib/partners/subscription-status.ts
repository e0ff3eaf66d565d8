/**
 * The partner-customer relationship status (spec 3.5). A leaf module: the subscriptions table
 * types its column with it, so it must not import the database.
 */
export const SUBSCRIPTION_STATUSES = ["active", "spended", "closed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
