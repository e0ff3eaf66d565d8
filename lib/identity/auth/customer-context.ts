/** Who a Core API call acts for, resolved from the bearer token (spec 5.2). */
export interface CustomerContext {
  sessionId: string;
  subscriptionId: string;
  customerId: string;
  partnerId: string;
  subscriptionStatus: string;
}
