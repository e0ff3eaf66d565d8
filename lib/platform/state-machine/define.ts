/**
 * "State machines are data": every state set of the service (spec section 3, decisions 4, 5, 7)
 * is one transition table, and this file is the only place that table is checked. Domain code
 * asks `next()` for the move, persists the returned state and reason code, and never compares
 * states by hand. A refused move is a DomainError whose code (and so status) comes from
 * lib/platform/errors.ts, so the HTTP layer maps it with no extra code (decisions 8).
 */
import { DomainError, type ErrorCode } from "@/lib/platform/errors";

/** Pseudo-state before a record exists: rows from NONE are the creation triggers. */
export const NONE = "none";
export type None = typeof NONE;

/**
 * Where a row leads: a state, or
 * - "unchanged": the trigger is accepted but the state stays (e.g. cancel in topay: spec 3.1);
 * - "prior": back to the state remembered when the record was parked (ctx.prior; spended);
 * - "requested": to a state chosen by the caller (ctx.target; operator decisions).
 */
export type Destination<S extends string> = S | "unchanged" | "prior" | "requested";

export interface TransitionRow<S extends string, T extends string> {
  from: readonly (S | None)[];
  trigger: T;
  to: Destination<S>;
  /** The row applies only when ctx.prior is one of these (moves out of a parked state). */
  whenPrior?: readonly S[];
  /** For "prior" and "requested": the states that may be returned to or chosen (default: all). */
  targets?: readonly S[];
  /** Recorded with the new state (e.g. StateHistoryEntry.reasonCode, spec 2.8). */
  reasonCode?: string;
  /** A business outcome the caller reports (e.g. CancellationOutcome, spec 2.9). */
  outcome?: string;
  notes?: string;
}

/** A refusal that differs from the machine's default (e.g. archive of a BLOCKED beneficiary). */
export interface RefusalRow<S extends string, T extends string> {
  from: readonly (S | None)[];
  /** Omitted: every trigger from these states. */
  trigger?: T;
  code: ErrorCode;
  message?: string;
}

export interface MachineDefinition<S extends string, T extends string> {
  name: string;
  states: readonly S[];
  triggers: readonly T[];
  transitions: readonly TransitionRow<NoInfer<S>, NoInfer<T>>[];
  refusedCode: ErrorCode;
  /** First match wins; anything not matched is refused with refusedCode. */
  refusals?: readonly RefusalRow<NoInfer<S>, NoInfer<T>>[];
}

export interface TransitionContext<S extends string> {
  /** The state remembered when the record was parked (needed for "prior" and whenPrior rows). */
  prior?: S;
  /** The state the caller asks for (needed for "requested" rows). */
  target?: S;
}

export interface Step<S extends string, T extends string> {
  from: S | None;
  trigger: T;
  to: S;
  /** False for accepted triggers that leave the state as it was: no history entry is due. */
  changed: boolean;
  reasonCode?: string;
  outcome?: string;
}

export interface Refusal {
  code: ErrorCode;
  message?: string;
}

export interface Machine<S extends string, T extends string> {
  readonly name: string;
  readonly states: readonly S[];
  readonly triggers: readonly T[];
  readonly transitions: readonly TransitionRow<S, T>[];
  readonly refusals: readonly RefusalRow<S, T>[];
  /** The default refusal code (anything neither a row nor a refusal override covers). */
  readonly refusedCode: ErrorCode;
  /** The move for this trigger, or throws the refusal DomainError. */
  next(from: S | None, trigger: T, ctx?: TransitionContext<S>): Step<S, T>;
  /** Whether next() would accept; guards on ctx.prior count as met when ctx.prior is omitted. */
  can(from: S | None, trigger: T, ctx?: TransitionContext<S>): boolean;
  /** Triggers accepted from this state (same reading of ctx as can()). */
  allowed(from: S | None, ctx?: TransitionContext<S>): T[];
  /** The refusal that applies when no row accepts (from, trigger). */
  refusalFor(from: S | None, trigger: T): Refusal;
}

