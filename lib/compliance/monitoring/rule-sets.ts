/**
 * Rule set versions: draft, propose, shadow-run, activate by a second operator,
 * withdraw. Every move goes through ruleSetMachine; the rows a move changes are locked. Console
 * actions call these in their unit of work, which audits them.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { monitoringRuleSets } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError, notFound } from "@/lib/platform/errors";
import type { Operator } from "@/lib/platform/audit";
import type { RuleSetRow } from "./evaluate";
import { defaultPack, parseRuleSet, type RuleSetDocument } from "./rule-set";
import { ruleSetMachine, type RuleSetTrigger } from "./state-machine";
import type { BacktestSummary } from "./types";

export const SYSTEM_AUTHOR = { id: "system", email: "system (shipped default pack)" };

/**
 * On a fresh database, the shipped default pack becomes version 1, active (one statement: two
 * processes starting together insert it once). Called at start (lib/platform/ready.ts).
 */
export async function installDefaultPack(db: Db | Tx): Promise<void> {
  const step = ruleSetMachine.next("none", "system.install");
  const now = clock.now();
  await db
    .insert(monitoringRuleSets)
    .values({
      id: newId("rset"),
      version: 1,
      state: step.to,
      document: defaultPack(),
      note: "The shipped default pack (data/monitoring/default-pack.json).",
      authorId: SYSTEM_AUTHOR.id,
      authorEmail: SYSTEM_AUTHOR.email,
      activatedById: SYSTEM_AUTHOR.id,
      activatedByEmail: SYSTEM_AUTHOR.email,
      activatedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}

function invalid(problems: string[]): DomainError {
  return new DomainError("validation.fieldInvalid", {
    message: `The rule set is not valid: ${problems.slice(0, 5).join("; ")}`,
    details: { issues: problems.map((message) => ({ field: "document", code: "validation.fieldInvalid", message })) },
  });
}

function parsed(text: string): RuleSetDocument {
  const result = parseRuleSet(text);
  if (!result.ok) throw invalid(result.problems);
  return result.document;
}

async function lockRuleSet(tx: Tx, id: string): Promise<RuleSetRow> {
  const [row] = await tx.select().from(monitoringRuleSets).where(eq(monitoringRuleSets.id, id)).for("update");
  if (!row) throw notFound("ruleSet", "No such rule set.");
  return row;
}

async function move(tx: Tx, row: RuleSetRow, trigger: RuleSetTrigger, now: Date, set: Partial<RuleSetRow> = {}): Promise<RuleSetRow> {
  const step = ruleSetMachine.next(row.state, trigger);
  const [updated] = await tx
    .update(monitoringRuleSets)
    .set({ ...set, state: step.to, updatedAt: now })
    .where(eq(monitoringRuleSets.id, row.id))
    .returning();
  return updated;
}

/** The live set. */
export async function activeRuleSet(db: Db | Tx): Promise<RuleSetRow | undefined> {
  const [row] = await db.select().from(monitoringRuleSets).where(eq(monitoringRuleSets.state, "active"));
  return row;
}

/** A new draft (the next version number), from a document's JSON text. */
export async function draftRuleSet(tx: Tx, by: Operator, input: { document: string; note: string }, now: Date): Promise<RuleSetRow> {
  const document = parsed(input.document);
  const step = ruleSetMachine.next("none", "operator.draft");
  // The version: one more than the highest, under a transaction-scoped lock so two drafts never share it.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('monitoring_rule_sets.version'))`);
  const [last] = await tx.select({ version: monitoringRuleSets.version }).from(monitoringRuleSets).orderBy(desc(monitoringRuleSets.version)).limit(1);
  const [row] = await tx
    .insert(monitoringRuleSets)
    .values({
      id: newId("rset"),
      version: (last?.version ?? 0) + 1,
      state: step.to,
      document,
      note: input.note,
      authorId: by.id,
      authorEmail: by.email,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row;
}

/** Replaces a draft's document (its author only: the draft is theirs until proposed). */
export async function editDraft(tx: Tx, by: Operator, id: string, input: { document: string; note: string }, now: Date): Promise<RuleSetRow> {
  const row = await lockRuleSet(tx, id);
  ruleSetMachine.next(row.state, "operator.edit");
  if (row.authorId !== by.id) throw new DomainError("validation.fieldInvalid", { message: `Only its author (${row.authorEmail}) edits this draft.` });
  return move(tx, row, "operator.edit", now, { document: parsed(input.document), note: input.note, backtest: null });
}

export async function proposeRuleSet(tx: Tx, id: string, now: Date): Promise<RuleSetRow> {
  return move(tx, await lockRuleSet(tx, id), "operator.propose", now);
}

/** Runs a proposed set beside the live one: evaluated and recorded at every fast-check, never acting. */
export async function shadowRuleSet(tx: Tx, id: string, now: Date): Promise<RuleSetRow> {
  return move(tx, await lockRuleSet(tx, id), "operator.shadow", now);
}

export async function withdrawRuleSet(tx: Tx, id: string, now: Date): Promise<RuleSetRow> {
  return move(tx, await lockRuleSet(tx, id), "operator.withdraw", now, { retiredAt: now });
}

/**
 * Activates a proposed (or shadowing) set; the set live until then is retired. Four eyes: the
 * author's own attempt is refused, whatever their role.
 */
export async function activateRuleSet(tx: Tx, by: Operator, id: string, now: Date): Promise<{ activated: RuleSetRow; retired?: RuleSetRow }> {
  const row = await lockRuleSet(tx, id);
  ruleSetMachine.next(row.state, "operator.activate");
  if (row.authorId === by.id) {
    throw new DomainError("ruleSet.authorMayNotActivate", {
      message: `You drafted rule set version ${row.version}: another operator must activate it (four eyes).`,
    });
  }
  const [live] = await tx.select().from(monitoringRuleSets).where(eq(monitoringRuleSets.state, "active")).for("update");
  const retired = live ? await move(tx, live, "superseded", now, { retiredAt: now }) : undefined;
  const activated = await move(tx, row, "operator.activate", now, { activatedById: by.id, activatedByEmail: by.email, activatedAt: now });
  return { activated, retired };
}

/** Rule sets for the console, newest version first. */
export async function listRuleSets(db: Db | Tx): Promise<RuleSetRow[]> {
  return db.select().from(monitoringRuleSets).orderBy(desc(monitoringRuleSets.version)).limit(50);
}

export async function ruleSetById(db: Db | Tx, id: string): Promise<RuleSetRow | undefined> {
  const [row] = await db
    .select()
    .from(monitoringRuleSets)
    .where(and(eq(monitoringRuleSets.id, id)));
  return row;
}

/** Keeps a backtest's summary on the set (not a state change). */
export async function saveBacktest(tx: Tx, id: string, backtest: BacktestSummary, now: Date): Promise<RuleSetRow> {
  const row = await lockRuleSet(tx, id);
  const [updated] = await tx.update(monitoringRuleSets).set({ backtest, updatedAt: now }).where(eq(monitoringRuleSets.id, row.id)).returning();
  return updated;
}
