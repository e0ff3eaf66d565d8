import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { auditLog, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import type { Operator } from "@/lib/operations/operators/records";
import { registeredTransfer, type Owner } from "./fixtures";

/** Two reviewers (a maker and a checker) for the command tests. */
export const maker: Operator = { id: "op_cmd_maker", email: "cmd-maker@example.com", name: "Maker", role: "reviewer" };
export const checker: Operator = { id: "op_cmd_checker", email: "cmd-checker@example.com", name: "Checker", role: "reviewer" };

/** A transfer of `amount` USD moved to `state` through its machine (registered → validated), optionally then put on hold. */
export async function transferIn(db: Db, owner: Owner, opts: { amount?: string; hold?: boolean; beneficiaryId?: string } = {}): Promise<string> {
  const t = await registeredTransfer(db, owner, opts.beneficiaryId);
  const { transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { holdTransfer } = await import("@/lib/compliance/cases/hold");
  await db.transaction(async (tx) => {
    if (opts.amount) await tx.update(transfers).set({ originAmount: opts.amount }).where(eq(transfers.id, t.id));
    const [row] = await tx.select().from(transfers).where(eq(transfers.id, t.id));
    const validated = await transitionTransfer(tx, row, "fastCheck.passed", clock.now());
    if (opts.hold) await holdTransfer(tx, validated, clock.now());
  });
  return t.id;
}

export const transferState = async (db: Db, id: string) =>
  (await db.select({ s: transfers.state, prior: transfers.priorState }).from(transfers).where(eq(transfers.id, id)))[0];

/** The audit entries with this action on this target. */
export const auditOf = (db: Db, action: string, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
