/**
 * Dual control, maker-checker (docs/decisions.md "Dual control"): the proposals of commands that
 * need a second operator (lib/operations/commands: a command declares whether it does; the proposal stores the
 * command's name and its input).
 *
 * API (every function runs in the caller's unit of work, lib/platform/unit-of-work.ts):
 * - `propose(tx, name, input, by)`: what the command runner (lib/operations/commands/run.ts) calls when the
 *   command is under dual control (./kinds.ts, config DUAL_CONTROL_OFF) and this instance needs it:
 *   a PROPOSED row (one open per command and subject), audited `proposal.create`; lapses 30 days
 *   later. Every operator who may approve it is e-mailed (./notify.ts).
 * - `approve(tx, proposalId, by)`: a different operator, with the command's role, approves: the
 *   command runs here, in the approver's transaction, and its audit entry names the proposer, the
 *   approver, both reasons and the before/after. The proposer is refused (403
 *   proposal.selfApproval); a lapsed one is marked LAPSED and refused (409). A credential the
 *   command created is not the approver's to see: it is kept encrypted on the proposal until
 *   `revealSecret(tx, proposalId, by)` hands it, once, to the proposer.
 * - `decline(tx, proposalId, by)`: nothing runs (the command's `onDecline` hook undoes what its
 *   subject holds for it); audited `proposal.decline`. The proposer may decline (withdraw) their
 *   own proposal. `declineOpenFor(tx, name, subject, by)` declines the one waiting on a subject.
 * - `lapseDue(tx, now)`: marks every proposal past its 30 days LAPSED (the queue hides them anyway).
 * Each command's input is checked by its schema when proposed and again when approved.
 */
import { and, eq, lte } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { proposals } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { DomainError, notFound } from "@/lib/platform/errors";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { auditEntries, type By, type Command, type Performed } from "@/lib/operations/commands/command";
import { parseInput, perform, requireRole } from "@/lib/operations/commands/perform";
import { commandNamed } from "@/lib/operations/commands/registry";
import { ALWAYS_CONTROLLED, isControlledAction, RENAMED } from "@/lib/platform/config/controlled-actions";
import { queueApproverNotices } from "./notify";
import { proposalMachine } from "./state-machine";

export type ProposalRow = typeof proposals.$inferSelect;

/** An undecided proposal lapses after this (30 days). */
export const PROPOSAL_LAPSE_DAYS = 30;

/**
 * The command a proposal names, with its input checked: one proposed under a name since changed
 * (./kinds.ts RENAMED) runs as the command it became.
 */
function parsed(name: string, input: unknown): { command: Command; input: Record<string, unknown> } {
  const renamed = RENAMED[name];
  const command = commandNamed(renamed?.to ?? name);
  const p = parseInput(command, renamed ? { ...(input as Record<string, unknown>), ...renamed.input } : input);
  return { command, input: p as Record<string, unknown> };
}

/** Whether the command `name` is under dual control by configuration (on by default; always for ALWAYS_CONTROLLED). */
export function underDualControl(name: string): boolean {
  if (!isControlledAction(name)) return false;
  return ALWAYS_CONTROLLED.includes(name) || !config().DUAL_CONTROL_OFF.includes(name);
}

