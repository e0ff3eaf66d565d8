/**
 * Period close: an accountant closes a month once it has ended; postings dated
 * in a closed month are refused (lib/finance/ledger/post.ts, and a trigger), so a correction posts in the
 * open month. Closing and reopening are audited.
 */
import { desc, eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { ledgerPeriods } from "@/db/schema";
import { DomainError, validationError } from "@/lib/platform/errors";
import { isPeriod, periodBounds } from "@/lib/finance/ledger";
import type { Operator } from "@/lib/platform/audit";
import { NONE } from "@/lib/platform/state-machine/define";
import { lastMonth } from "./dates";
import { periodMachine, type PeriodTrigger } from "./period-state-machine";

export type PeriodRow = typeof ledgerPeriods.$inferSelect;

export function checkPeriod(period: string): string {
  if (!isPeriod(period)) {
    const message = `period=${period.slice(0, 20)} is not a month (YYYY-MM, e.g. 2026-10).`;
    throw validationError([{ field: "period", code: "validation.fieldFormatInvalid", message }], "validation.fieldFormatInvalid", message);
  }
  return period;
}

/** Closes (`close`) or reopens (`reopen`) a month, as `operator` (the command audits it with the reason: lib/operations/commands/finance.ts). */
export async function changePeriod(
  tx: Tx,
  input: { period: string; trigger: PeriodTrigger; operator: Operator; now: Date },
): Promise<{ row: PeriodRow; before: string }> {
  const period = checkPeriod(input.period);
  if (input.trigger === "close") refuseUnended(period, input.now);
  const [current] = await tx.select().from(ledgerPeriods).where(eq(ledgerPeriods.period, period)).for("update");
  const next = periodMachine.next(current?.state ?? NONE, input.trigger).to;
  const values = { period, state: next, changedBy: input.operator.id, changedAt: input.now };
  const [row] = current
    ? await tx.update(ledgerPeriods).set(values).where(eq(ledgerPeriods.period, period)).returning()
    : await tx.insert(ledgerPeriods).values(values).returning();
  return { row, before: current?.state ?? "OPEN" };
}

/**
 * A month is closed once it is over: the running month, or one to come, is
 * refused with its own code, so the console says why instead of "already decided".
 */
function refuseUnended(period: string, now: Date): void {
  const { from, to } = periodBounds(period);
  if (to <= now) return;
  const last = new Date(to.getTime() - 86_400_000).toISOString().slice(0, 10);
  const when = from <= now ? `is the running month (it ends with ${last}, UTC)` : `has not begun`;
  throw new DomainError("ledgerPeriod.notEnded", {
    message: `${period} ${when}: a month is closed once it is over. The last month that ended is ${lastMonth(now)}.`,
    details: { period, endsAt: to.toISOString() },
  });
}

/** The months that were ever closed (and their state now), newest first. */
export async function listPeriods(db: Executor): Promise<PeriodRow[]> {
  return db.select().from(ledgerPeriods).orderBy(desc(ledgerPeriods.period));
}
