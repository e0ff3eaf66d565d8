/**
 * The status of an error answer is decided by the HTTP layer (lib/http/envelope.ts statusOf), not
 * by the domain: quote.invalid is 422, and 409 when what failed is a reuse (decisions 8).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DomainError } from "@/lib/errors";
import { errorResponse, statusOf } from "@/lib/http/envelope";

const invalid = (failedCheck?: string) => new DomainError("quote.invalid", { message: "x", ...(failedCheck ? { details: { failedCheck } } : {}) });

test("quote.invalid: 409 for a reused quote_id/jti or an already accepted quote, 422 otherwise", () => {
  assert.equal(statusOf(invalid("reuse")), 409);
  assert.equal(statusOf(invalid("alreadyAccepted")), 409);
  assert.equal(statusOf(invalid("disclosureToken")), 422);
  assert.equal(statusOf(invalid()), 422);
  assert.equal(errorResponse(invalid("reuse"), "c").status, 409);
});

test("every other code answers with its table status", () => {
  assert.equal(statusOf(new DomainError("transfer.stateInvalid", { details: { failedCheck: "reuse" } })), 409);
  assert.equal(statusOf(new DomainError("funding.sessionExpired")), 410);
  assert.equal(statusOf(new DomainError("device.assertionInvalid", { details: { failedCheck: "reuse" } })), 422);
});
