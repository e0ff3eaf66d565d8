/** The generic machine of lib/platform/state-machine/define.ts, and a self-test of the exhaustive harness. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { defineMachine, toMarkdown, NONE, type MachineDefinition } from "@/lib/platform/state-machine/define";
import { transferMachine } from "@/lib/payments/transfers/state-machine";
import { assertRefused, checkExhaustively } from "./exhaustive";

type S = "idle" | "busy" | "parked" | "done";
type T = "start" | "finish" | "park" | "resume" | "abort" | "set" | "create";

const def: MachineDefinition<S, T> = {
  name: "widget",
  states: ["idle", "busy", "parked", "done"],
  triggers: ["create", "start", "finish", "park", "resume", "abort", "set"],
  // Real codes (ErrorCode is closed): the refusal's status is its code's own (lib/platform/errors.ts).
  refusedCode: "refund.stateInvalid",
  refusals: [
    { from: ["done"], code: "kyc.sessionExpired" },
    { from: ["parked"], trigger: "start", code: "beneficiary.archiveBlocked", message: "Parked." },
  ],
  transitions: [
    { from: [NONE], trigger: "create", to: "idle", reasonCode: "CREATED" },
    { from: ["idle"], trigger: "start", to: "busy", reasonCode: "STARTED" },
    { from: ["busy"], trigger: "start", to: "unchanged", outcome: "ALREADY_BUSY" },
    { from: ["busy"], trigger: "finish", to: "done" },
    { from: ["idle", "busy"], trigger: "park", to: "parked" },
    { from: ["parked"], trigger: "resume", to: "prior", targets: ["idle", "busy"], reasonCode: "RESUMED" },
    { from: ["parked"], whenPrior: ["idle"], trigger: "abort", to: "done", outcome: "ABORTED_IDLE" },
    { from: ["parked"], whenPrior: ["busy"], trigger: "abort", to: "unchanged", outcome: "ABORT_PENDING" },
    { from: ["idle", "busy"], trigger: "set", to: "requested", targets: ["idle", "busy", "done"] },
  ],
};
const m = defineMachine(def);

test("next: fixed, unchanged, prior, whenPrior and requested destinations", () => {
  assert.deepEqual(m.next(NONE, "create"), { from: NONE, trigger: "create", to: "idle", changed: true, reasonCode: "CREATED" });
  assert.deepEqual(m.next("idle", "start"), { from: "idle", trigger: "start", to: "busy", changed: true, reasonCode: "STARTED" });
  assert.deepEqual(m.next("busy", "start"), { from: "busy", trigger: "start", to: "busy", changed: false, outcome: "ALREADY_BUSY" });
  assert.equal(m.next("parked", "resume", { prior: "busy" }).to, "busy");
  assert.deepEqual(m.next("parked", "abort", { prior: "idle" }), { from: "parked", trigger: "abort", to: "done", changed: true, outcome: "ABORTED_IDLE" });
  assert.deepEqual(m.next("parked", "abort", { prior: "busy" }), { from: "parked", trigger: "abort", to: "parked", changed: false, outcome: "ABORT_PENDING" });
  assert.equal(m.next("idle", "set", { target: "done" }).to, "done");
  assert.equal(m.next("idle", "set", { target: "idle" }).changed, false);
});

test("refusals: default code and status, per-state and per-trigger overrides, details", () => {
  assertRefused(() => m.next("idle", "finish"), { code: "refund.stateInvalid", status: 409 }, "idle", "finish");
  assertRefused(() => m.next("done", "start"), { code: "kyc.sessionExpired", status: 410 }, "done", "start");
  assertRefused(() => m.next("parked", "start"), { code: "beneficiary.archiveBlocked", status: 409 }, "parked", "start");
  assertRefused(() => m.next("parked", "finish"), { code: "refund.stateInvalid", status: 409 }, "parked", "finish");
  assertRefused(() => m.next(NONE, "start"), { code: "refund.stateInvalid", status: 409 }, NONE, "start");
  // A target or prior outside the row's targets is refused, and named in details.
  assert.throws(
    () => m.next("idle", "set", { target: "parked" }),
    (e: any) => e.code === "refund.stateInvalid" && e.details.requestedState === "parked",
  );
  assert.throws(
    () => m.next("parked", "resume", { prior: "done" }),
    (e: any) => e.code === "refund.stateInvalid" && e.details.priorState === "done",
  );
  assert.throws(
    () => m.next("parked", "abort", { prior: "done" }),
    (e: any) => e.code === "refund.stateInvalid",
  );
  assert.throws(
    () => m.next("parked", "start"),
    (e: any) => e.message === "Parked.",
  );
});

test("missing context is a caller bug (TypeError), not a client error", () => {
  assert.throws(() => m.next("parked", "resume"), TypeError);
  assert.throws(() => m.next("parked", "abort"), TypeError);
  assert.throws(() => m.next("busy", "set"), TypeError);
});

test("can and allowed", () => {
  assert.deepEqual(m.allowed(NONE), ["create"]);
  assert.deepEqual(m.allowed("idle"), ["start", "park", "set"]);
  assert.deepEqual(m.allowed("parked"), ["resume", "abort"]);
  assert.deepEqual(m.allowed("parked", { prior: "done" }), ["resume"]);
  assert.deepEqual(m.allowed("done"), []);
  assert.equal(m.can("busy", "finish"), true);
  assert.equal(m.can("idle", "finish"), false);
  assert.equal(m.can("parked", "abort", { prior: "busy" }), true);
  assert.equal(m.can("parked", "abort", { prior: "parked" }), false);
});

test("definition mistakes fail at construction", () => {
  const bad = (patch: Partial<MachineDefinition<S, T>>) => () => defineMachine({ ...def, ...patch } as MachineDefinition<S, T>);
  const row = def.transitions[1]!;
  assert.throws(bad({ transitions: [{ ...row, trigger: "nope" as T }] }), /unknown trigger/);
  assert.throws(bad({ transitions: [{ ...row, from: ["nope" as S] }] }), /bad from/);
  assert.throws(bad({ transitions: [{ ...row, from: [] }] }), /bad from/);
  assert.throws(bad({ transitions: [{ ...row, to: "nope" as S }] }), /bad to/);
  assert.throws(bad({ transitions: [{ from: [NONE], trigger: "create", to: "unchanged" }] }), /unchanged/);
  assert.throws(bad({ transitions: [{ ...row, targets: ["idle"] }] }), /bad targets/);
  assert.throws(bad({ transitions: [{ ...row, to: "prior", whenPrior: ["nope" as S] }] }), /bad whenPrior/);
  assert.throws(bad({ transitions: [row, { ...row, to: "done" }] }), /overlaps/);
  assert.throws(
    bad({
      transitions: [
        { ...row, whenPrior: ["idle"] },
        { ...row, whenPrior: ["idle", "busy"] },
      ],
    }),
    /overlaps/,
  );
  assert.doesNotThrow(
    bad({
      transitions: [
        { ...row, whenPrior: ["idle"] },
        { ...row, whenPrior: ["busy"] },
      ],
    }),
  );
  assert.throws(bad({ refusals: [{ from: ["nope" as S], code: "refund.stateInvalid" }] }), /refusal 0/);
  assert.throws(() => defineMachine({ name: "x", states: ["none"], triggers: ["t"], refusedCode: "refund.stateInvalid", transitions: [] }), /reserved/);
});

test("the machine and its table are read-only data", () => {
  assert.ok(Object.isFrozen(m));
  assert.equal(m.refusedCode, "refund.stateInvalid");
  assert.equal(m.transitions.length, def.transitions.length);
});

test("toMarkdown documents every row and refusal", () => {
  const md = toMarkdown(m);
  assert.match(md, /\| none \| create \| idle \|  \| CREATED \|/);
  assert.match(md, /\| parked \| resume \| prior \(idle, busy\) \|/);
  assert.match(md, /\| parked \| abort \| unchanged \| busy \|  \| ABORT_PENDING \|/);
  assert.match(md, /refused with `refund.stateInvalid`/);
  assert.match(md, /- from parked, start: `beneficiary.archiveBlocked`/);
  assert.equal(md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| From")).length, def.transitions.length);
});

test("harness self-test: a one-row edit to a real table fails the exhaustive check", () => {
  // Rebuild the transfer machine with one reason code changed, then with one from-state added.
  const rows = transferMachine.transitions;
  const i = rows.findIndex((r) => r.trigger === "fastCheck.passed");
  const variants = [
    rows.map((r, j) => (j === i ? { ...r, reasonCode: "TRF_CHECK_OK" } : r)),
    rows.map((r, j) => (j === i ? { ...r, from: [...r.from, "onreview" as const] } : r)),
    rows.filter((_, j) => j !== i),
  ];
  const check = (transitions: typeof rows) => {
    const machine = defineMachine({ ...transferMachine, refusals: [...transferMachine.refusals], transitions });
    return checkExhaustively({ ...machine, triggers: ["fastCheck.passed"] } as never, {
      states: [...transferMachine.states],
      triggers: ["fastCheck.passed"],
      moves: [{ from: "registered", trigger: "fastCheck.passed", to: "validated", reasonCode: "TRF_CHECK_PASSED" }],
      refusal: () => ({ code: "transfer.stateInvalid", status: 409 }),
    });
  };
  assert.equal(check(rows), 14); // control: the real table passes
  for (const transitions of variants) assert.throws(() => check(transitions), assert.AssertionError);
});
