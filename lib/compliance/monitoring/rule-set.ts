/**
 * A rule set: a versioned document of rules and typologies, validated here.
 *
 * A rule is a condition over the transfer, its customer, its beneficiary and named windowed
 * aggregates (lib/compliance/monitoring/aggregates.ts), producing a score when it holds. A typology weighs
 * rules and compares the sum with a review and (optionally) a block threshold. Parameters are named
 * decimal strings a partner may override (partners.monitoring_parameters); lists are named sets of
 * values (the high-risk countries). Numbers are decimal strings or integers, compared with decimal.js:
 * amounts never become floats.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isWireDecimal } from "@/lib/platform/money/decimal";
import { AGGREGATE_NAMES, WINDOWS } from "./aggregate-names";
import { FIELDS, COMPARATORS, type Value, type Condition, type RuleSetDocument } from "@/db/schema/monitoring";
export { FIELDS, type Field, COMPARATORS, type Comparator, type Value, type Condition } from "@/db/schema/monitoring";

const Literal = z.union([z.number().int().nonnegative(), z.string().max(100)]);

export const ValueSchema: z.ZodType<Value> = z.lazy(() =>
  z.union([
    Literal,
    z.strictObject({ field: z.enum(FIELDS) }),
    z.strictObject({ param: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/) }),
    z.strictObject({ aggregate: z.enum(AGGREGATE_NAMES), window: z.enum(WINDOWS).optional(), lower: ValueSchema.optional(), upper: ValueSchema.optional() }),
    z.strictObject({ mul: z.tuple([ValueSchema, ValueSchema]) }),
  ]),
);

export const ConditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.strictObject({ all: z.array(ConditionSchema).min(1) }),
    z.strictObject({ any: z.array(ConditionSchema).min(1) }),
    z.strictObject({ not: ConditionSchema }),
    z.strictObject({ cmp: z.enum(COMPARATORS), left: ValueSchema, right: ValueSchema }),
    z.strictObject({ in: ValueSchema, list: z.string() }),
  ]),
);

const Id = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, "lower-case letters, digits and _")
  .max(64);
const Score = z.number().int().min(0).max(10_000);

export const RuleSetDocumentSchema = z
  .strictObject({
    $comment: z.string().optional(),
    name: z.string().min(1).max(200),
    /** Named decimal strings (amounts in the corridor's origin currency, ratios, counts). */
    parameters: z.record(z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/), z.string().refine(isWireDecimal, "a decimal string")),
    lists: z.record(z.string(), z.array(z.string().max(100)).max(1000)),
    rules: z
      .array(
        z.strictObject({
          id: Id,
          description: z.string().min(1).max(500),
          when: ConditionSchema,
          score: Score,
        }),
      )
      .min(1)
      .max(200),
    typologies: z
      .array(
        z.strictObject({
          id: Id,
          description: z.string().min(1).max(500),
          /** rule id → weight: the typology's score is the sum of weight × score of the rules that fired. */
          rules: z.record(Id, z.number().int().min(0).max(100)),
          review: Score,
          /** Absent: the typology never blocks. */
          block: Score.optional(),
        }),
      )
      .min(1)
      .max(100),
  })
  .superRefine((doc, ctx) => {
    const problem = (p: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path: p, message });
    const ruleIds = new Set<string>();
    doc.rules.forEach((r, i) => {
      if (ruleIds.has(r.id)) problem(["rules", i, "id"], `duplicate rule ${r.id}`);
      ruleIds.add(r.id);
      for (const name of referenced(r.when, "param")) if (!(name in doc.parameters)) problem(["rules", i, "when"], `unknown parameter ${name}`);
      for (const name of referenced(r.when, "list")) if (!(name in doc.lists)) problem(["rules", i, "when"], `unknown list ${name}`);
    });
    const typologyIds = new Set<string>();
    doc.typologies.forEach((t, i) => {
      if (typologyIds.has(t.id)) problem(["typologies", i, "id"], `duplicate typology ${t.id}`);
      typologyIds.add(t.id);
      for (const rule of Object.keys(t.rules)) if (!ruleIds.has(rule)) problem(["typologies", i, "rules", rule], `unknown rule ${rule}`);
      if (t.block !== undefined && t.block < t.review) problem(["typologies", i, "block"], "block must not be below review");
    });
  });

export type { RuleSetDocument } from "@/db/schema/monitoring";
// The stored document's type (db/schema/monitoring.ts) and what the schema accepts stay one shape:
// either drifting from the other fails the type check here.
type Parsed = z.infer<typeof RuleSetDocumentSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<Parsed, RuleSetDocument> = true;
void sameShape;
export type Rule = RuleSetDocument["rules"][number];

/** Parameter or list names a condition refers to. */
export function referenced(c: Condition, kind: "param" | "list"): string[] {
  const params: string[] = [];
  const lists: string[] = [];
  const value = (v: Value): void => {
    if (typeof v !== "object") return;
    if ("param" in v) params.push(v.param);
    else if ("mul" in v) v.mul.forEach(value);
    else if ("aggregate" in v) [v.lower, v.upper].forEach((x) => x !== undefined && value(x));
  };
  const walk = (x: Condition): void => {
    if ("all" in x) x.all.forEach(walk);
    else if ("any" in x) x.any.forEach(walk);
    else if ("not" in x) walk(x.not);
    else if ("cmp" in x) [x.left, x.right].forEach(value);
    else {
      value(x.in);
      lists.push(x.list);
    }
  };
  walk(c);
  return kind === "param" ? params : lists;
}

/** A rule set document from JSON text or a value: the parsed document, or the problems as lines. */
export function parseRuleSet(input: unknown): { ok: true; document: RuleSetDocument } | { ok: false; problems: string[] } {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (err) {
      return { ok: false, problems: [`not JSON: ${(err as Error).message}`] };
    }
  }
  const parsed = RuleSetDocumentSchema.safeParse(value);
  if (parsed.success) return { ok: true, document: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.join(".") || "(document)"}: ${i.message}`) };
}

const DATA = path.join(process.cwd(), "data/monitoring");

/** The high-risk jurisdictions file (FATF lists as of a plenary): its alpha-2 codes, date and sources. */
export const HighRiskFileSchema = z.strictObject({
  $comment: z.string(),
  publisher: z.string(),
  plenaryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  sources: z.array(z.string().url()).min(1),
  callForAction: z.array(z.strictObject({ alpha2: z.string().regex(/^[A-Z]{2}$/), name: z.string() })),
  increasedMonitoring: z.array(z.strictObject({ alpha2: z.string().regex(/^[A-Z]{2}$/), name: z.string() })),
});

export function readHighRiskFile(): z.infer<typeof HighRiskFileSchema> {
  return HighRiskFileSchema.parse(JSON.parse(readFileSync(path.join(DATA, "fatf-high-risk-jurisdictions.json"), "utf8")));
}

/**
 * The shipped default pack (data/monitoring/default-pack.json) with its `highRiskCountries` list
 * filled from the FATF file: what a fresh database activates as version 1. Throws on a bad file (a
 * bad configuration stops the process).
 */
export function defaultPack(): RuleSetDocument {
  const raw = JSON.parse(readFileSync(path.join(DATA, "default-pack.json"), "utf8"));
  const fatf = readHighRiskFile();
  raw.lists = { ...raw.lists, highRiskCountries: [...fatf.callForAction, ...fatf.increasedMonitoring].map((c) => c.alpha2).sort() };
  const parsed = parseRuleSet(raw);
  if (!parsed.ok) throw new Error(`data/monitoring/default-pack.json: ${parsed.problems.join("; ")}`);
  return parsed.document;
}
