/**
 * One rule per idea: who may move money is one predicate for customers and one
 * for beneficiaries, and the gate of the money-moving quote routes is that predicate's list.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { beneficiaryMayMoveMoney, BENEFICIARY_STATES } from "@/lib/payments/beneficiaries/state-machine";
import { GATES } from "@/lib/identity/customers/gating";
import { transactable } from "@/lib/identity/customers/profile";
import { customerMayMoveMoney, CUSTOMER_STATUSES, MONEY_MOVING_STATUSES } from "@/lib/identity/customers/status-machine";

test("customers: VALID and MONITORED may move money, no other status", () => {
  assert.deepEqual(
    CUSTOMER_STATUSES.filter((s) => customerMayMoveMoney(s)),
    ["VALID", "MONITORED"],
  );
  assert.deepEqual(GATES.quoteAccept.permitted, MONEY_MOVING_STATUSES);
  // Submit and confirm are stricter than the rule, never looser.
  for (const s of GATES.transferCommit.permitted) assert.ok(customerMayMoveMoney(s), s);
});

test("transactability (spec 2.2): the rule plus RESTRICTED, and only with KYC completed", () => {
  assert.deepEqual(
    CUSTOMER_STATUSES.filter((s) => transactable(s, "COMPLETED")),
    ["VALID", "MONITORED", "RESTRICTED"],
  );
  assert.deepEqual(
    CUSTOMER_STATUSES.filter((s) => transactable(s, "IN_PROGRESS")),
    [],
  );
});

test("beneficiaries: VALID and MONITORED may receive money, no other state", () => {
  assert.deepEqual(
    BENEFICIARY_STATES.filter((s) => beneficiaryMayMoveMoney(s)),
    ["VALID", "MONITORED"],
  );
});
