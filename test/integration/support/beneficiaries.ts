/** Beneficiary factories of the integration tests: MEX bodies with clean names, screening through the sandbox. */
import assert from "node:assert/strict";
import { call, eventually, type CallResult } from "./client";
import { POLL_MS, uniqueSurname } from "./customers";

type Caller = { token: string };

/** The keys of a beneficiary detail and list item (decisions 5), sorted. */
export const BENEFICIARY_KEYS = [
  "beneficiaryId",
  "countryOfResidence",
  "createdAt",
  "customerActionHint",
  "dateOfBirth",
  "firstName",
  "lastName",
  "lastUsedAt",
  "nationality",
  "payoutMethods",
  "relationshipToCustomer",
  "state",
];

export interface BeneficiaryBody {
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
  nationality?: string;
  countryOfResidence?: string;
  relationshipToCustomer?: string;
  [k: string]: unknown;
}

/** A MEX beneficiary body with a unique, clean name. */
export function mexBeneficiary(overrides: BeneficiaryBody = {}): BeneficiaryBody {
  return { firstName: "Lucia", lastName: uniqueSurname("Hernandez"), countryOfResidence: "MEX", relationshipToCustomer: "FAMILY", ...overrides };
}

export function createBeneficiary(c: Caller, body: unknown = mexBeneficiary(), opts: { idempotencyKey?: string } = {}) {
  return call("POST", "/v1/core/beneficiaries", { token: c.token, body, ...opts });
}

export function readBeneficiary(c: Caller, id: string) {
  return call("GET", `/v1/core/beneficiaries/${encodeURIComponent(id)}`, { token: c.token });
}

export function listBeneficiaries(c: Caller, query = "") {
  return call("GET", `/v1/core/beneficiaries${query ? `?${query}` : ""}`, { token: c.token });
}

export function archiveBeneficiary(c: Caller, id: string, opts: { idempotencyKey?: string } = {}) {
  return call("POST", `/v1/core/beneficiaries/${encodeURIComponent(id)}/archive`, { token: c.token, ...opts });
}

export function forceScreening(c: Caller, id: string, outcome: "VALID" | "MONITORED" | "BLOCKED") {
  return call("POST", `/v1/sandbox/beneficiaries/${encodeURIComponent(id)}/screening`, { token: c.token, body: { outcome } });
}

/** Polls the beneficiary until screening has decided it (state no longer PENDING); returns the detail. */
export async function awaitScreened(c: Caller, id: string): Promise<any> {
  let last: CallResult | undefined;
  return eventually(
    async () => {
      last = await readBeneficiary(c, id);
      assert.equal(last.status, 200, last.text);
      return last.body.state !== "PENDING" ? last.body : undefined;
    },
    POLL_MS,
    `screening of ${id}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
}

/** Creates a beneficiary (202) and waits for its screening result; returns the detail. */
export async function screenedBeneficiary(c: Caller, body: BeneficiaryBody = mexBeneficiary()): Promise<any> {
  const res = await createBeneficiary(c, body);
  assert.equal(res.status, 202, res.text);
  return awaitScreened(c, res.body.beneficiaryId);
}

/** A VALID beneficiary (MEX unless overridden), screened clean by the sandbox watch list; returns the detail. */
export async function validBeneficiary(c: Caller, overrides: BeneficiaryBody = {}): Promise<any> {
  const b = await screenedBeneficiary(c, mexBeneficiary(overrides));
  assert.equal(b.state, "VALID", JSON.stringify(b));
  return b;
}

/** The id of a new VALID beneficiary. */
export const validBeneficiaryId = async (c: Caller, overrides: BeneficiaryBody = {}): Promise<string> => (await validBeneficiary(c, overrides)).beneficiaryId;
