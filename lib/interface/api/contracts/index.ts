import type { Contract } from "@/lib/interface/http/contract";
import * as accountRequirements from "./account-requirements";
import * as auth from "./auth";
import * as bankTransfer from "./bank-transfer";
import * as beneficiaries from "./beneficiaries";
import * as claims from "./claims";
import * as events from "./events";
import * as quotes from "./quotes";
import * as receipts from "./receipts";
import * as kyc from "./kyc";
import * as limits from "./limits";
import * as operations from "./operations";
import * as payoutFiles from "./payout-files";
import * as profile from "./profile";
import * as sandbox from "./sandbox";
import * as transfers from "./transfers";

/**
 * A module's contracts with `first` in front, in that order (the journey's), then any other
 * contract it exports: a module namespace lists its exports alphabetically, and a new contract
 * must never be left out of the document.
 */
function ordered(module: Record<string, unknown>, first: Contract[] = []): Contract[] {
  const rest = (Object.values(module).filter(isContract) as Contract[]).filter((c) => !first.includes(c));
  return [...first, ...rest];
}

/** Every operation of the public API, in document order. The OpenAPI document is built from this list. */
export const allContracts: Contract[] = [
  ...ordered(auth, [
    auth.health,
    auth.registerStart,
    auth.registerVerifyOtp,
    auth.registerSetPassword,
    auth.loginStart,
    auth.login,
    auth.refresh,
    auth.logout,
    auth.passwordResetStart,
    auth.passwordResetComplete,
    auth.deviceRegistrationStart,
    auth.deviceRegistrationComplete,
    auth.listDevices,
    auth.deactivateDevice,
  ] as Contract[]),
  ...ordered(profile, [profile.submitProfile, profile.readProfile] as Contract[]),
  ...ordered(kyc, [kyc.createKycSession, kyc.readKycSession] as Contract[]),
  ...ordered(beneficiaries, [
    beneficiaries.createBeneficiary,
    beneficiaries.listBeneficiaries,
    beneficiaries.readBeneficiary,
    beneficiaries.archiveBeneficiary,
  ] as Contract[]),
  ...ordered(quotes, [quotes.createQuote, quotes.readQuote, quotes.readDisclosure, quotes.acceptQuote] as Contract[]),
  ...ordered(transfers, [
    transfers.submitTransfer,
    transfers.readTransfer,
    transfers.confirmTransfer,
    transfers.listTransfers,
    transfers.cancelTransfer,
  ] as Contract[]),
  ...ordered(accountRequirements),
  ...ordered(receipts),
  ...ordered(claims, [claims.createClaim, claims.listClaims] as Contract[]),
  ...ordered(limits, [limits.readLimits] as Contract[]),
  ...ordered(events, [events.listEvents, events.readEvent] as Contract[]),
  ...ordered(operations, [operations.jwks, operations.livez, operations.readyz] as Contract[]),
  ...ordered(sandbox),
  ...ordered(payoutFiles),
  ...ordered(bankTransfer, [bankTransfer.sandboxChooseBankTransfer, bankTransfer.sandboxImportBankStatement] as Contract[]),
];

function isContract(value: unknown): boolean {
  return typeof value === "object" && value !== null && "operationId" in value && "method" in value;
}
