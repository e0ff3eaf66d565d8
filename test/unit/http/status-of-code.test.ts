/** lib/platform/errors.ts ERROR_STATUS: decisions section 8's table (B), copied here as literal data. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { DomainError, ERROR_STATUS, httpStatusOf, notFound, statusesOf, validationError, type ErrorCode } from "@/lib/platform/errors";

/**
 * decisions.md section 8, row by row, as written:
 *
 * | 400 | validation.* except contentTypeUnsupported, auth.identifierInvalid |
 * | 401 | auth.tokenExpired, auth.tokenInvalid, auth.tokenRevoked, auth.credentialMismatch, auth.mfaRequired, auth.sessionExpired, auth.otpInvalid, auth.otpExpired, auth.subscriptionKeyInvalid |
 * | 403 | customer.statusInsufficient, customer.statusBlocking, subscription.spended, subscription.closed, beneficiary.stateInsufficient, beneficiary.stateBlocking |
 * | 404 | *.notFound (also for another customer's resource) |
 * | 409 | idempotency.conflict, transfer.stateInvalid, quote.invalid (reuse), beneficiary.archived, beneficiary.archiveBlocked, customer.profileLocked |
 * | 410 | transfer.quoteExpired, kyc.sessionExpired, funding.sessionExpired, quote.expired (on reads) |
 * | 412 | device.notRegistered, device.registrationRequired, device.deactivated |
 * | 415 | validation.contentTypeUnsupported |
 * | 422 | quote.* (at create and accept), device.assertionInvalid |
 * | 429 | auth.rateLimited, device.assertionLockout |
 * | 500 / 502 / 503 | server.unexpected / network.unavailable / internal.unavailable |
 */
const TABLE: Record<number, string[]> = {
  400: ["validation.*", "auth.identifierInvalid"],
  401: [
    "auth.tokenExpired",
    "auth.tokenInvalid",
    "auth.tokenRevoked",
    "auth.credentialMismatch",
    "auth.mfaRequired",
    "auth.sessionExpired",
    "auth.otpInvalid",
    "auth.otpExpired",
    "auth.subscriptionKeyInvalid",
  ],
  403: [
    "customer.statusInsufficient",
    "customer.statusBlocking",
    "subscription.spended",
    "subscription.closed",
    "beneficiary.stateInsufficient",
    "beneficiary.stateBlocking",
  ],
  404: ["*.notFound"],
  409: [
    "idempotency.conflict",
    "transfer.stateInvalid",
    "quote.invalid (reuse)",
    "beneficiary.archived",
    "beneficiary.archiveBlocked",
    "customer.profileLocked",
  ],
  410: ["transfer.quoteExpired", "kyc.sessionExpired", "funding.sessionExpired", "quote.expired (on reads)"],
  412: ["device.notRegistered", "device.registrationRequired", "device.deactivated"],
  415: ["validation.contentTypeUnsupported"],
  422: ["quote.* (at create and accept)", "device.assertionInvalid"],
  429: ["auth.rateLimited", "device.assertionLockout"],
  500: ["server.unexpected"],
  502: ["network.unavailable"],
  503: ["internal.unavailable"],
};

