/** Customer status machine (spec 2.9, 3.3, decisions 4; other moves are documented choices). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { customerStatusMachine } from "@/lib/identity/customers/status-machine";
import { checkExhaustively, moves, type ExpectedMove } from "./exhaustive";

const STATES = ["PENDING", "VALID", "MONITORED", "RESTRICTED", "BLOCKED", "CLOSED"];
const TRIGGERS = [
  "profile.submitted",
  "kyc.approved",
  "kyc.rejected",
  "kyc.remediationRequired",
  "screening.hit",
  "screening.closeMatch",
  "operator.setStatus",
];

const MOVES: ExpectedMove[] = [
  { from: "none", trigger: "profile.submitted", to: "PENDING" },
  { from: "PENDING", trigger: "profile.submitted", to: "PENDING" },
  ...moves(["PENDING", "RESTRICTED"], "kyc.approved", "VALID"),
  ...moves(["PENDING", "RESTRICTED"], "kyc.rejected", "BLOCKED"),
  { from: "BLOCKED", trigger: "kyc.rejected", to: "BLOCKED" },
  ...moves(["PENDING", "VALID", "MONITORED", "RESTRICTED"], "kyc.remediationRequired", "RESTRICTED"),
  ...moves(["PENDING", "VALID", "MONITORED", "RESTRICTED", "BLOCKED"], "screening.hit", "BLOCKED"),
  { from: "VALID", trigger: "screening.closeMatch", to: "MONITORED" },
  { from: "PENDING", trigger: "screening.closeMatch", to: "PENDING", outcome: "MONITOR_AFTER_KYC" },
  { from: "MONITORED", trigger: "screening.closeMatch", to: "MONITORED" },
  { from: "RESTRICTED", trigger: "screening.closeMatch", to: "RESTRICTED" },
  { from: "BLOCKED", trigger: "screening.closeMatch", to: "BLOCKED" },
  ...["PENDING", "VALID", "MONITORED", "RESTRICTED", "BLOCKED"].flatMap((from) =>
    ["VALID", "MONITORED", "RESTRICTED", "BLOCKED", "CLOSED"].map((target) => ({ from, trigger: "operator.setStatus", target, to: target })),
  ),
];

function refusal(from: string, trigger: string) {
  if (trigger === "profile.submitted" && ["VALID", "MONITORED", "RESTRICTED", "BLOCKED"].includes(from)) {
    return { code: "customer.profileLocked", status: 409 };
  }
  return { code: "customer.statusInvalid", status: 409 };
}

test("customer: every (status, trigger) cell matches the table", () => {
  const cells = checkExhaustively(customerStatusMachine, {
    states: STATES,
    triggers: TRIGGERS,
    moves: MOVES,
    refusal,
    contexts: (_from, trigger) => (trigger === "operator.setStatus" ? STATES.map((target) => ({ target })) : [{}]),
  });
  assert.equal(cells, 7 * 6 + 7 * 6);
});

test("customer: no automatic signal leaves BLOCKED or CLOSED", () => {
  const automatic = ["kyc.approved", "kyc.rejected", "kyc.remediationRequired", "screening.hit", "screening.closeMatch"] as const;
  for (const t of automatic) {
    for (const from of ["BLOCKED", "CLOSED"] as const) {
      if (customerStatusMachine.can(from, t)) assert.equal(customerStatusMachine.next(from, t).to, from, `${from} ${t}`);
    }
  }
  assert.deepEqual(customerStatusMachine.allowed("CLOSED"), []);
});
