/**
 * Shared exhaustive check: every (state, trigger[, context]) cell of a machine either performs
 * exactly one expected move or is refused with the expected code. The expected data lives in each
 * test file as literals copied from the spec, never read from the module, so a wrong edit to a
 * table fails here.
 */
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import type { Machine, TransitionContext } from "@/lib/platform/state-machine/define";

export interface ExpectedMove {
  from: string;
  trigger: string;
  to: string;
  reasonCode?: string;
  outcome?: string;
  /** The move applies only with this ctx.prior (parked states). */
  prior?: string;
  /** The move applies only with this ctx.target (operator decisions). */
  target?: string;
}

export interface ExpectedRefusal {
  code: string;
  status: number;
}

export interface ExhaustiveSpec {
  states: readonly string[];
  triggers: readonly string[];
  moves: readonly ExpectedMove[];
  refusal: (from: string, trigger: string) => ExpectedRefusal;
  /** Contexts to try per cell; default: only the empty context. */
  contexts?: (from: string, trigger: string) => TransitionContext<string>[];
}

/** Builds moves for several from-states at once. */
export function moves(from: readonly string[], trigger: string, to: string, extra: Omit<ExpectedMove, "from" | "trigger" | "to"> = {}): ExpectedMove[] {
  return from.map((f) => ({ from: f, trigger, to, ...extra }));
}

export function assertRefused(fn: () => unknown, expected: ExpectedRefusal, from?: string, trigger?: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DomainError, `expected DomainError, got ${String(err)}`);
    assert.equal(err.code, expected.code, `code for ${from} / ${trigger}`);
    assert.equal(err.status, expected.status, `status for ${from} / ${trigger}`);
    if (from !== undefined) assert.equal(err.details?.currentState, from);
    if (trigger !== undefined) assert.equal(err.details?.trigger, trigger);
    return true;
  });
}

/** Returns the number of cells checked. */
export function checkExhaustively(machine: Machine<string, string>, spec: ExhaustiveSpec): number {
  assert.deepEqual([...machine.states], [...spec.states], "state list");
  assert.deepEqual([...machine.triggers], [...spec.triggers], "trigger list");
  const used = new Set<ExpectedMove>();
  let cells = 0;
  for (const from of ["none", ...spec.states]) {
    for (const trigger of spec.triggers) {
      for (const ctx of spec.contexts?.(from, trigger) ?? [{}]) {
        cells++;
        const label = `${machine.name}: ${from} --${trigger}--> ${JSON.stringify(ctx)}`;
        const matches = spec.moves.filter(
          (m) =>
            m.from === from && m.trigger === trigger && (m.prior === undefined || m.prior === ctx.prior) && (m.target === undefined || m.target === ctx.target),
        );
        assert.ok(matches.length <= 1, `expected table is ambiguous at ${label}`);
        const expected = matches[0];
        if (expected) {
          used.add(expected);
          let step;
          try {
            step = machine.next(from, trigger, ctx);
          } catch (err) {
            assert.fail(`${label}: expected ${expected.to}, was refused (${(err as Error).message})`);
          }
          assert.deepEqual(
            { to: step.to, changed: step.changed, reasonCode: step.reasonCode, outcome: step.outcome },
            { to: expected.to, changed: expected.to !== from, reasonCode: expected.reasonCode, outcome: expected.outcome },
            label,
          );
          assert.equal(machine.can(from, trigger, ctx), true, `can() ${label}`);
        } else {
          assertRefused(() => machine.next(from, trigger, ctx), spec.refusal(from, trigger), from, trigger);
          if (ctx.target === undefined && ctx.prior === undefined) {
            assert.equal(machine.can(from, trigger, ctx), false, `can() ${label}`);
          }
        }
      }
    }
  }
  const unused = spec.moves.filter((m) => !used.has(m));
  assert.deepEqual(unused, [], "expected moves never reached (typo in the test table?)");
  return cells;
}