/** Rows of our own (docs/decisions.md, "Codes we added"): codes section 8 does not name. */
const OURS: Record<string, number> = {
  "validation.bodyTooLarge": 413, // 413 or 400 would do; 413 says exactly what happened
  "validation.headersTooLarge": 431, // Node refuses headers over 16 KiB before any route; 431 is HTTP's status for it
  "route.methodNotAllowed": 405,
  "kyc.notRequired": 409,
  "customer.statusInvalid": 409,
  "beneficiary.stateInvalid": 409,
  "kyc.sessionStateInvalid": 409,
  "funding.sessionStateInvalid": 409,
  "refund.stateInvalid": 409,
  "webhookEndpoint.stateInvalid": 409, // console: re-enable an endpoint that is not disabled
  "bankCredit.stateInvalid": 409, // console: a bank credit already matched or returned
  "screeningCase.stateInvalid": 409, // console: a screening case already decided
  "screeningCase.notFound": 404, // console: no such screening case
  "screeningCase.holdsTransfer": 409, // console: a hold a screening case owns, resolved outside it
  "screeningCase.nothingBlocked": 409, // console: a release under licence with nothing blocked
  "complianceCase.stateInvalid": 409, // console: a compliance case already moved on
  "complianceCase.notFound": 404, // console: no such compliance case
  "suspiciousActivityReport.stateInvalid": 409, // console: a report already filed
  "suspiciousActivityReport.notFound": 404, // console: no such report
  "riskFlag.stateInvalid": 409, // console: a customer's risk flag already cleared
  "riskFlag.notFound": 404, // console: no such risk flag on the customer
  "pep.approvalPending": 409, // console: a PEP's transfer approved out of review before the PEP was approved
  "pep.enhancedKycRequired": 409, // console: a PEP approved before their ENHANCED KYC
  "suspiciousActivityReport.selfApproval": 403, // console: four eyes, a report's author does not approve it
  "proposal.stateInvalid": 409, // console: a dual-control proposal already decided or lapsed
  "proposal.duplicate": 409, // console: a proposal already open for the same action and subject
  "proposal.selfApproval": 403, // console: the proposer approving their own proposal
  "proposal.roleInsufficient": 403, // console: an approver without the action's role
  "proposal.notFound": 404, // console: no such proposal
  "ruleSet.stateInvalid": 409, // console: a monitoring rule set moved on
  "ruleSet.notFound": 404, // console: no such rule set
  "ruleSet.authorMayNotActivate": 403, // console: four eyes, the author of a rule set does not activate it
  "ledger.periodClosed": 409, // console: a posting dated in a closed month
  "ledgerPeriod.stateInvalid": 409, // console: a month already closed, or reopened while open
  "ledgerPeriod.notEnded": 409, // console: closing the running month
  "journal.stateInvalid": 409, // console: a manual journal already posted or discarded
  "ledger.partnerFeesExceeded": 409, // console: a partner-fee payment above what the partner is owed
  "reconciliation.stateInvalid": 409, // console: a statement difference already explained
  "journal.notFound": 404, // console: no such manual journal
  "statementBalance.notFound": 404, // console: no such statement balance
  "claim.notFound": 404, // no such error claim
  "claim.stateInvalid": 409, // console: a claim already resolved
  "claim.alreadyOpen": 409, // a claim of that type already unresolved on the transfer
  "claim.windowClosed": 422, // an error claim more than 180 days after the date available
  "funding.methodUnavailable": 409, // bank transfer for a currency the collection account does not take
  "customer.limitExceeded": 422, // the accept would take the customer over a rolling limit of their tier
};

/** Entries whose status depends on the endpoint: the default row, then the one the caller picks. */
const CONTEXTUAL: Record<string, { code: ErrorCode; statuses: number[] }> = {
  "quote.invalid (reuse)": { code: "quote.invalid", statuses: [422, 409] },
  "quote.expired (on reads)": { code: "quote.expired", statuses: [422, 410] },
};

/** The statuses section 8 gives a code (a wildcard row matches by pattern). */
function decided(code: string): number[] {
  if (OURS[code] !== undefined) return [OURS[code]];
  const found: number[] = [];
  for (const [status, entries] of Object.entries(TABLE)) {
    for (const entry of entries) {
      const pattern = entry.replace(/ \(.*\)$/, "");
      const match = pattern.startsWith("*.")
        ? code.endsWith(pattern.slice(1))
        : pattern.endsWith(".*")
          ? code.startsWith(pattern.slice(0, -1)) && code !== "validation.contentTypeUnsupported"
          : code === pattern;
      if (match) found.push(Number(status));
    }
  }
  // *.notFound is its own row: it wins over a family row (quote.notFound is 404, not 422).
  return code.endsWith(".notFound") ? [404] : [...new Set(found)];
}

