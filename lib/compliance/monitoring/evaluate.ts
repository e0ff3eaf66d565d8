/**
 * The evaluation of a transfer at its fast-check: the live rule set, and
 * any set shadow-running beside it, read the aggregates they need (one statement), score their
 * rules and typologies, and each evaluation is recorded (written at commit). The live outcome acts
 * only when the partner's mode is enforce; the caller (lib/compliance/fast-check/fast-check-job.ts) moves the
 * transfer. Nothing here is ever returned to a partner.
 */
import { inArray, sql, type Query, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { rowsOf, type Tx } from "@/db";
import { newId } from "@/db/ids";
import { monitoringEvaluations, monitoringRuleSets, monitoringSuppressions, partners } from "@/db/schema";
import { modeOf } from "@/lib/partners";
import type { Corridor } from "@/lib/payments";
import { Decimal } from "@/lib/platform/money/decimal";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { WINDOW_SECONDS, type Window } from "./aggregate-names";
import { AGGREGATES, boundSubject, pass, subjectValues, type AggregateSubject } from "./aggregates";
import { aggregatesOf, holds, type AggregateRequest, type ConditionContext } from "./conditions";
import type { Field, RuleSetDocument } from "./rule-set";
import type { FiredRule, MonitoringMode, MonitoringOutcome, TypologyScore } from "./types";

export type RuleSetRow = typeof monitoringRuleSets.$inferSelect;
export type EvaluationRow = typeof monitoringEvaluations.$inferSelect;

/** The transfer as monitoring sees it. */
export interface MonitoredTransfer {
  id: string;
  partnerId: string;
  customerId: string;
  beneficiaryId: string;
  originAmount: string;
  originCurrency: string;
  corridor: Pick<Corridor, "reviewThreshold" | "destinationCountry">;
  customerStatus: string;
  beneficiaryCreatedAt: Date;
  destinationKey: string | null;
}

export interface Scored {
  outcome: MonitoringOutcome;
  fired: FiredRule[];
  typologies: TypologyScore[];
  suppressed: string[];
}

const RANK: Record<MonitoringOutcome, number> = { pass: 0, review: 1, block: 2 };
const worst = (a: MonitoringOutcome, b: MonitoringOutcome) => (RANK[b] > RANK[a] ? b : a);

/** The set's parameters with the partner's values for those it names (others are ignored). */
export function parametersFor(document: RuleSetDocument, overrides: Record<string, string>): Record<string, string> {
  const out = { ...document.parameters };
  for (const [name, value] of Object.entries(overrides)) if (name in out) out[name] = value;
  return out;
}

export function fieldsOf(t: MonitoredTransfer, asOf: Date): Record<Field, Decimal | string> {
  return {
    "transfer.originAmount": new Decimal(t.originAmount),
    "corridor.reviewThreshold": new Decimal(t.corridor.reviewThreshold.toString()),
    "destination.country": t.corridor.destinationCountry.alpha2,
    "beneficiary.ageHours": new Decimal(asOf.getTime() - t.beneficiaryCreatedAt.getTime()).div(3_600_000),
    "customer.status": t.customerStatus,
  };
}

/** Rules, then typologies: pure, given every aggregate the set needs (ctx.aggregates). */
export function scoreRuleSet(document: RuleSetDocument, ctx: ConditionContext, suppressedRules: ReadonlySet<string>): Scored {
  const fired: FiredRule[] = [];
  const suppressed: string[] = [];
  for (const rule of document.rules) {
    if (!holds(rule.when, ctx)) continue;
    if (suppressedRules.has(rule.id)) suppressed.push(rule.id);
    else fired.push({ rule: rule.id, score: rule.score });
  }
  const scoreOf = new Map(fired.map((f) => [f.rule, f.score]));
  let outcome: MonitoringOutcome = "pass";
  const typologies: TypologyScore[] = [];
  for (const t of document.typologies) {
    const score = Object.entries(t.rules).reduce((sum, [rule, weight]) => sum + weight * (scoreOf.get(rule) ?? 0), 0);
    if (score === 0) continue;
    const o: MonitoringOutcome = t.block !== undefined && score >= t.block ? "block" : score >= t.review ? "review" : "pass";
    typologies.push({ typology: t.id, score, outcome: o });
    outcome = worst(outcome, o);
  }
  return { outcome, fired, typologies, suppressed };
}

/** Columns read beside the aggregates: their SQL names only placeholders, filled from `values`. */
export interface AlsoRead {
  columns: Record<string, SQL>;
  values: Record<string, unknown>;
}

/**
 * Statements by shape (the aggregates read, with their arguments; whether the transfer has a
 * destination key; the columns read beside them), compiled once and run as prepared statements:
 * building a statement of a dozen subqueries with Drizzle took more client time, and parsing and
 * planning it more database time, than running it (docs/decisions.md, "Transaction monitoring").
 * Only the values change between transfers. A bound on the shapes kept (the sets in force,
 * partners' values, corridors' thresholds, backtests of drafts); each keeps its own statement name.
 */
const compiled = new Map<string, { name: string; query: Query }>();
const COMPILED_MAX = 200;
let statements = 0;
const dialect = new PgDialect();

function statementOf(key: string, build: () => SQL) {
  let statement = compiled.get(key);
  if (!statement) {
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(key, (statement = { name: `monitoring_aggregates_${++statements}`, query: dialect.sqlToQuery(build()) }));
  }
  return statement;
}

/**
 * Reads, in one statement, every aggregate the requests name, the rules snoozed for the customer at
 * `asOf` and the `also` columns (values as decimal strings; `also` as the driver reads them).
 */
export async function readAggregates(
  tx: Tx,
  subject: AggregateSubject,
  requests: readonly AggregateRequest[],
  also: AlsoRead = { columns: {}, values: {} },
): Promise<{ values: Record<string, string>; suppressed: Set<string>; also: Record<string, unknown> }> {
  const key = [...requests.map((r) => r.key), `destination:${subject.destinationKey !== null}`, ...Object.keys(also.columns)].join("|");
  const { name, query } = statementOf(key, () => {
    const s = boundSubject(subject.destinationKey !== null);
    const columns: SQL[] = [];
    let passed: { columns: SQL[]; window: Window; linked: boolean } | undefined;
    for (const [i, r] of requests.entries()) {
      const name = sql.identifier(`a${i}`);
      const read = AGGREGATES[r.name](s, r.args);
      if ("subquery" in read) {
        columns.push(sql`(${read.subquery})::text as ${name}`);
        continue;
      }
      const p = (passed ??= { columns: [], window: read.window, linked: false });
      p.columns.push(sql`(${read.overPass})::text as ${name}`);
      columns.push(sql`${name}`);
      if (read.pass === "linked") p.linked = true;
      if (WINDOW_SECONDS[read.window] > WINDOW_SECONDS[p.window]) p.window = read.window;
    }
    columns.push(sql`array(select ${monitoringSuppressions.ruleId} from ${monitoringSuppressions}
      where ${monitoringSuppressions.customerId} = ${s.customerId} and ${monitoringSuppressions.expiresAt} > ${s.asOf}) as snoozed`);
    for (const [name, column] of Object.entries(also.columns)) columns.push(sql`${column} as ${sql.identifier(name)}`);
    const from = passed ? sql` from ${pass(s, passed.linked, passed.window, passed.columns)} as pass` : sql``;
    return sql`select ${sql.join(columns, sql`, `)}${from}`;
  });
  const prepared = tx._.session.prepareQuery(query, undefined, name, false);
  const [row] = rowsOf<Record<string, unknown>>(await prepared.execute({ ...subjectValues(subject), ...also.values }));
  const read: Record<string, string> = {};
  requests.forEach((r, i) => (read[r.key] = String(row[`a${i}`])));
  const list = row.snoozed;
  return {
    values: read,
    suppressed: new Set(Array.isArray(list) ? list : parsePgArray(String(list ?? "{}"))),
    also: Object.fromEntries(Object.keys(also.columns).map((name) => [name, row[name]])),
  };
}

/** A text[] sent back as its literal ("{a,b}") by a driver that does not parse it. */
function parsePgArray(literal: string): string[] {
  const inner = literal.replace(/^\{|\}$/g, "");
  return inner ? inner.split(",").map((s) => s.replace(/^"|"$/g, "")) : [];
}

/** Evaluates a transfer against several rule sets with one read of the aggregates they need together. */
export async function evaluateAgainst(
  tx: Tx,
  t: MonitoredTransfer,
  sets: readonly { document: RuleSetDocument }[],
  overrides: Record<string, string>,
  asOf: Date,
  also?: AlsoRead,
): Promise<{ results: Scored[]; aggregates: Record<string, string>[]; also: Record<string, unknown> }> {
  const fields = fieldsOf(t, asOf);
  const contexts = sets.map(
    (s) => ({ fields, parameters: parametersFor(s.document, overrides), lists: s.document.lists, requests: new WeakMap() }) satisfies ConditionContext,
  );
  const needed = new Map<string, AggregateRequest>();
  const perSet = sets.map((s, i) => {
    const mine = new Map<string, AggregateRequest>();
    for (const rule of s.document.rules) aggregatesOf(rule.when, contexts[i], mine);
    for (const [k, r] of mine) needed.set(k, r);
    return [...mine.keys()];
  });
  const subject: AggregateSubject = {
    transferId: t.id,
    customerId: t.customerId,
    beneficiaryId: t.beneficiaryId,
    destinationKey: t.destinationKey,
    originCurrency: t.originCurrency,
    asOf,
  };
  const { values, suppressed, also: read } = await readAggregates(tx, subject, [...needed.values()], also);
  const results = sets.map((s, i) => scoreRuleSet(s.document, { ...contexts[i], aggregates: values }, suppressed));
  const aggregates = perSet.map((keys) => Object.fromEntries(keys.map((k) => [k, values[k]])));
  return { results, aggregates, also: read };
}

/** What the fast-check acts on: the live set's outcome, the partner's mode, and the evaluation recorded. */
export interface Monitoring {
  outcome: MonitoringOutcome;
  mode: MonitoringMode;
  evaluationId: string;
  /** The live evaluation (for alerts: the typologies that reached review or block). */
  evaluation: EvaluationRow;
}

/**
 * The sets in force as this process last read them, and each partner's parameter values last seen.
 * A set's document is frozen from its proposal on (./state-machine.ts), so only which sets are
 * active or shadowing, and a partner's values, can change: the evaluation's own statement reads
 * both (IN_FORCE, the partner's row) and the evaluation is redone with them when they differ.
 * Another process activating a set is seen by the next evaluation here, as a set read first in the
 * transaction always was. This saves two statements per fast-check (docs/decisions.md).
 */
let inForce: RuleSetRow[] | undefined;
const partnerParameters = new Map<string, Record<string, string>>();

/** The sets as IN_FORCE names them, in a fixed order. */
const keyOf = (sets: readonly RuleSetRow[]) =>
  sets
    .map((s) => `${s.id}:${s.state}`)
    .sort()
    .join(",");

const IN_FORCE = sql`(select string_agg(${monitoringRuleSets.id} || ':' || ${monitoringRuleSets.state}, ',') from ${monitoringRuleSets}
  where ${monitoringRuleSets.state} in ('active', 'shadowing'))`;

const PARTNER = sql`(select json_build_array(${partners.monitoringMode}, ${partners.monitoringParameters})::text from ${partners}
  where ${partners.id} = ${sql.placeholder("partnerId")})`;

async function setsInForce(tx: Tx): Promise<RuleSetRow[]> {
  const sets = await tx
    .select()
    .from(monitoringRuleSets)
    .where(inArray(monitoringRuleSets.state, ["active", "shadowing"]));
  const live = sets.find((s) => s.state === "active");
  if (!live) throw new Error("monitoring: no active rule set (the default pack is activated at start)");
  const ordered = [live, ...sets.filter((s) => s !== live)];
  return (inForce = ordered);
}

const sameParameters = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, value]) => b[name] === value);

