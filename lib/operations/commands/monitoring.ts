/**
 * Commands on transaction monitoring: rule set versions (admins: a compliance officer's changes),
 * a partner's mode and parameters (admins), a customer's snoozes (reviewers).
 */
import { z } from "zod";
import {
  backtestRuleSet,
  activateRuleSet,
  draftRuleSet,
  editDraft,
  proposeRuleSet,
  saveBacktest,
  shadowRuleSet,
  withdrawRuleSet,
  setPartnerMonitoring,
  snoozeRule,
} from "@/lib/compliance";
import { command } from "./command";

const ruleSet = z.object({ ruleSetId: z.string().min(1) });
const document = z.object({ document: z.string().min(2).max(200_000), note: z.string().trim().min(3).max(500) });

export const draftRuleSetVersion = command({
  name: "ruleSet.draft",
  role: "admin",
  input: document,
  run: async ({ tx, operator, now }, p) => {
    const row = await draftRuleSet(tx, operator, p, now);
    return { targetType: "ruleSet", targetId: row.id, after: { version: row.version, state: row.state }, notice: `Draft version ${row.version} saved.` };
  },
});

export const editRuleSetDraft = command({
  name: "ruleSet.edit",
  role: "admin",
  input: document.merge(ruleSet),
  run: async ({ tx, operator, now }, p) => {
    const row = await editDraft(tx, operator, p.ruleSetId, p, now);
    return { targetType: "ruleSet", targetId: row.id, after: { version: row.version }, notice: `Draft version ${row.version} updated.` };
  },
});

const MOVES = {
  propose: { run: proposeRuleSet, done: "proposed: another operator may activate it" },
  shadow: { run: shadowRuleSet, done: "now runs in shadow beside the live set" },
  withdraw: { run: withdrawRuleSet, done: "withdrawn" },
} as const;

/** A rule set version proposed for activation, run in shadow, or withdrawn (audited as ruleSet.<move>). */
export const moveRuleSet = command({
  name: "ruleSet.move",
  role: "admin",
  input: ruleSet.extend({ move: z.enum(["propose", "shadow", "withdraw"]) }),
  run: async ({ tx, now }, p) => {
    const row = await MOVES[p.move].run(tx, p.ruleSetId, now);
    return {
      action: `ruleSet.${p.move}`,
      targetType: "ruleSet",
      targetId: row.id,
      after: { version: row.version, state: row.state },
      notice: `Version ${row.version} ${MOVES[p.move].done}.`,
    };
  },
});

/** A proposed version made live by another operator than its author; the live one retires. */
export const activateRuleSetVersion = command({
  name: "ruleSet.activate",
  role: "admin",
  input: ruleSet,
  run: async ({ tx, operator, now }, p) => {
    const { activated, retired } = await activateRuleSet(tx, operator, p.ruleSetId, now);
    return {
      targetType: "ruleSet",
      targetId: activated.id,
      before: retired ? { liveVersion: retired.version } : null,
      after: { liveVersion: activated.version, author: activated.authorEmail },
      notice: `Version ${activated.version} is live${retired ? `; version ${retired.version} retired` : ""}.`,
    };
  },
});

export const backtestRuleSetVersion = command({
  name: "ruleSet.backtest",
  role: "admin",
  input: ruleSet,
  run: async ({ tx, now }, p) => {
    const summary = await backtestRuleSet(tx, p.ruleSetId, now);
    const row = await saveBacktest(tx, p.ruleSetId, summary, now);
    return {
      targetType: "ruleSet",
      targetId: row.id,
      after: { transfers: summary.transfers, wouldHold: summary.wouldHold },
      notice: `Backtest of version ${row.version}: ${summary.wouldHold} of ${summary.transfers} transfers would be held (${summary.liveHeld} of them held by the live set at the time).`,
    };
  },
});

export const setPartnerMonitoringMode = command({
  name: "partner.monitoring",
  role: "admin",
  input: z.object({ partnerId: z.string().min(1), mode: z.enum(["enforce", "shadow", "default"]), parameters: z.string().max(5000).default("") }),
  run: async ({ tx, now }, p) => {
    const { before, after } = await setPartnerMonitoring(tx, p, now);
    return {
      targetType: "partner",
      targetId: p.partnerId,
      before,
      after,
      notice: `Monitoring of ${p.partnerId}: ${after.mode ?? "default mode"}, ${Object.keys(after.parameters).length} parameter(s) of its own.`,
    };
  },
});

/** A rule snoozed for one customer for some days, with the reviewer's reason. */
export const snoozeMonitoringRule = command({
  name: "monitoring.snooze",
  role: "reviewer",
  input: z.object({ customerId: z.string().trim().min(1), ruleId: z.string().min(1), days: z.coerce.number().int().min(1).max(90), reason: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const row = await snoozeRule(tx, operator, p, now);
    return {
      targetType: "customer",
      targetId: p.customerId,
      after: { ruleId: row.ruleId, expiresAt: row.expiresAt.toISOString() },
      notice: `Rule ${row.ruleId} snoozed for ${p.customerId} until ${row.expiresAt.toISOString().slice(0, 10)}.`,
    };
  },
});
