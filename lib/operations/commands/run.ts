/**
 * The command runner: what every adapter calls (console actions, route handlers, jobs, CLI). It
 * does, once for every command: the unit of work (one transaction, effects at commit), the input
 * checked by the command's schema, the asker's role, dual control (a command under it whose
 * instance needs a second operator becomes a proposal: its name and input wait on the Approvals
 * page, lib/operations/dual-control/proposals.ts), the rows locked in the documented order (./locks.ts), the
 * work, and its audit entry with before and after.
 */
import type { Tx } from "@/db";
import { underDualControl, propose, type ProposalRow } from "@/lib/operations/dual-control/proposals";
import { ready } from "@/lib/platform/ready";
import { effectsOf, runUnit, type Outcome } from "@/lib/platform/unit-of-work";
import { auditEntries, type By, type Command, type Performed } from "./command";
import { parseInput, perform, requireRole } from "./perform";
import { commandNamed } from "./registry";

/** What asking for a command did: it ran, or it waits for a second operator. */
export type Acted = { kind: "performed"; performed: Performed } | { kind: "proposed"; proposal: ProposalRow };

/**
 * Runs the command in the caller's unit of work (`tx`), or proposes it when it needs a second
 * operator; a command that stages what is asked (Staging) takes the asked input and stages it first.
 */
export async function execute<P>(tx: Tx, command: Command<P>, input: unknown, by: By): Promise<Acted> {
  // The role first: an auditor (or anyone short of it) is refused before their input is read.
  requireRole(command, by.operator);
  // What the asker hands over that the input must not carry is staged first (a journal, an encrypted destination).
  const p = command.staged ? parseInput(command, await command.staged.stage({ ...by, tx }, parseInput(command.staged, input))) : parseInput(command, input);
  if (underDualControl(command.name) && (command.needsSecondOperator ? await command.needsSecondOperator(tx, p, by.now) : true)) {
    return { kind: "proposed", proposal: await propose(tx, command.name, p, by) };
  }
  const performed = await perform(tx, command, p, by);
  for (const entry of auditEntries(command.name, performed, by.reason)) await effectsOf(tx).audit.record(entry, by.operator);
  return { kind: "performed", performed };
}

/** `execute` by the command's name (what a proposal stores). */
export function act(tx: Tx, name: string, input: unknown, by: By): Promise<Acted> {
  return execute(tx, commandNamed(name), input, by);
}

/** A command in its own unit of work, for an operator: what a console action calls. */
export function runCommand<P>(
  command: Command<P>,
  input: unknown,
  by: { operator: By["operator"]; reason?: string },
  options: { context?: Record<string, unknown> } = {},
): Promise<Outcome<Acted>> {
  return runUnit(({ tx, now }) => execute(tx, command, input, { ...by, now }), {
    actor: { kind: "operator", operator: by.operator },
    context: options.context ?? { operatorId: by.operator.id },
    db: ready,
  });
}

/** The notice an operator sees for what asking did. */
export function actedNotice(acted: Acted): string {
  return acted.kind === "performed"
    ? acted.performed.notice
    : `Proposed for a second operator's approval (${acted.proposal.id}): ${acted.proposal.summary}. Nothing changes until another operator approves it on the Approvals page.`;
}
