import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { ledgerPeriods } from "@/db/schema";

/** The accounting period (calendar month, UTC) a moment falls in: `2026-10`. */
export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isPeriod(value: string): boolean {
  return PERIOD.test(value);
}

/** A period's first instant and the next period's (exclusive end), UTC. */
export function periodBounds(period: string): { from: Date; to: Date } {
  const m = PERIOD.exec(period);
  if (!m) throw new RangeError(`Not a period (YYYY-MM): ${period}`);
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  return { from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) };
}

/** Whether the month of `at` is closed (a posting dated then is refused). */
export async function isPeriodClosed(db: Executor, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ period: ledgerPeriods.period })
    .from(ledgerPeriods)
    .where(and(eq(ledgerPeriods.period, periodOf(at)), eq(ledgerPeriods.state, "CLOSED")));
  return row !== undefined;
}

/** isPeriodClosed as a boolean expression, for a statement that asks it beside its writes. */
export function closedSql(at: Date): SQL {
  return sql`exists (select 1 from ${ledgerPeriods} where ${and(eq(ledgerPeriods.period, periodOf(at)), eq(ledgerPeriods.state, "CLOSED"))})`;
}
