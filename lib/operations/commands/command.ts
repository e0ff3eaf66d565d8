/**
 * A command: one use case an operator (or a job, or the CLI) asks for, declared once, run by
 * ./run.ts whoever asks. A command says what it takes (`input`), who may ask (`role`), what it is
 * about (`subject`, for the audit log and for dual control), which rows it changes (`locks`, taken
 * by the runner in the documented order, ./locks.ts) and does the work in `run`; it returns what
 * changed (before/after) and the runner writes the audit entry. A command that may need a second
 * person (maker-checker) also says when (`needsSecondOperator`) and how the approver sees it
 * (`describe`); its proposal stores the command's name and its input (lib/operations/dual-control).
 *
 * Adapters (console actions, route handlers, jobs, CLI) only call commands: none opens a
 * transaction, locks a row or writes an audit entry of its own.
 */
import type { z } from "zod";
import type { Tx } from "@/db";
import type { AuditEntry } from "@/lib/operations/operators/audit";
import type { ActingRole, Operator } from "@/lib/operations/operators/records";
import type { LockRequest, LockedRows } from "./locks";

/** Who asks, and why (the reason goes into the audit entry, and onto the proposal when there is one). */
export interface By {
  operator: Operator;
  reason?: string;
  now: Date;
}

/** What the command changed, for its one audit entry (`action` when it names the outcome, e.g. screeningCase.trueMatch). */
interface OneEntry {
  action?: string;
  targetType: string;
  targetId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** One run that changes several subjects (a refund file per currency) audits each: none when nothing changed. */
interface ManyEntries {
  entries: (Omit<AuditEntry, "reason"> & { reason?: string | null })[];
}

/** What a command did: its audit entry (or entries), the operator's notice, and what is shown once. */
export type Performed = (OneEntry | ManyEntries) & {
  notice: string;
  /**
   * A credential the command created (a partner key, a first webhook secret): shown once to the
   * operator who asked for it: whoever ran it at once, or the proposer after approval (kept
   * encrypted on the proposal until they reveal it, never shown to the approver).
   */
  once?: Record<string, string>;
};

/** What `run` gets: the transaction, who asks and when, and the rows the runner locked for it. */
export interface CommandContext<L extends LockRequest = LockRequest> extends By {
  tx: Tx;
  locked: LockedRows<L>;
}

/**
 * The asker's first step, for a command whose asker hands over what its input must not carry (a
 * proposal stores the input): a new payout destination in clear, a journal's lines that become a
 * journal of their own. `input` checks what is asked; `stage` records it in the asker's unit of
 * work (the destination stored encrypted, the journal PROPOSED) and gives the command's input,
 * which refers to it. The runner stages before it runs the command or proposes it; an approval
 * runs the staged input.
 */
export interface Staging<A, P> {
  input: z.ZodType<A>;
  stage(ctx: By & { tx: Tx }, asked: A): Promise<P>;
}

export interface Command<P = unknown, L extends LockRequest = LockRequest, A = unknown> {
  /**
   * The name the audit log, the proposals and DUAL_CONTROL_OFF carry (e.g. transfer.hold.restore);
   * a command under dual control is listed by it in lib/platform/config/controlled-actions.ts.
   */
  name: string;
  /** The role needed to ask (and, under dual control, to approve). */
  role: ActingRole;
  input: z.ZodType<P>;
  /** What a proposal is about (one open proposal per command and subject): commands under dual control only. */
  subject?(p: NoInfer<P>): { type: string; id: string };
  /** The rows `run` changes, locked FOR UPDATE before it runs (a missing one is a 404). */
  locks?(p: NoInfer<P>): L;
  run(ctx: CommandContext<NoInfer<L>>, p: NoInfer<P>): Promise<Performed>;
  /** What the asker hands over, staged before the command runs or is proposed (see Staging): the input then refers to it. */
  staged?: Staging<A, NoInfer<P>>;
  /** Whether this instance waits for a second operator when the command is under dual control (default: always). */
  needsSecondOperator?(tx: Tx, p: NoInfer<P>, now: Date): Promise<boolean>;
  /**
   * Under dual control: the queue's line, the subject as the proposer saw it and what the command
   * would make of it (the approver sees both before deciding); refuses what could not be approved anyway.
   */
  describe?(tx: Tx, p: NoInfer<P>): Promise<{ summary: string; before: Record<string, unknown>; after: Record<string, unknown> }>;
  /** What a declined (or withdrawn) proposal undoes in its subject, in the same transaction (default: nothing). */
  onDecline?(tx: Tx, p: NoInfer<P>, by: By): Promise<void>;
}

/** A command, typed by its input and locks where it is declared, and untyped in the registry. */
export const command = <P, L extends LockRequest = Record<never, never>, A = unknown>(c: Command<P, L, A>): Command<P, L, A> => c;

/** The audit entries of what a command did, each with the reason it was asked for. */
export function auditEntries(name: string, performed: Performed, reason: string | undefined): AuditEntry[] {
  if ("entries" in performed) return performed.entries.map((e) => ({ ...e, reason: e.reason ?? reason ?? null }));
  const { action, targetType, targetId, before, after } = performed;
  return [{ action: action ?? name, targetType, targetId, before: before ?? null, after: after ?? null, reason: reason ?? null }];
}
