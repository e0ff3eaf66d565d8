/**
 * Scenarios of the transfer integration tests (not a test file): a transfer of a VALID customer in
 * registered, validated, funding or funded, on the file's shared customer (onboarding costs
 * seconds) or a fresh one. Built on test/integration/support; everything goes through the public
 * HTTP API.
 */
import assert from "node:assert/strict";
import {
  acceptTransfer,
  awaitFastCheck,
  CLABE,
  completeFunding,
  confirmNow,
  registerDevice,
  relogin,
  serverNow,
  submit,
  submitBody,
  validBeneficiaryId,
  validCustomer,
  type Customer,
  type Device,
  type TransferDetail,
} from "../support";

export interface Scenario {
  c: Customer;
  beneficiaryId: string;
  transferId: string;
  quoteId: string;
}

export interface ScenarioOptions {
  originAmount?: string;
  /** Lower-case corridor payout method (decisions 6); default the corridor's first (bank_account). */
  payoutMethod?: string;
  /** A new customer (and beneficiary) instead of the file's shared one: for lists, events, clock-sensitive checks. */
  fresh?: boolean;
  /** The shared customer, but a new beneficiary (for checks on the beneficiary's payout methods). */
  freshBeneficiary?: boolean;
}

interface Shared {
  c: Customer;
  beneficiaryId: string;
  device?: Device;
  /** Server time of the token's issue. */
  tokenAt: number;
}

let shared: Promise<Shared> | undefined;

/**
 * One VALID customer with one VALID beneficiary per test process, given a new access token when
 * the shared clock has moved past most of the old one's hour.
 */
async function sharedParty(): Promise<Shared> {
  shared ??= (async () => {
    const c = await validCustomer();
    const beneficiaryId = await validBeneficiaryId(c);
    return { c, beneficiaryId, tokenAt: (await serverNow()).getTime() };
  })();
  const party = await shared;
  const now = (await serverNow()).getTime();
  if (now - party.tokenAt > 40 * 60_000) {
    await relogin(party.c);
    party.tokenAt = now;
  }
  return party;
}

/** A registered (accepted, not submitted) transfer of the shared customer, or of a fresh one. */
export async function registeredScenario(opts: ScenarioOptions = {}): Promise<Scenario> {
  let c: Customer;
  let beneficiaryId: string;
  if (opts.fresh) {
    c = await validCustomer();
    beneficiaryId = await validBeneficiaryId(c);
  } else {
    const party = await sharedParty();
    c = party.c;
    beneficiaryId = opts.freshBeneficiary ? await validBeneficiaryId(c) : party.beneficiaryId;
  }
  const { transferId, quoteId } = await acceptTransfer(c, beneficiaryId, {
    ...(opts.originAmount ? { originAmount: opts.originAmount } : {}),
    ...(opts.payoutMethod ? { payoutMethod: opts.payoutMethod } : {}),
  });
  return { c, beneficiaryId, transferId, quoteId };
}

/** The shared customer's device (registered once), or a new device for another customer. */
async function deviceFor(c: Customer): Promise<Device> {
  const party = shared ? await shared : undefined;
  if (party?.c !== c) return registerDevice(c);
  party.device ??= await registerDevice(c);
  return party.device;
}

/** Submits with a valid CLABE (202) and waits for validated. */
export async function submitAndValidate(s: Scenario, destinationIdentifier: string = CLABE): Promise<TransferDetail> {
  const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier }));
  assert.equal(res.status, 202, res.text);
  const t = await awaitFastCheck(s.c, s.transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  return t;
}

export async function validatedScenario(opts: ScenarioOptions = {}): Promise<Scenario> {
  const s = await registeredScenario(opts);
  await submitAndValidate(s);
  return s;
}

/** A transfer in funding: validated, a registered device, confirmed. */
export async function fundingScenario(opts: ScenarioOptions = {}): Promise<Scenario & { device: Device; confirmed: any }> {
  const s = await validatedScenario(opts);
  const device = await deviceFor(s.c);
  const confirmed = await confirmNow({ customer: s.c, device }, s.transferId);
  return { ...s, device, confirmed };
}

/** A transfer in funded. */
export async function fundedScenario(opts: ScenarioOptions = {}): Promise<Scenario & { device: Device; confirmed: any }> {
  const s = await fundingScenario(opts);
  const done = await completeFunding(s.c, s.confirmed.fundingSession.fundingSessionId);
  assert.equal(done.status, 200, done.text);
  assert.equal(done.body.transferStatus, "funded", done.text);
  return s;
}