export function defineMachine<const S extends string, const T extends string>(def: MachineDefinition<S, T>): Machine<S, T> {
  const { name, states, triggers, transitions } = def;
  const refusals = def.refusals ?? [];
  checkDefinition(def);

  const rowsFor = (from: S | None, trigger: T) => transitions.filter((r) => r.trigger === trigger && r.from.includes(from));

  const guardMet = (row: TransitionRow<S, T>, prior: S | undefined, lenient: boolean) =>
    !row.whenPrior || (prior === undefined ? lenient : row.whenPrior.includes(prior));

  function refusalFor(from: S | None, trigger: T): Refusal {
    const row = refusals.find((r) => r.from.includes(from) && (r.trigger === undefined || r.trigger === trigger));
    return row ? { code: row.code, message: row.message } : { code: def.refusedCode };
  }

  function refuse(from: S | None, trigger: T, ctx: TransitionContext<S>): DomainError {
    const r = refusalFor(from, trigger);
    const details: Record<string, unknown> = { currentState: from, trigger };
    if (ctx.prior !== undefined) details.priorState = ctx.prior;
    if (ctx.target !== undefined) details.requestedState = ctx.target;
    return new DomainError(r.code, {
      message: r.message ?? `This ${name} cannot take "${trigger}" in state ${from}.`,
      details,
    });
  }

  function next(from: S | None, trigger: T, ctx: TransitionContext<S> = {}): Step<S, T> {
    const candidates = rowsFor(from, trigger);
    // A missing prior is a caller bug (the parked record lost its memory), not a client error.
    if (ctx.prior === undefined && candidates.some((r) => r.whenPrior || r.to === "prior")) {
      throw new TypeError(`${name}: "${trigger}" from ${from} needs ctx.prior`);
    }
    const row = candidates.find((r) => guardMet(r, ctx.prior, false));
    if (!row) throw refuse(from, trigger, ctx);

    let to: S;
    if (row.to === "unchanged") {
      to = from as S; // checkDefinition forbids "unchanged" from NONE
    } else if (row.to === "prior" || row.to === "requested") {
      const wanted = row.to === "prior" ? ctx.prior : ctx.target;
      if (wanted === undefined) throw new TypeError(`${name}: "${trigger}" from ${from} needs ctx.target`);
      if (!(row.targets ?? states).includes(wanted)) throw refuse(from, trigger, ctx);
      to = wanted;
    } else {
      to = row.to;
    }
    const step: Step<S, T> = { from, trigger, to, changed: to !== from };
    if (row.reasonCode !== undefined) step.reasonCode = row.reasonCode;
    if (row.outcome !== undefined) step.outcome = row.outcome;
    return step;
  }

  function allowed(from: S | None, ctx: TransitionContext<S> = {}): T[] {
    return triggers.filter((t) => rowsFor(from, t).some((r) => guardMet(r, ctx.prior, true)));
  }

  return Object.freeze({
    name,
    states,
    triggers,
    transitions,
    refusals,
    refusedCode: def.refusedCode,
    next,
    can: (from: S | None, trigger: T, ctx?: TransitionContext<S>) => allowed(from, ctx).includes(trigger),
    allowed,
    refusalFor,
  });
}

/** Definition mistakes fail at import time, so a bad table never reaches a request. */
function checkDefinition<S extends string, T extends string>(def: MachineDefinition<S, T>): void {
  const fail = (why: string): never => {
    throw new Error(`state machine ${def.name}: ${why}`);
  };
  const isState = (s: string) => (def.states as readonly string[]).includes(s);
  const isFrom = (s: string) => s === NONE || isState(s);
  const isTrigger = (t: string) => (def.triggers as readonly string[]).includes(t);

  if (isState(NONE)) fail(`"${NONE}" is reserved`);
  def.transitions.forEach((r, i) => {
    const at = `row ${i} (${r.trigger})`;
    if (!isTrigger(r.trigger)) fail(`${at}: unknown trigger`);
    if (r.from.length === 0 || !r.from.every(isFrom)) fail(`${at}: bad from`);
    if (!["unchanged", "prior", "requested"].includes(r.to) && !isState(r.to)) fail(`${at}: bad to`);
    if (r.to === "unchanged" && r.from.includes(NONE)) fail(`${at}: "unchanged" from ${NONE}`);
    if (r.to === "requested" && r.whenPrior) fail(`${at}: "requested" with whenPrior`);
    if (r.targets && (!["prior", "requested"].includes(r.to) || !r.targets.every(isState))) fail(`${at}: bad targets`);
    if (r.whenPrior && !r.whenPrior.every(isState)) fail(`${at}: bad whenPrior`);
    // Two rows may share (from, trigger) only when their prior guards cannot both hold.
    def.transitions.forEach((o, j) => {
      if (j <= i || o.trigger !== r.trigger || !o.from.some((f) => r.from.includes(f))) return;
      const disjoint = r.whenPrior && o.whenPrior && !r.whenPrior.some((p) => o.whenPrior!.includes(p));
      if (!disjoint) fail(`${at}: overlaps row ${j}`);
    });
  });
  def.refusals?.forEach((r, i) => {
    if (!r.from.every(isFrom) || (r.trigger !== undefined && !isTrigger(r.trigger))) fail(`refusal ${i}: bad row`);
  });
}

/** The table as Markdown, for docs (one row per transition, then the refusal overrides). */
export function toMarkdown<S extends string, T extends string>(m: Machine<S, T>): string {
  const cell = (v: string | readonly string[] | undefined) => (Array.isArray(v) ? v.join(", ") : (v ?? ""));
  const lines = [
    `| From | Trigger | To | When prior | Reason code | Outcome | Notes |`,
    `|---|---|---|---|---|---|---|`,
    ...m.transitions.map((r) => {
      const to = r.targets ? `${r.to} (${r.targets.join(", ")})` : r.to;
      return `| ${cell(r.from)} | ${r.trigger} | ${to} | ${cell(r.whenPrior)} | ${cell(r.reasonCode)} | ${cell(r.outcome)} | ${cell(r.notes)} |`;
    }),
    "",
    `Anything else is refused with \`${m.refusedCode}\` unless listed here:`,
    "",
    ...m.refusals.map((r) => `- from ${cell(r.from)}${r.trigger ? `, ${r.trigger}` : ""}: \`${r.code}\``),
  ];
  return lines.join("\n");
}

/**
 * The row after a move, known to be in `state`: what the contract answers after that move (accept
 * answers `registered`, confirm `funding`). A machine that ended elsewhere is a bug, refused as one
 * rather than answered off-contract; the answer's type then names the one state.
 */
export function expectState<R extends { state: string }, S extends R["state"]>(row: R, state: S): R & { state: S } {
  if (row.state !== state) throw new Error(`expected state ${state} after this move, found ${row.state}`);
  return row as R & { state: S };
}
