/**
 * Approvers are told when a proposal waits for them: before, a proposer had to
 * tell a second operator by hand. Proposing enqueues one job per operator who may approve it
 * (enabled, not the proposer, with the action's role), in the proposal's transaction; each job
 * e-mails that operator through the mail interface (SMTP, or the sandbox outbox), outside any
 * transaction, and sends nothing when the proposal was decided or lapsed meanwhile. The header's
 * Approvals badge (./queries.ts `approvableProposalCount`) counts the same proposals.
 */
import { and, eq, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { operators, otpOutbox, proposals } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { defineJob } from "@/lib/platform/jobs/define";
import { sendEmail } from "@/lib/platform/notifications/email";
import type { OperatorRole } from "@/lib/operations/operators/records";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { providers } from "@/lib/payments";
import { backoffWithJitter } from "@/lib/partners";

/** The sandbox outbox has no partner for an operator's message: its rows carry this instead. */
export const CONSOLE_OUTBOX_PARTNER = "console";

/** Operators who may approve a proposal of an action needing `role`, other than its proposer. */
export async function approversOf(db: Db | Tx, role: OperatorRole, proposedBy: string) {
  return db
    .select({ id: operators.id, email: operators.email })
    .from(operators)
    .where(and(isNull(operators.disabledAt), ne(operators.id, proposedBy), role === "admin" ? eq(operators.role, "admin") : undefined));
}

/** Called by `propose` in its transaction: one notice job per approver. */
export async function queueApproverNotices(tx: Tx, proposal: { id: string; proposedBy: string }, role: OperatorRole, now: Date): Promise<void> {
  for (const approver of await approversOf(tx, role, proposal.proposedBy)) {
    await effectsOf(tx).jobs.schedule(
      "proposals.notifyApprover",
      { proposalId: proposal.id, operatorId: approver.id },
      { runAt: now, dedupeKey: `proposal-notice:${proposal.id}:${approver.id}`, maxAttempts: 6 },
    );
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The e-mail an approver receives: what is proposed, by whom and why, and the link to decide it. */
export function approverNotice(p: { id: string; summary: string; reason: string; proposedByEmail: string; lapsesAt: Date }) {
  const url = `${config().publicBaseUrl}/console/approvals/${p.id}`;
  const subject = `Approval needed: ${p.summary}`;
  const lines = [
    `${p.proposedByEmail} proposed an action that needs a second operator:`,
    "",
    p.summary,
    `Reason: ${p.reason}`,
    "",
    `Approve or decline it by ${p.lapsesAt.toISOString().slice(0, 10)} (it lapses then): ${url}`,
  ];
  const html = `<p>${lines.map(escapeHtml).join("<br>")}</p><p><a href="${escapeHtml(url)}">Open proposal ${escapeHtml(p.id)}</a></p>`;
  return { subject, text: lines.join("\n"), html };
}

export const notifyApprover = defineJob({
  kind: "proposals.notifyApprover",
  schema: z.object({ proposalId: z.string(), operatorId: z.string() }),
  backoff: (failures) => Math.min(backoffWithJitter(failures), 600),
  perform: async (db: Db, { payload, now }) => {
    const [row] = await db
      .select({ proposal: proposals, email: operators.email, disabledAt: operators.disabledAt })
      .from(proposals)
      .innerJoin(operators, eq(operators.id, payload.operatorId))
      .where(eq(proposals.id, payload.proposalId));
    // Decided, lapsed or the approver disabled since: nothing to ask of them.
    if (!row || row.disabledAt || row.proposal.state !== "PROPOSED" || row.proposal.lapsesAt.getTime() <= now.getTime()) return;
    const message = approverNotice(row.proposal);
    if (providers().otpEmail === "sandbox") {
      await db.insert(otpOutbox).values({
        id: newId("msg"),
        partnerId: CONSOLE_OUTBOX_PARTNER,
        identifier: row.email,
        purpose: "PROPOSAL",
        otp: null,
        message: `${message.subject}\n\n${message.text}`,
        createdAt: now,
      });
      return;
    }
    await sendEmail(row.email, message);
  },
});
