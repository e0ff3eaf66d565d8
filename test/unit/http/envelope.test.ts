/** lib/platform/http/envelope.ts: the error envelope of decisions section 8, Retry-After, JSON responses. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import { envelopeOf, errorResponse, jsonResponse, unexpected } from "@/lib/platform/http/envelope";

const CID = "6f1c2a7e-3b1d-4c55-9a0e-2f4b8d9e1a23";

test("envelope has exactly {error:{code,message,hint,remediation,details}, correlationId}", async () => {
  const err = new DomainError("auth.otpInvalid", { message: "The code is not valid.", hint: "check_code" });
  const res = errorResponse(err, CID);
  assert.equal(res.status, 401);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(res.headers.get("x-correlation-id"), CID);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(res.headers.get("retry-after"), null);
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), ["correlationId", "error"]);
  assert.deepEqual(Object.keys(body.error).sort(), ["code", "details", "hint", "message", "remediation"]);
  assert.deepEqual(body, {
    error: { code: "auth.otpInvalid", message: "The code is not valid.", hint: "check_code", remediation: null, details: null },
    correlationId: CID,
  });
});

test("details, hint and remediation are carried through", () => {
  const err = new DomainError("customer.statusBlocking", {
    message: "Blocked.",
    hint: "contact_support",
    remediation: "contact_support",
    details: { currentStatus: "BLOCKED", remediationHint: "contact_support" },
  });
  assert.deepEqual(envelopeOf(err, CID), {
    error: {
      code: "customer.statusBlocking",
      message: "Blocked.",
      hint: "contact_support",
      remediation: "contact_support",
      details: { currentStatus: "BLOCKED", remediationHint: "contact_support" },
    },
    correlationId: CID,
  });
});

test("message defaults to the code", () => {
  assert.equal(envelopeOf(new DomainError("transfer.notFound"), CID).error.message, "transfer.notFound");
});

test("Retry-After: integer seconds, rounded up, at least 1", () => {
  const cases: [number, string][] = [
    [900, "900"],
    [12.2, "13"],
    [0.01, "1"],
    [0, "1"],
    [-5, "1"],
  ];
  for (const [seconds, header] of cases) {
    const res = errorResponse(new DomainError("auth.rateLimited", { retryAfterSeconds: seconds }), CID);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), header, String(seconds));
  }
});

test("status override of DomainError is used by the response", () => {
  const res = errorResponse(new DomainError("quote.invalid", { status: 409 }), CID);
  assert.equal(res.status, 409);
});

test("unexpected(): server.unexpected 500, generic message, retry hints", async () => {
  const err = unexpected();
  const res = errorResponse(err, CID);
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.equal(body.error.code, "server.unexpected");
  assert.equal(body.error.hint, "retry_later");
  assert.equal(body.error.remediation, "retry_later");
  assert.deepEqual(body.error.details, { remediationHint: "retry_later" }); // spec 7 RemediationHintDetails
  assert.doesNotMatch(body.error.message, /\bat \S+ \(|select|insert|stack/i);
});

test("jsonResponse: 204 has no body; a null body has no content-type; cache-control kept when given", async () => {
  const noContent = jsonResponse(204, null);
  assert.equal(noContent.status, 204);
  assert.equal(await noContent.text(), "");
  assert.equal(noContent.headers.get("content-type"), null);
  assert.equal(noContent.headers.get("cache-control"), "no-store");
  const cached = jsonResponse(200, "{}", { "cache-control": "max-age=60" });
  assert.equal(cached.headers.get("cache-control"), "max-age=60");
  assert.equal(cached.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(await cached.text(), "{}");
});
