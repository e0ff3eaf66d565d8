/**
 * Per-partner monitoring settings, set in the console: the mode (enforce,
 * shadow, or the default) and the partner's values for the live set's parameters. Per-customer
 * snoozes of one rule, with expiry and reason.
 */
import { desc, eq, gt } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { customers, monitoringSuppressions, partners } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError, notFound } from "@/lib/platform/errors";
import { isWireDecimal } from "@/lib/platform/money/decimal";
import type { Operator } from "@/lib/platform/audit";
import { activeRuleSet } from "./rule-sets";
import type { MonitoringMode } from "./types";

const bad = (message: string) => new DomainError("validation.fieldInvalid", { message });

/** Parses "name=value" lines into parameter overrides named by the live set, or refuses naming the line. */
export function parseOverrides(text: string, known: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(\S+)$/.exec(line);
    if (!m) throw bad(`"${line}": write one name=value per line.`);
    if (!(m[1] in known)) throw bad(`"${m[1]}" is not a parameter of the live rule set.`);
    if (!isWireDecimal(m[2])) throw bad(`"${m[1]}": ${m[2]} is not a decimal number.`);
    out[m[1]] = m[2];
  }
  return out;
}

export async function setPartnerMonitoring(
  tx: Tx,
  input: { partnerId: string; mode: MonitoringMode | "default"; parameters: string },
  now: Date,
): Promise<{
  before: { mode: MonitoringMode | null; parameters: Record<string, string> };
  after: { mode: MonitoringMode | null; parameters: Record<string, string> };
}> {
  const [partner] = await tx.select().from(partners).where(eq(partners.id, input.partnerId)).for("update");
  if (!partner) throw new DomainError("partner.notFound");
  const live = await activeRuleSet(tx);
  const parameters = parseOverrides(input.parameters, live?.document.parameters ?? {});
  const mode = input.mode === "default" ? null : input.mode;
  await tx.update(partners).set({ monitoringMode: mode, monitoringParameters: parameters, updatedAt: now }).where(eq(partners.id, partner.id));
  return { before: { mode: partner.monitoringMode, parameters: partner.monitoringParameters }, after: { mode, parameters } };
}

/** Snoozes one rule for one customer until `days` from now (at most 90), with the operator's reason. */
export async function snoozeRule(tx: Tx, by: Operator, input: { customerId: string; ruleId: string; reason: string; days: number }, now: Date) {
  const live = await activeRuleSet(tx);
  if (!live?.document.rules.some((r) => r.id === input.ruleId)) throw bad(`"${input.ruleId}" is not a rule of the live rule set.`);
  const [customer] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, input.customerId));
  if (!customer) throw notFound("customer", `No customer ${input.customerId}.`);
  const row = {
    id: newId("msup"),
    customerId: input.customerId,
    ruleId: input.ruleId,
    reason: input.reason,
    expiresAt: new Date(now.getTime() + input.days * 86_400_000),
    createdById: by.id,
    createdByEmail: by.email,
    createdAt: now,
  };
  await tx.insert(monitoringSuppressions).values(row);
  return row;
}

/**
 * Snoozes not yet expired at the server's clock (the one the fast-check reads them at, so the page
 * lists exactly those that count), newest first.
 */
export async function activeSnoozes(db: Db) {
  return db
    .select()
    .from(monitoringSuppressions)
    .where(gt(monitoringSuppressions.expiresAt, clock.now()))
    .orderBy(desc(monitoringSuppressions.createdAt))
    .limit(100);
}
