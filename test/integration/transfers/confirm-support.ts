/**
 * Shared setup of the confirm and journey integration tests (not a test file): onboarded customers
 * per sandbox corridor, their beneficiaries and validated transfers. Built on
 * test/integration/support (devices, assertions over the server clock, transfers); everything goes
 * through the public HTTP API.
 */
import assert from "node:assert/strict";
import { sandboxTestIdentifiers, type SandboxCorridor } from "@/lib/payments/payout-identifiers/sandbox-identifiers";
import {
  acceptTransfer,
  assertError,
  awaitTransfer,
  onboardedCustomer,
  registerDevice,
  submit,
  submitBody,
  uniqueSurname,
  validBeneficiaryId,
  type CallResult,
  type Customer,
  type Device,
  type TransferDetail,
} from "../support";

/** 422 device.assertionInvalid naming exactly this verification step. */
export function assertFailedCheck(res: CallResult, failedCheck: string) {
  const error = assertError(res, 422, "device.assertionInvalid");
  assert.equal(error.details?.failedCheck, failedCheck, res.text);
  return error;
}

// ---------------------------------------------------------------------------------------------
// Corridors (decisions 6)

export interface CorridorSetup {
  code: SandboxCorridor;
  originCurrency: string;
  destinationCurrency: string;
  /** Alpha-3 of the customer's residence (the corridor's origin). */
  originCountry: string;
  beneficiaryCountry: string;
  profile: () => Record<string, unknown>;
}

function profileIn(country: string, address: Record<string, unknown>) {
  return () => ({
    firstName: "Ana",
    lastName: uniqueSurname(),
    dateOfBirth: "1988-03-14",
    nationality: country,
    residenceCountry: country,
    residenceAddress: { ...address, country },
  });
}

export const CORRIDORS: Record<SandboxCorridor, CorridorSetup> = {
  "US-MX": {
    code: "US-MX",
    originCountry: "USA",
    originCurrency: "USD",
    destinationCurrency: "MXN",
    beneficiaryCountry: "MEX",
    profile: profileIn("USA", { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701" }),
  },
  "US-PH": {
    code: "US-PH",
    originCountry: "USA",
    originCurrency: "USD",
    destinationCurrency: "PHP",
    beneficiaryCountry: "PHL",
    profile: profileIn("USA", { addressLine1: "1 Market Street", city: "San Francisco", region: "CA", postalCode: "94105" }),
  },
  "GB-NG": {
    code: "GB-NG",
    originCountry: "GBR",
    originCurrency: "GBP",
    destinationCurrency: "NGN",
    beneficiaryCountry: "NGA",
    profile: profileIn("GBR", { addressLine1: "10 Downing Street", city: "London", postalCode: "SW1A 2AA" }),
  },
  "FR-SN": {
    code: "FR-SN",
    originCountry: "FRA",
    originCurrency: "EUR",
    destinationCurrency: "XOF",
    beneficiaryCountry: "SEN",
    profile: profileIn("FRA", { addressLine1: "1 Rue de Rivoli", city: "Paris", postalCode: "75001" }),
  },
  "ES-CO": {
    code: "ES-CO",
    originCountry: "ESP",
    originCurrency: "EUR",
    destinationCurrency: "COP",
    beneficiaryCountry: "COL",
    profile: profileIn("ESP", { addressLine1: "Calle de Alcalá 1", city: "Madrid", postalCode: "28014" }),
  },
};

// ---------------------------------------------------------------------------------------------
// Customers, beneficiaries and transfers of a corridor

export interface CorridorCustomer extends Customer {
  corridor: CorridorSetup;
}

/** A VALID customer of the corridor's origin: registered, profile, KYC approved. */
export async function corridorCustomer(corridor: SandboxCorridor = "US-MX"): Promise<CorridorCustomer> {
  const setup = CORRIDORS[corridor];
  return { ...(await onboardedCustomer(setup.profile())), corridor: setup };
}

/** A VALID beneficiary resident in the corridor's destination; returns its id. */
export const corridorBeneficiary = (c: CorridorCustomer) => validBeneficiaryId(c, { countryOfResidence: c.corridor.beneficiaryCountry });

/** Quote in the corridor currencies → disclosure → accept (201): a transfer in registered. */
export async function corridorTransfer(c: CorridorCustomer, beneficiaryId: string, originAmount = "100.000000"): Promise<{ transferId: string; quote: any }> {
  const { transferId, quote } = await acceptTransfer(c, beneficiaryId, {
    originAmount,
    originCurrency: c.corridor.originCurrency,
    destinationCurrency: c.corridor.destinationCurrency,
  });
  return { transferId, quote };
}

/** Submit with the corridor's first known-good bank account (202). */
export async function submitTransfer(
  c: CorridorCustomer,
  transferId: string,
  beneficiaryId: string,
  destinationIdentifier: string = sandboxTestIdentifiers[c.corridor.code].bankAccounts[0],
) {
  const res = await submit(c, transferId, submitBody(beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier }));
  assert.equal(res.status, 202, res.text);
  return res.body;
}

/** Polls until the transfer reaches `state`; fails early if it settles elsewhere than `leaving`. */
export function awaitState(c: { token: string }, transferId: string, state: string, leaving?: string): Promise<TransferDetail> {
  return awaitTransfer(c, transferId, state, (t) => {
    if (leaving && t.transferStatus !== leaving && t.transferStatus !== state) {
      throw new Error(`transfer ${transferId} went to ${t.transferStatus}, not ${state}: ${JSON.stringify(t)}`);
    }
    return t.transferStatus === state;
  });
}

/** Submit and wait for the fast-check: the transfer in validated (its latest read carries the challenge). */
export async function validateTransfer(c: CorridorCustomer, transferId: string, beneficiaryId: string): Promise<TransferDetail> {
  await submitTransfer(c, transferId, beneficiaryId);
  return awaitState(c, transferId, "validated", "registered");
}

export interface World {
  customer: CorridorCustomer;
  device: Device;
  beneficiaryId: string;
}

/** A VALID customer with one registered device and one VALID beneficiary. */
export async function world(corridor: SandboxCorridor = "US-MX"): Promise<World> {
  const customer = await corridorCustomer(corridor);
  const [device, beneficiaryId] = await Promise.all([registerDevice(customer), corridorBeneficiary(customer)]);
  return { customer, device, beneficiaryId };
}

/** A new transfer of the world's customer, accepted, submitted and validated. */
export async function validatedTransfer(w: { customer: CorridorCustomer; beneficiaryId: string }, originAmount?: string): Promise<TransferDetail> {
  const { transferId } = await corridorTransfer(w.customer, w.beneficiaryId, originAmount);
  return validateTransfer(w.customer, transferId, w.beneficiaryId);
}
