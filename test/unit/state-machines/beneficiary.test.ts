/** Beneficiary machine against spec 3.2 and decisions 5 (expected data literal on purpose). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import { beneficiaryMachine, moneyMovementCheck, beneficiaryMayMoveMoney, type BeneficiaryState } from "@/lib/payments/beneficiaries/state-machine";
import { checkExhaustively, moves, type ExpectedMove } from "./exhaustive";

const STATES = ["PENDING", "VALID", "MONITORED", "BLOCKED", "ARCHIVED"];
const TRIGGERS = ["create", "screening.valid", "screening.monitored", "screening.blocked", "archive", "operator.decide"];

const MOVES: ExpectedMove[] = [
  { from: "none", trigger: "create", to: "PENDING" },
  { from: "PENDING", trigger: "screening.valid", to: "VALID" },
  { from: "PENDING", trigger: "screening.monitored", to: "MONITORED" },
  { from: "PENDING", trigger: "screening.blocked", to: "BLOCKED" },
  // Rescreening after a new sanctions list version only tightens.
  ...moves(["VALID", "MONITORED"], "screening.blocked", "BLOCKED"),
  { from: "VALID", trigger: "screening.monitored", to: "MONITORED" },
  ...moves(["PENDING", "VALID", "MONITORED"], "archive", "ARCHIVED"),
  ...["PENDING", "VALID", "MONITORED", "BLOCKED"].flatMap((from) =>
    ["VALID", "MONITORED", "BLOCKED"].map((target) => ({ from, trigger: "operator.decide", target, to: target })),
  ),
];

function refusal(from: string, trigger: string) {
  if (from === "ARCHIVED") return { code: "beneficiary.archived", status: 409 };
  if (from === "BLOCKED" && trigger === "archive") return { code: "beneficiary.archiveBlocked", status: 409 };
  return { code: "beneficiary.stateInvalid", status: 409 };
}

test("beneficiary: every (state, trigger) cell matches spec 3.2 / decisions 5", () => {
  const cells = checkExhaustively(beneficiaryMachine, {
    states: STATES,
    triggers: TRIGGERS,
    moves: MOVES,
    refusal,
    // Operator decisions are tried with every state as the requested target.
    contexts: (_from, trigger) => (trigger === "operator.decide" ? STATES.map((target) => ({ target })) : [{}]),
  });
  assert.equal(cells, 6 * 5 + 6 * 5);
});

test("beneficiary: operator.decide without a target is a caller bug", () => {
  assert.throws(() => beneficiaryMachine.next("BLOCKED", "operator.decide"), TypeError);
});

test("beneficiary: money movement per state (spec 3.2, 7)", () => {
  const cases: [BeneficiaryState, string | null, string | null][] = [
    ["PENDING", "beneficiary.stateInsufficient", "await_beneficiary_verification"],
    ["VALID", null, null],
    ["MONITORED", null, null],
    ["BLOCKED", "beneficiary.stateBlocking", "select_different_beneficiary"],
    ["ARCHIVED", "beneficiary.stateBlocking", "select_different_beneficiary"],
  ];
  for (const [state, code, hint] of cases) {
    assert.equal(beneficiaryMayMoveMoney(state), code === null, state);
    if (code === null) {
      assert.doesNotThrow(() => moneyMovementCheck(state, "ben_1"));
      continue;
    }
    assert.throws(
      () => moneyMovementCheck(state, "ben_1"),
      (err: unknown) => {
        assert.ok(err instanceof DomainError);
        assert.equal(err.code, code);
        assert.equal(err.status, 403);
        assert.equal(err.hint, hint);
        assert.equal(err.remediation, hint);
        assert.deepEqual(err.details, { beneficiaryId: "ben_1", currentState: state, remediationHint: hint });
        return true;
      },
      state,
    );
  }
  assert.throws(
    () => moneyMovementCheck("PENDING"),
    (err: unknown) => err instanceof DomainError && !("beneficiaryId" in (err.details ?? {})),
  );
});
