/**
 * The integration client's contract check (test/integration/support/contract-check.ts):
 * every response is parsed against its operation's contract, so a field the contract does
 * not promise, mistyped or missing, fails the test that received it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkAgainstContract, ContractMismatch, contractOf } from "../../integration/support/contract-check";

const JSON_TYPE = "application/json";
const accepted = { quoteId: "q_1", transferId: "trf_1", transferStatus: "registered" };

test("a request's path finds its contract (templates, query strings, methods)", () => {
  assert.equal(contractOf("POST", "/v1/core/quotes/q_1/accept")?.operationId, "acceptQuote");
  assert.equal(contractOf("GET", "/v1/core/transfers/trf_1?x=1")?.operationId, "readTransfer");
  assert.equal(contractOf("DELETE", "/v1/core/quotes/q_1/accept"), undefined);
  assert.equal(contractOf("GET", "/webviews/funding/abc"), undefined);
});

test("a success answer matching its schema passes", () => {
  checkAgainstContract("POST", "/v1/core/quotes/q_1/accept", 201, accepted, JSON_TYPE);
});

test("a deliberately wrong field fails: renamed, mistyped, or a value outside the contract", () => {
  const { transferStatus, ...rest } = accepted;
  for (const body of [
    { ...rest, transferState: transferStatus },
    { ...accepted, transferId: 42 },
    { ...accepted, transferStatus: "funding" },
  ]) {
    assert.throws(() => checkAgainstContract("POST", "/v1/core/quotes/q_1/accept", 201, body, JSON_TYPE), ContractMismatch, JSON.stringify(body));
  }
});

test("a field the contract does not declare fails, at any depth; so does a success status it does not answer", () => {
  assert.throws(
    () => checkAgainstContract("POST", "/v1/core/quotes/q_1/accept", 201, { ...accepted, riskScore: 87 }, JSON_TYPE),
    (err: unknown) => err instanceof ContractMismatch && /riskScore/.test(err.message),
  );
  const list = {
    items: [
      {
        eventId: "evt_1",
        eventType: "transfer.state.changed",
        occurredAt: "2026-11-25T10:00:00.000Z",
        subscriptionId: "sub_1",
        sequence: 1,
        data: { transferId: "trf_1", state: "onreview", previousState: "registered", reasonCode: "TRF_CHECK_REVIEW" },
      },
    ],
    nextCursor: null,
  };
  checkAgainstContract("GET", "/v1/core/events", 200, list, JSON_TYPE);
  const leaked = structuredClone(list);
  (leaked.items[0].data as Record<string, unknown>).caseId = "case_1";
  assert.throws(
    () => checkAgainstContract("GET", "/v1/core/events", 200, leaked, JSON_TYPE),
    (err: unknown) => err instanceof ContractMismatch && /items\[0\]\.data\.caseId/.test(err.message),
  );
  assert.throws(() => checkAgainstContract("POST", "/v1/core/quotes/q_1/accept", 200, accepted, JSON_TYPE), ContractMismatch);
});

test("an error answer must be the envelope", () => {
  const envelope = { error: { code: "quote.notFound", message: "No such quote.", hint: null, remediation: null, details: null }, correlationId: "c" };
  checkAgainstContract("POST", "/v1/core/quotes/q_1/accept", 404, envelope, JSON_TYPE);
  assert.throws(() => checkAgainstContract("POST", "/v1/core/quotes/q_1/accept", 404, { error: "quote.notFound" }, JSON_TYPE), ContractMismatch);
});

test("answers the contracts do not describe are left alone", () => {
  checkAgainstContract("GET", "/webviews/funding/abc", 200, "<html>", "text/html");
  checkAgainstContract("POST", "/v1/core/quotes/q_1/accept", 201, "<xml/>", "application/xml");
});
