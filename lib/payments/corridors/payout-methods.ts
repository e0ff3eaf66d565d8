/**
 * Corridor payout methods (lower-case, spec 2.5) and what follows from them: the spec 2.9
 * PayoutMethodType they stand for (decisions 6), the corridor_type claim of a signed quote
 * (spec 5.4) and the quote lifetime (spec 8, decisions 6).
 */
import { canonicalMethodType, type PayoutMethodType } from "@/lib/payments/payout-identifiers/method-types";

export const PAYOUT_METHODS = ["bank_account", "cash_pickup", "wallet_transfer", "mobile_money"] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

const TYPE_BY_METHOD: Record<PayoutMethod, PayoutMethodType> = {
  bank_account: "BANK_TRANSFER",
  cash_pickup: "CASH_PICKUP",
  wallet_transfer: "WALLET_TRANSFER",
  mobile_money: "MOBILE_MONEY",
};

const METHOD_BY_TYPE: Record<PayoutMethodType, PayoutMethod> = {
  BANK_TRANSFER: "bank_account",
  CASH_PICKUP: "cash_pickup",
  WALLET_TRANSFER: "wallet_transfer",
  MOBILE_MONEY: "mobile_money",
};

export function isPayoutMethod(value: unknown): value is PayoutMethod {
  return typeof value === "string" && (PAYOUT_METHODS as readonly string[]).includes(value);
}

/** bank_account -> BANK_TRANSFER (the schema name; BANK_ACCOUNT is only an input alias). */
export function payoutMethodToType(method: PayoutMethod): PayoutMethodType {
  return TYPE_BY_METHOD[method];
}

/** BANK_TRANSFER or its alias BANK_ACCOUNT -> bank_account; null for anything unknown. */
export function payoutTypeToMethod(methodType: string): PayoutMethod | null {
  const canonical = canonicalMethodType(methodType);
  return canonical === null ? null : METHOD_BY_TYPE[canonical];
}

/** corridor_type claim values (spec 5.4). */
export type CorridorType = "OPEN_PAYMENT" | "OFFLINE";

/** Cash pickup is the OFFLINE class, the special 30-minute quotes of spec 8 (decisions 6). */
export function corridorType(method: PayoutMethod): CorridorType {
  return method === "cash_pickup" ? "OFFLINE" : "OPEN_PAYMENT";
}

/** The two lifetimes, named as in lib/platform/config so the config object can be passed as is. */
export interface QuoteTtlConfig {
  QUOTE_TTL_SECONDS: number;
  QUOTE_OFFLINE_TTL_SECONDS: number;
}

/** Quote validity: 60 s in general, the 30-minute ceiling for OFFLINE quotes (spec 8). */
export function quoteTtlSeconds(type: CorridorType, config: QuoteTtlConfig): number {
  return type === "OFFLINE" ? config.QUOTE_OFFLINE_TTL_SECONDS : config.QUOTE_TTL_SECONDS;
}
