"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/console/action";
import { backtestRuleSet } from "@/lib/monitoring/backtest";
import { activateRuleSet, draftRuleSet, editDraft, proposeRuleSet, saveBacktest, shadowRuleSet, withdrawRuleSet } from "@/lib/monitoring/rule-sets";
import { setPartnerMonitoring, snoozeRule } from "@/lib/monitoring/settings";
import { recordAudit } from "@/lib/operators/audit";

// The Monitoring page's actions (issue 22 item 5): rule set versions (admins: a compliance
// officer's changes), per-partner mode and parameters (admins), per-customer snoozes (reviewers).
// Every one is audit-logged.

const ruleSet = z.object({ ruleSetId: z.string().min(1) });
const documentForm = z.object({ document: z.string().min(2).max(200_000), note: z.string().trim().min(3).max(500) });

export const createDraft = consoleAction("admin", documentForm, async ({ tx, input, operator, now }) => {
  const row = await draftRuleSet(tx, operator, input, now);
  await recordAudit(
    tx,
    operator,
    { action: "ruleSet.draft", targetType: "ruleSet", targetId: row.id, after: { version: row.version, state: row.state }, reason: input.note },
    now,
  );
  return `Draft version ${row.version} saved.`;
});

export const saveDraft = consoleAction("admin", documentForm.merge(ruleSet), async ({ tx, input, operator, now }) => {
  const row = await editDraft(tx, operator, input.ruleSetId, input, now);
  await recordAudit(
    tx,
    operator,
    { action: "ruleSet.edit", targetType: "ruleSet", targetId: row.id, after: { version: row.version }, reason: input.note },
    now,
  );
  return `Draft version ${row.version} updated.`;
});

const moves = {
  propose: { run: proposeRuleSet, done: "proposed: another operator may activate it" },
  shadow: { run: shadowRuleSet, done: "now runs in shadow beside the live set" },
  withdraw: { run: withdrawRuleSet, done: "withdrawn" },
} as const;

export const moveRuleSet = consoleAction("admin", ruleSet.extend({ move: z.enum(["propose", "shadow", "withdraw"]) }), async ({ tx, input, operator, now }) => {
  const row = await moves[input.move].run(tx, input.ruleSetId, now);
  await recordAudit(
    tx,
    operator,
    { action: `ruleSet.${input.move}`, targetType: "ruleSet", targetId: row.id, after: { version: row.version, state: row.state } },
    now,
  );
  return `Version ${row.version} ${moves[input.move].done}.`;
});

export const activate = consoleAction("admin", ruleSet, async ({ tx, input, operator, now }) => {
  const { activated, retired } = await activateRuleSet(tx, operator, input.ruleSetId, now);
  await recordAudit(
    tx,
    operator,
    {
      action: "ruleSet.activate",
      targetType: "ruleSet",
      targetId: activated.id,
      before: retired ? { liveVersion: retired.version } : null,
      after: { liveVersion: activated.version, author: activated.authorEmail },
    },
    now,
  );
  return `Version ${activated.version} is live${retired ? `; version ${retired.version} retired` : ""}.`;
});

export const backtest = consoleAction("admin", ruleSet, async ({ tx, input, operator, now }) => {
  const summary = await backtestRuleSet(tx, input.ruleSetId, now);
  const row = await saveBacktest(tx, input.ruleSetId, summary, now);
  await recordAudit(
    tx,
    operator,
    { action: "ruleSet.backtest", targetType: "ruleSet", targetId: row.id, after: { transfers: summary.transfers, wouldHold: summary.wouldHold } },
    now,
  );
  return `Backtest of version ${row.version}: ${summary.wouldHold} of ${summary.transfers} transfers would be held (${summary.liveHeld} of them held by the live set at the time).`;
});

export const setPartnerMode = consoleAction(
  "admin",
  z.object({ partnerId: z.string().min(1), mode: z.enum(["enforce", "shadow", "default"]), parameters: z.string().max(5000).default("") }),
  async ({ tx, input, operator, now }) => {
    const { before, after } = await setPartnerMonitoring(tx, input, now);
    await recordAudit(tx, operator, { action: "partner.monitoring", targetType: "partner", targetId: input.partnerId, before, after }, now);
    return `Monitoring of ${input.partnerId}: ${after.mode ?? "default mode"}, ${Object.keys(after.parameters).length} parameter(s) of its own.`;
  },
);

export const snooze = consoleAction(
  "reviewer",
  z.object({
    customerId: z.string().trim().min(1),
    ruleId: z.string().min(1),
    days: z.coerce.number().int().min(1).max(90),
    reason: z.string().trim().min(3).max(500),
  }),
  async ({ tx, input, operator, now }) => {
    const row = await snoozeRule(tx, operator, input, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "monitoring.snooze",
        targetType: "customer",
        targetId: input.customerId,
        after: { ruleId: row.ruleId, expiresAt: row.expiresAt.toISOString() },
        reason: input.reason,
      },
      now,
    );
    return `Rule ${row.ruleId} snoozed for ${input.customerId} until ${row.expiresAt.toISOString().slice(0, 10)}.`;
  },
);
