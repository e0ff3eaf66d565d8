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
}

export interface AggregateRequest {
  key: string;
  name: AggregateName;
  args: AggregateArgs;
}

const scalar = (s: string): Scalar => (isWireDecimal(s) ? new Decimal(s) : s);

/** The aggregate a value names, with its arguments resolved (arguments are fields, parameters and literals). */
function aggregateRequest(v: Extract<Value, { aggregate: string }>, ctx: ConditionContext): AggregateRequest {
  const number = (x: Value | undefined, what: string): Decimal | undefined => {
    if (x === undefined) return undefined;
    const r = resolve(x, { ...ctx, aggregates: {} });
    if (typeof r === "string") throw new Error(`${v.aggregate}: ${what} is not a number`);
    return r;
  };
  const args: AggregateArgs = { window: v.window as Window | undefined, lower: number(v.lower, "lower"), upper: number(v.upper, "upper") };
  return { key: aggregateKey(v.aggregate, args), name: v.aggregate, args };
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
  return { ">": c > 0, ">=": c >= 0, "<": c < 0, "<=": c <= 0, "==": c === 0, "!=": c !== 0 }[op];
}

/** Whether the condition holds. Every aggregate it names must be in ctx.aggregates. */
export function holds(c: Condition, ctx: ConditionContext): boolean {
  if ("all" in c) return c.all.every((x) => holds(x, ctx));
  if ("any" in c) return c.any.some((x) => holds(x, ctx));
  if ("not" in c) return !holds(c.not, ctx);
  if ("cmp" in c) return compare(c.cmp, resolve(c.left, ctx), resolve(c.right, ctx));
  const value = resolve(c.in, ctx).toString();
  return (ctx.lists[c.list] ?? []).includes(value);
}

/** The aggregates a condition needs, their arguments resolved against the fields and parameters. */
export function aggregatesOf(c: Condition, ctx: ConditionContext, out = new Map<string, AggregateRequest>()): Map<string, AggregateRequest> {
  const value = (v: Value): void => {
    if (typeof v !== "object") return;
    if ("mul" in v) v.mul.forEach(value);
    else if ("aggregate" in v) {
      const r = aggregateRequest(v, ctx);
      out.set(r.key, r);
    }
  };
  if ("all" in c) c.all.forEach((x) => aggregatesOf(x, ctx, out));
  else if ("any" in c) c.any.forEach((x) => aggregatesOf(x, ctx, out));
  else if ("not" in c) aggregatesOf(c.not, ctx, out);
  else if ("cmp" in c) [c.left, c.right].forEach(value);
  else value(c.in);
  return out;
}