test("every code of the table has the status section 8 gives it", () => {
  for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
    const want = decided(code);
    const contextual = Object.values(CONTEXTUAL).find((c) => c.code === code);
    if (contextual) {
      assert.deepEqual([...statusesOf(code)].sort(), [...contextual.statuses].sort(), code);
      assert.deepEqual([...want].sort(), [...contextual.statuses].sort(), `${code}: section 8 rows`);
      continue;
    }
    assert.equal(want.length, 1, `${code}: section 8 (or docs/decisions.md) gives it exactly one status, got ${want}`);
    assert.deepEqual(statusesOf(code), want, code);
    assert.equal(httpStatusOf(code), want[0], code);
    assert.equal(new DomainError(code).status, want[0], `DomainError(${code}).status`);
  }
});

test("every code section 8 names is in the table", () => {
  const named = Object.values(TABLE)
    .flat()
    .map((e) => e.replace(/ \(.*\)$/, ""))
    .filter((e) => !e.includes("*"));
  for (const code of named) assert.ok(code in ERROR_STATUS, code);
});

test("a code with two statuses takes the other one only when asked", () => {
  for (const { code, statuses } of Object.values(CONTEXTUAL)) {
    assert.equal(new DomainError(code).status, statuses[0], code);
    assert.equal(new DomainError(code, { status: statuses[1] as never }).status, statuses[1], code);
  }
});

test("no code written in lib/ or app/ is outside the table", () => {
  // The compiler checks typed positions; this catches a code hidden in an untyped string.
  const files = execFileSync("git", ["ls-files", "lib", "app"], { encoding: "utf8" })
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f));
  const used = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:DomainError\(|code: |refusedCode: |errors: \[[^\]]*?)"([a-zA-Z]+\.[a-zA-Z]+)"/g)) used.add(m[1]);
    for (const m of text.matchAll(/\bnotFound\("([a-zA-Z]+)"/g)) used.add(`${m[1]}.notFound`);
  }
  assert.ok(used.size > 40, `found ${used.size} codes`);
  const families = new Set(Object.keys(ERROR_STATUS).map((c) => c.split(".")[0]));
  const outside = [...used].filter((c) => families.has(c.split(".")[0]) && !(c in ERROR_STATUS));
  assert.deepEqual(outside, []);
});

test("validationError helper: summary code from the issues", () => {
  const missing = validationError([{ field: "a", code: "validation.fieldMissing" }]);
  assert.equal(missing.code, "validation.fieldMissing");
  assert.equal(missing.status, 400);
  const mixed = validationError([
    { field: "a", code: "validation.fieldMissing" },
    { field: "b", code: "validation.fieldInvalid" },
  ]);
  assert.equal(mixed.code, "validation.fieldInvalid");
  assert.deepEqual(mixed.details, {
    issues: [
      { field: "a", code: "validation.fieldMissing" },
      { field: "b", code: "validation.fieldInvalid" },
    ],
  });
});

test("notFound helper: <resource>.notFound, 404", () => {
  const err = notFound("beneficiary");
  assert.equal(err.code, "beneficiary.notFound");
  assert.equal(err.status, 404);
  assert.equal(err.message, "No such beneficiary.");
});

test("remediation is also details.remediationHint, set once by DomainError", () => {
  const err = new DomainError("customer.statusBlocking", { remediation: "contact_support", details: { currentStatus: "BLOCKED" } });
  assert.deepEqual(err.details, { currentStatus: "BLOCKED", remediationHint: "contact_support" });
  assert.deepEqual(new DomainError("device.notRegistered", { remediation: "register_device" }).details, { remediationHint: "register_device" });
  assert.equal(new DomainError("transfer.notFound").details, undefined);
});

test("keepingChanges keeps every field of the error (a rebuilt error once dropped remediation)", () => {
  const err = new DomainError("quote.invalid", {
    message: "Reused.",
    status: 409,
    hint: "create_new_quote",
    remediation: "retry_later",
    retryAfterSeconds: 7,
    details: { failedCheck: "reuse" },
  });
  const kept = err.keepingChanges();
  assert.equal(kept.keepChanges, true);
  assert.equal(err.keepChanges, false);
  for (const key of ["code", "message", "status", "hint", "remediation", "retryAfterSeconds"] as const) assert.equal(kept[key], err[key], key);
  assert.deepEqual(kept.details, { failedCheck: "reuse", remediationHint: "retry_later" });
});
