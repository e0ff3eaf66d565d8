"use server";

import { z } from "zod";
import {
  activateRuleSetVersion,
  backtestRuleSetVersion,
  draftRuleSetVersion,
  editRuleSetDraft,
  moveRuleSet as move,
  setPartnerMonitoringMode,
  snoozeMonitoringRule,
} from "@/lib/operations/commands/monitoring";
import { consoleCommand } from "@/lib/operations/console/action";

// The Monitoring page's actions: rule set versions (admins: a compliance officer's changes),
// per-partner mode and parameters (admins), per-customer snoozes (reviewers). Every one is a
// command, audit-logged by the runner.

const ruleSet = z.object({ ruleSetId: z.string().min(1) });
const documentForm = z.object({ document: z.string().min(2).max(200_000), note: z.string().trim().min(3).max(500) });

export const createDraft = consoleCommand("admin", documentForm, (input) => ({ command: draftRuleSetVersion, input, reason: input.note }));

export const saveDraft = consoleCommand("admin", documentForm.merge(ruleSet), (input) => ({ command: editRuleSetDraft, input, reason: input.note }));

export const moveRuleSet = consoleCommand("admin", ruleSet.extend({ move: z.enum(["propose", "shadow", "withdraw"]) }), (input) => ({
  command: move,
  input,
}));

export const activate = consoleCommand("admin", ruleSet, (input) => ({ command: activateRuleSetVersion, input }));

export const backtest = consoleCommand("admin", ruleSet, (input) => ({ command: backtestRuleSetVersion, input }));

export const setPartnerMode = consoleCommand(
  "admin",
  z.object({ partnerId: z.string().min(1), mode: z.enum(["enforce", "shadow", "default"]), parameters: z.string().max(5000).default("") }),
  (input) => ({ command: setPartnerMonitoringMode, input }),
);

export const snooze = consoleCommand(
  "reviewer",
  z.object({
    customerId: z.string().trim().min(1),
    ruleId: z.string().min(1),
    days: z.coerce.number().int().min(1).max(90),
    reason: z.string().trim().min(3).max(500),
  }),
  (input) => ({ command: snoozeMonitoringRule, input, reason: input.reason }),
);
