/**
 * The parts of running a command that a proposal's approval shares with running it at once: the
 * input checked by the command's schema, the asker's role, the rows locked in order, the work.
 * (The audit entry is written by the caller: at once by ./run.ts, with the proposal by its approval.)
 */
import type { Tx } from "@/db";
import { DomainError, validationError } from "@/lib/platform/errors";
import type { ActingRole, Operator } from "@/lib/operations/operators/records";
import type { By, Command, Performed } from "./command";
import { lockInOrder } from "./locks";

const RANK = { reviewer: 0, admin: 1 } as const;

/** The command's input checked by its schema (a bad payload is a 400 like a bad form). */
export function parseInput<P>(command: Pick<Command<P>, "input">, input: unknown): P {
  const result = command.input.safeParse(input);
  if (!result.success) {
    throw validationError(
      result.error.issues.map((i) => ({ field: i.path.join(".") || "input", code: "validation.fieldInvalid" as const, message: i.message })),
    );
  }
  return result.data;
}

/**
 * An operator below the command's role is refused (403), whichever adapter let them ask; an
 * auditor (read-only) is refused every command, and with it every proposal, approval and decline.
 */
export function requireRole(command: { role: ActingRole }, operator: Operator): void {
  if (operator.role === "auditor" || RANK[operator.role] < RANK[command.role]) {
    throw new DomainError("proposal.roleInsufficient", { message: `This action needs the ${command.role} role.`, details: { role: command.role } });
  }
}

/** Locks what the command changes, in the documented order, then runs it. */
export async function perform<P>(tx: Tx, command: Command<P>, p: P, by: By): Promise<Performed> {
  const locked = await lockInOrder(tx, command.locks?.(p) ?? {});
  return command.run({ ...by, tx, locked }, p);
}
