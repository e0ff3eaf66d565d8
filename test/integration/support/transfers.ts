/** Transfer helpers of the integration tests: submit, reads, polling, funding and the sandbox network and compliance controls (decisions 7). */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { sandboxTestIdentifiers, sandboxTestPhones } from "@/lib/payments/payout-identifiers/sandbox-identifiers";
import { call, eventually, type CallResult } from "./client";
import { POLL_MS } from "./customers";
import { validAssertion, type Device } from "./devices";

type Caller = { token: string };

/** Valid US-MX identifiers (they pass the format check and the fast-check). */
export const CLABES = sandboxTestIdentifiers["US-MX"].bankAccounts;
export const CLABE = CLABES[0];
/** 18 digits (format-valid) with a wrong check digit: passes submit, fails the fast-check. */
export const BAD_CHECK_DIGIT_CLABE = "002010077777777772";
export const MX_PHONE = sandboxTestPhones.MX[0];

export interface TransferDetail {
  transferId: string;
  transferStatus: string;
  originAmount: string;
  originCurrency: string;
  beneficiaryId: string;
  confirmationChallenge?: string;
  fundingSession?: { fundingSessionId: string; fundingWebviewUrl: string | null; expiresAt: string };
  stateHistory: { state: string; transitionedAt: string; reasonCode: string }[];
  [k: string]: any;
}

export function submitBody(
  beneficiaryId: string,
  payoutMethod: Record<string, unknown> = { methodType: "BANK_TRANSFER", destinationIdentifier: CLABE },
  extra: Record<string, unknown> = {},
) {
  return { beneficiaryId, payoutMethod, purposeOfTransfer: "FAMILY_SUPPORT", ...extra };
}

export function submit(c: Caller, transferId: string, body: unknown, opts: { idempotencyKey?: string } = {}) {
  return call("POST", `/v1/core/transfers/${encodeURIComponent(transferId)}/submit`, { token: c.token, body, ...opts });
}

export function readTransfer(c: Caller, transferId: string) {
  return call("GET", `/v1/core/transfers/${encodeURIComponent(transferId)}`, { token: c.token });
}

/** Reads the transfer (200); in validated every read issues a new confirmationChallenge. */
export async function transferDetail(c: Caller, transferId: string): Promise<TransferDetail> {
  const res = await readTransfer(c, transferId);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export function listTransfers(c: Caller, query = "") {
  return call("GET", `/v1/core/transfers${query ? `?${query}` : ""}`, { token: c.token });
}

export function cancel(c: Caller, transferId: string, opts: { idempotencyKey?: string; body?: unknown } = {}) {
  return call("POST", `/v1/core/transfers/${encodeURIComponent(transferId)}/cancel`, {
    token: c.token,
    body: opts.body ?? { cancellationReason: "CUSTOMER_REQUEST" },
    idempotencyKey: opts.idempotencyKey ?? randomUUID(),
  });
}

/** Polls GET until the transfer satisfies `done` (default: state is `state`; `done` may throw to stop early); returns the detail. */
export async function awaitTransfer(
  c: Caller,
  transferId: string,
  state: string,
  done?: (t: TransferDetail) => boolean,
  timeoutMs = POLL_MS,
): Promise<TransferDetail> {
  let last: CallResult | undefined;
  return eventually(
    async () => {
      last = await readTransfer(c, transferId);
      assert.equal(last.status, 200, last.text);
      return (done ? done(last.body) : last.body.transferStatus === state) ? (last.body as TransferDetail) : undefined;
    },
    timeoutMs,
    `transfer ${transferId} ${state}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
}

/** Waits for the fast-check to leave registered; returns the detail. */
export async function awaitFastCheck(c: Caller, transferId: string): Promise<TransferDetail> {
  return awaitTransfer(c, transferId, "(not registered)", (t) => t.transferStatus !== "registered");
}

export function confirm(c: Caller, transferId: string, deviceAssertion: unknown, idempotencyKey: string = randomUUID()) {
  return call("POST", `/v1/core/transfers/${encodeURIComponent(transferId)}/confirm`, { token: c.token, body: { deviceAssertion }, idempotencyKey });
}

/** Asserts a successful confirm (200, funding, a funding session) and returns its body. */
export function assertConfirmed(res: CallResult, transferId: string) {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.transferId, transferId);
  assert.equal(res.body.transferStatus, "funding");
  assert.equal(res.body.nextStep, "OPEN_FUNDING_WEBVIEW");
  assert.ok(res.body.confirmedAt);
  assert.match(res.body.fundingSession?.fundingSessionId ?? "", /\S/, res.text);
  assert.match(res.body.fundingSession?.fundingWebviewUrl ?? "", /^https?:\/\//, res.text);
  return res.body;
}

/** Reads the transfer afresh (a new challenge) and confirms it with a correct assertion (200); returns the confirm body. */
export async function confirmNow(w: { customer: Caller; device: Device }, transferId: string) {
  const t = await transferDetail(w.customer, transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  const res = await confirm(w.customer, transferId, await validAssertion(w.device, t));
  return assertConfirmed(res, transferId);
}

export function completeFunding(c: Caller, fundingSessionId: string, outcome: "SUCCEEDED" | "FAILED" = "SUCCEEDED") {
  return call("POST", `/v1/sandbox/funding-sessions/${encodeURIComponent(fundingSessionId)}/complete`, { token: c.token, body: { outcome } });
}

export function advance(c: Caller, transferId: string, to: string) {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/advance`, { token: c.token, body: { to } });
}

export async function advanceTo(c: Caller, transferId: string, ...steps: string[]) {
  for (const to of steps) {
    const res = await advance(c, transferId, to);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transferStatus, to, res.text);
  }
}

export function networkCancellation(c: Caller, transferId: string, outcome: string) {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/network-cancellation`, { token: c.token, body: { outcome } });
}

export function hold(c: Caller, transferId: string) {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/compliance-hold`, { token: c.token, body: {} });
}

export function release(c: Caller, transferId: string, resolution: "RESTORE" | "REJECT") {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/compliance-release`, { token: c.token, body: { resolution } });
}

export function review(c: Caller, transferId: string, decision: "APPROVE" | "REJECT") {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/review`, { token: c.token, body: { decision } });
}

/** reasonCodes of a detail's stateHistory, in order. */
export const reasons = (t: any): string[] => t.stateHistory.map((h: { reasonCode: string }) => h.reasonCode);
export const states = (t: any): string[] => t.stateHistory.map((h: { state: string }) => h.state);