/**
 * Evaluates the transfer at its fast-check: the active rule set (live) and every set in shadowing
 * (candidate, never acts), with the partner's parameter values; records each evaluation at commit.
 * One statement when the sets and the partner's values are those of the last evaluation.
 */
export async function monitorTransfer(tx: Tx, t: MonitoredTransfer, now: Date): Promise<Monitoring> {
  const evaluated = await evaluateTransfer(tx, t, now);
  await recordEvaluations(tx, evaluated.rows);
  return evaluated.monitoring;
}

/**
 * monitorTransfer without the record (recordEvaluations writes it, once the caller knows the
 * transfer reached monitoring), reading the caller's `also` columns in the same statement.
 */
export async function evaluateTransfer(
  tx: Tx,
  t: MonitoredTransfer,
  now: Date,
  also: AlsoRead = { columns: {}, values: {} },
): Promise<{ monitoring: Monitoring; rows: EvaluationRow[]; also: Record<string, unknown> }> {
  const evaluate = async (sets: RuleSetRow[], overrides: Record<string, string>) => {
    const run = await evaluateAgainst(tx, t, sets, overrides, now, {
      columns: { ...also.columns, in_force: IN_FORCE, partner: PARTNER },
      values: { ...also.values, partnerId: t.partnerId },
    });
    if (run.also.partner === null || run.also.partner === undefined) throw new Error(`monitoring: no partner ${t.partnerId}`);
    const [mode, parameters] = JSON.parse(String(run.also.partner)) as [MonitoringMode | null, Record<string, string>];
    partnerParameters.set(t.partnerId, parameters);
    const inForceNow = String(run.also.in_force ?? "")
      .split(",")
      .sort()
      .join(",");
    return { ...run, mode: modeOf({ monitoringMode: mode }), parameters, current: inForceNow === keyOf(sets) && sameParameters(overrides, parameters) };
  };
  let sets = inForce ?? (await setsInForce(tx));
  let run = await evaluate(sets, partnerParameters.get(t.partnerId) ?? {});
  if (!run.current) {
    // The sets or the partner's values changed since the last evaluation here: read, then use them.
    sets = await setsInForce(tx);
    run = await evaluate(sets, run.parameters);
  }
  const { results, aggregates, mode } = run;
  const rows: EvaluationRow[] = sets.map((set, i) => ({
    id: newId("mev"),
    transferId: t.id,
    customerId: t.customerId,
    partnerId: t.partnerId,
    ruleSetId: set.id,
    ruleSetVersion: set.version,
    mode: i === 0 ? mode : "shadow",
    run: i === 0 ? "live" : "candidate",
    outcome: results[i].outcome,
    fired: results[i].fired,
    typologies: results[i].typologies,
    aggregates: aggregates[i],
    suppressed: results[i].suppressed,
    createdAt: now,
  }));
  const monitoring = { outcome: results[0].outcome, mode, evaluationId: rows[0].id, evaluation: rows[0] };
  return { monitoring, rows, also: Object.fromEntries(Object.keys(also.columns).map((name) => [name, run.also[name]])) };
}

/** The evaluations of evaluateTransfer, written at commit. */
export async function recordEvaluations(tx: Tx, rows: EvaluationRow[]): Promise<void> {
  await effectsOf(tx).atCommit(tx.insert(monitoringEvaluations).values(rows));
}