export async function propose(tx: Tx, kind: string, input: unknown, by: By): Promise<ProposalRow> {
  const { command: action, input: p } = parsed(kind, input);
  requireRole(action, by.operator);
  if (!action.describe || !action.subject) throw new Error(`${kind} is not a command under dual control`);
  const subject = action.subject(p);
  const [open] = await tx
    .select()
    .from(proposals)
    .where(and(eq(proposals.action, kind), eq(proposals.subjectType, subject.type), eq(proposals.subjectId, subject.id), eq(proposals.state, "PROPOSED")))
    .for("update");
  // One past its 30 days no longer stands in the way: it lapses now.
  if (open && open.lapsesAt.getTime() <= by.now.getTime()) await move(tx, open, "clock.lapse", {});
  else if (open) {
    throw new DomainError("proposal.duplicate", {
      message: `Proposal ${open.id} for this already waits for approval: approve or decline it on the Approvals page.`,
      details: { proposalId: open.id },
    });
  }
  const { summary, before, after: proposed } = await action.describe(tx, p);
  const step = proposalMachine.next("none", "operator.propose");
  const [row] = await tx
    .insert(proposals)
    .values({
      id: newId("prop"),
      action: kind,
      subjectType: subject.type,
      subjectId: subject.id,
      payload: p,
      summary,
      reason: by.reason ?? "",
      state: step.to,
      proposedBy: by.operator.id,
      proposedByEmail: by.operator.email,
      lapsesAt: addSeconds(by.now, PROPOSAL_LAPSE_DAYS * 86_400),
      before,
      proposed,
      createdAt: by.now,
    })
    .returning();
  await effectsOf(tx).audit.record(
    {
      action: "proposal.create",
      targetType: subject.type,
      targetId: subject.id,
      after: { proposalId: row.id, action: kind, payload: p, before, proposed },
      reason: by.reason,
    },
    by.operator,
  );
  await queueApproverNotices(tx, row, action.role, by.now);
  return row;
}

/** A proposal, locked; one past its lapse instant is refused (the caller's writes commit: it is marked LAPSED). */
async function lockOpen(tx: Tx, proposalId: string, trigger: "operator.approve" | "operator.decline", now: Date): Promise<ProposalRow> {
  const [row] = await tx.select().from(proposals).where(eq(proposals.id, proposalId)).for("update");
  if (!row) throw notFound("proposal");
  if (row.state === "PROPOSED" && row.lapsesAt.getTime() <= now.getTime()) {
    await move(tx, row, "clock.lapse", {});
    throw new DomainError("proposal.stateInvalid", {
      message: `Proposal ${row.id} lapsed on ${row.lapsesAt.toISOString().slice(0, 10)}, after ${PROPOSAL_LAPSE_DAYS} days: propose it again.`,
      details: { currentState: "LAPSED", trigger },
      keepChanges: true,
    });
  }
  proposalMachine.next(row.state, trigger);
  return row;
}

async function move(tx: Tx, row: ProposalRow, trigger: "operator.approve" | "operator.decline" | "clock.lapse", set: Partial<ProposalRow>) {
  const step = proposalMachine.next(row.state, trigger);
  const [moved] = await tx
    .update(proposals)
    .set({ ...set, state: step.to })
    .where(eq(proposals.id, row.id))
    .returning();
  return moved;
}

/** The context a proposal's kept secret is encrypted under: it decrypts on its own row only. */
const secretContext = (proposalId: string) => `proposal-secret:${proposalId}`;

/**
 * The approver runs the proposed action (see the module comment). What it shows once is not in the
 * answer: it is kept for the proposer (`secretKept`).
 */
export async function approve(
  tx: Tx,
  proposalId: string,
  by: By,
): Promise<{ proposal: ProposalRow; performed: { notice: string; after: Record<string, unknown> }; secretKept: boolean }> {
  const row = await lockOpen(tx, proposalId, "operator.approve", by.now);
  if (row.proposedBy === by.operator.id) {
    throw new DomainError("proposal.selfApproval", {
      message: "You proposed this: a different operator must approve it.",
      details: { proposalId: row.id, proposedBy: row.proposedByEmail },
    });
  }
  const { command, input } = parsed(row.action, row.payload);
  requireRole(command, by.operator);
  // The proposer's reason is the command's; the approver's is kept beside it.
  const { once, ...performed } = await perform(tx, command, input, { ...by, reason: row.reason });
  const entries = auditEntries(command.name, performed as Performed, row.reason);
  const after = entries[0]?.after ?? {};
  const cipher = once ? await destinationCipher(tx) : null;
  const proposal = await move(tx, row, "operator.approve", {
    decidedBy: by.operator.id,
    decidedByEmail: by.operator.email,
    decidedAt: by.now,
    decisionReason: by.reason,
    after,
    secretForProposer: once && cipher ? cipher.encrypt(JSON.stringify(once), secretContext(row.id)) : null,
  });
  for (const entry of entries) {
    await effectsOf(tx).audit.record(
      {
        ...entry,
        after: {
          ...entry.after,
          proposalId: row.id,
          proposedBy: row.proposedByEmail,
          proposedAt: row.createdAt.toISOString(),
          approvedBy: by.operator.email,
          approvalReason: by.reason,
        },
      },
      by.operator,
    );
  }
  return { proposal, performed: { notice: performed.notice, after }, secretKept: !!once };
}

