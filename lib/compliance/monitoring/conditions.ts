/**
 * Rule conditions, evaluated: pure, given the fields of the transfer, the
 * parameters in force and the aggregate values read. Numbers are decimal.js values: an amount is
 * never a float.
 */
import { Decimal } from "@/lib/platform/money/decimal";
import { isWireDecimal } from "@/lib/platform/money/decimal";
import type { AggregateName, Window } from "./aggregate-names";
import { aggregateKey, type AggregateArgs } from "./aggregates";
import type { Comparator, Condition, Field, RuleSetDocument, Value } from "./rule-set";

export type Scalar = Decimal | string;

export interface ConditionContext {
  fields: Record<Field, Scalar>;
  parameters: Record<string, string>;
  lists: RuleSetDocument["lists"];
  /** Aggregate values by aggregateKey (absent while only collecting the aggregates a set needs). */
  aggregates?: Record<string, string>;
  /**
   * Each aggregate value's request once resolved, for this transfer and set: collecting the
   * aggregates and scoring the rules resolve the same arguments, which the fields and parameters
   * fix (the context, spread with the values read, keeps the same map).
   */
  requests?: WeakMap<object, AggregateRequest>;
}

export interface AggregateRequest {
  key: string;
  name: AggregateName;
  args: AggregateArgs;
}

const scalar = (s: string): Scalar => (isWireDecimal(s) ? new Decimal(s) : s);

/** The aggregate a value names, with its arguments resolved (arguments are fields, parameters and literals). */
function aggregateRequest(v: Extract<Value, { aggregate: string }>, ctx: ConditionContext): AggregateRequest {
  const known = ctx.requests?.get(v);
  if (known) return known;
  const args: AggregateArgs = { window: v.window as Window | undefined, lower: argument(v, v.lower, "lower", ctx), upper: argument(v, v.upper, "upper", ctx) };
  const request = { key: aggregateKey(v.aggregate, args), name: v.aggregate, args };
  ctx.requests?.set(v, request);
  return request;
}

/**
 * An aggregate's numeric argument. An aggregate inside an argument is refused: the arguments are
 * resolved while collecting the aggregates to read (ctx.aggregates absent), and kept (ctx.requests).
 */
function argument(v: Extract<Value, { aggregate: string }>, x: Value | undefined, what: string, ctx: ConditionContext): Decimal | undefined {
  if (x === undefined) return undefined;
  const r = resolve(x, ctx);
  if (typeof r === "string") throw new Error(`${v.aggregate}: ${what} is not a number`);
  return r;
}

function resolve(v: Value, ctx: ConditionContext): Scalar {
  if (typeof v === "number") return new Decimal(v);
  if (typeof v === "string") return scalar(v);
  if ("field" in v) return ctx.fields[v.field];
  if ("param" in v) {
    const p = ctx.parameters[v.param];
    if (p === undefined) throw new Error(`unknown parameter ${v.param}`);
    return new Decimal(p);
  }
  if ("mul" in v) {
    const [a, b] = v.mul.map((x) => resolve(x, ctx));
    if (typeof a === "string" || typeof b === "string") throw new Error("mul of a non-number");
    return a.mul(b);
  }
  const { key } = aggregateRequest(v, ctx);
  const read = ctx.aggregates?.[key];
  if (read === undefined) throw new Error(`aggregate ${key} was not read`);
  return new Decimal(read);
}

function compare(op: Comparator, a: Scalar, b: Scalar): boolean {
  if (typeof a === "string" || typeof b === "string") {
    const [x, y] = [a.toString(), b.toString()];
    if (op === "==") return x === y;
    if (op === "!=") return x !== y;
    throw new Error(`${op} compares numbers only`);
  }
  const c = a.cmp(b);
  switch (op) {
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case "==":
      return c === 0;
    case "!=":
      return c !== 0;
  }
}

/** Whether the condition holds. Every aggregate it names must be in ctx.aggregates. */
export function holds(c: Condition, ctx: ConditionContext): boolean {
  if ("all" in c) {
    for (const x of c.all) if (!holds(x, ctx)) return false;
    return true;
  }
  if ("any" in c) {
    for (const x of c.any) if (holds(x, ctx)) return true;
    return false;
  }
  if ("not" in c) return !holds(c.not, ctx);
  if ("cmp" in c) return compare(c.cmp, resolve(c.left, ctx), resolve(c.right, ctx));
  const value = resolve(c.in, ctx).toString();
  return (ctx.lists[c.list] ?? []).includes(value);
}

/** The aggregates a condition needs, their arguments resolved against the fields and parameters. */
export function aggregatesOf(c: Condition, ctx: ConditionContext, out = new Map<string, AggregateRequest>()): Map<string, AggregateRequest> {
  if ("all" in c) for (const x of c.all) aggregatesOf(x, ctx, out);
  else if ("any" in c) for (const x of c.any) aggregatesOf(x, ctx, out);
  else if ("not" in c) aggregatesOf(c.not, ctx, out);
  else if ("cmp" in c) {
    aggregatesIn(c.left, ctx, out);
    aggregatesIn(c.right, ctx, out);
  } else aggregatesIn(c.in, ctx, out);
  return out;
}

function aggregatesIn(v: Value, ctx: ConditionContext, out: Map<string, AggregateRequest>): void {
  if (typeof v !== "object") return;
  if ("mul" in v) for (const x of v.mul) aggregatesIn(x, ctx, out);
  else if ("aggregate" in v) {
    const r = aggregateRequest(v, ctx);
    out.set(r.key, r);
  }
}
