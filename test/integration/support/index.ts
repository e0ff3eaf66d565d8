/** The integration tests' shared support, one module per concern; tests import it as "../support". */
export * from "./assertions";
export * from "./beneficiaries";
export * from "./client";
export * from "./clock";
export * from "./customers";
export * from "./devices";
export * from "./quotes";
export * from "./transfers";
export * from "./webhook-receiver";
