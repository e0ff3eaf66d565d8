/** Destination identifiers: submit-time format check, fast-check substance, masking, sandbox data. */
export * from "./method-types";
export * from "./format-check";
export * from "./substantive-check";
export * from "./mask";
export * from "@/lib/platform/bank-identifiers/clabe";
export * from "./nuban";
export * from "./wallet-checksum";
export * from "./sandbox-identifiers";
