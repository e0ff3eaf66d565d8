/**
 * The status of an error answer is chosen in one place, when the DomainError is made
 * (lib/platform/errors.ts): quote.invalid is 422, and 409 when what failed is a reuse (decisions 8); the
 * HTTP envelope answers err.status as it is.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DomainError } from "@/lib/platform/errors";
import { errorResponse } from "@/lib/platform/http/envelope";

const invalid = (failedCheck?: string) => new DomainError("quote.invalid", { message: "x", ...(failedCheck ? { details: { failedCheck } } : {}) });

test("quote.invalid: 409 for a reused quote_id/jti or an already accepted quote, 422 otherwise", () => {
  assert.equal(invalid("reuse").status, 409);
  assert.equal(invalid("alreadyAccepted").status, 409);
  assert.equal(invalid("disclosureToken").status, 422);
  assert.equal(invalid().status, 422);
  assert.equal(errorResponse(invalid("reuse"), "c").status, 409);
  assert.equal(errorResponse(invalid(), "c").status, 422);
  // Kept through keepingChanges (a committed failure answers the same status).
  assert.equal(invalid("reuse").keepingChanges().status, 409);
});

test("quote.expired: 422 by default (create, accept), 410 where a read names the alternative", () => {
  assert.equal(new DomainError("quote.expired").status, 422);
  assert.equal(new DomainError("quote.expired", { status: 410 }).status, 410);
});

test("every other code answers with its table status", () => {
  assert.equal(new DomainError("transfer.stateInvalid", { details: { failedCheck: "reuse" } }).status, 409);
  assert.equal(new DomainError("funding.sessionExpired").status, 410);
  assert.equal(new DomainError("device.assertionInvalid", { details: { failedCheck: "reuse" } }).status, 422);
});