/**
 * The proposer reveals what their approved proposal created (a partner key, a first webhook
 * secret), once: the encrypted copy is cleared in the same transaction, so a second reveal (or a
 * second tab) finds nothing. Only the proposer may; audited without the secret.
 */
export async function revealSecret(tx: Tx, proposalId: string, by: By): Promise<Record<string, string>> {
  const [row] = await tx.select().from(proposals).where(eq(proposals.id, proposalId)).for("update");
  if (!row) throw notFound("proposal");
  requireRole(parsed(row.action, row.payload).command, by.operator);
  if (row.proposedBy !== by.operator.id) {
    throw new DomainError("proposal.roleInsufficient", { message: "Only the operator who proposed this may reveal what it created." });
  }
  // Revealed already (or nothing was created): a lost one is replaced by rotating or issuing anew.
  if (!row.secretForProposer)
    throw notFound("proposal", "Nothing to reveal: it was revealed once already. Rotate the secret or issue a new key if it was lost.");
  const once = JSON.parse((await destinationCipher(tx)).decrypt(row.secretForProposer, secretContext(row.id))) as Record<string, string>;
  await tx.update(proposals).set({ secretForProposer: null }).where(eq(proposals.id, row.id));
  await effectsOf(tx).audit.record(
    { action: "proposal.secret.reveal", targetType: row.subjectType, targetId: row.subjectId, after: { proposalId: row.id, revealed: Object.keys(once) } },
    by.operator,
  );
  return once;
}

/** A different operator (or the proposer, withdrawing it) declines: nothing runs. */
export async function decline(tx: Tx, proposalId: string, by: By): Promise<ProposalRow> {
  const row = await lockOpen(tx, proposalId, "operator.decline", by.now);
  const { command, input } = parsed(row.action, row.payload);
  // The proposer had the command's role when proposing; each check also refuses an auditor.
  requireRole(command, by.operator);
  // What the command undoes in its subject (a manual journal is discarded) in the same transaction.
  await command.onDecline?.(tx, input, by);
  const declined = await move(tx, row, "operator.decline", {
    decidedBy: by.operator.id,
    decidedByEmail: by.operator.email,
    decidedAt: by.now,
    decisionReason: by.reason,
  });
  await effectsOf(tx).audit.record(
    {
      action: "proposal.decline",
      targetType: row.subjectType,
      targetId: row.subjectId,
      before: { proposalId: row.id, action: row.action, state: row.state, proposedBy: row.proposedByEmail },
      after: { proposalId: row.id, state: declined.state },
      reason: by.reason,
    },
    by.operator,
  );
  return declined;
}

/**
 * Declines the proposal waiting for `kind` on `subject`, if there is one (its subject was withdrawn
 * by other means, e.g. a manual journal discarded): as `decline`, hook included. One past its 30
 * days is marked LAPSED instead. Returns the proposal declined, or null.
 */
export async function declineOpenFor(tx: Tx, kind: string, subject: { type: string; id: string }, by: By): Promise<ProposalRow | null> {
  const [open] = await tx
    .select()
    .from(proposals)
    .where(and(eq(proposals.action, kind), eq(proposals.subjectType, subject.type), eq(proposals.subjectId, subject.id), eq(proposals.state, "PROPOSED")))
    .for("update");
  if (!open) return null;
  if (open.lapsesAt.getTime() <= by.now.getTime()) {
    await move(tx, open, "clock.lapse", {});
    return null;
  }
  return decline(tx, open.id, by);
}

/** Marks every undecided proposal past its 30 days LAPSED; returns how many. */
export async function lapseDue(tx: Tx, now: Date): Promise<number> {
  const due = await tx
    .select()
    .from(proposals)
    .where(and(eq(proposals.state, "PROPOSED"), lte(proposals.lapsesAt, now)))
    .for("update");
  for (const row of due) await move(tx, row, "clock.lapse", {});
  return due.length;
}
