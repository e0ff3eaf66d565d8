import { periodOf } from "@/lib/finance/ledger";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `asOf` as the console takes it: a date (`2026-10-31`: the end of that day, UTC) or an RFC 3339
 * time; null for anything else (the page says so and shows now).
 */
export function parseAsOf(value: string): Date | null {
  if (DATE.test(value)) {
    const day = new Date(`${value}T00:00:00Z`);
    // Date is lenient (2026-02-30 is 2 March): the day must read back as written.
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) return null;
    return new Date(day.getTime() + 86_400_000);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The month before `now`'s (the one an accountant closes next). */
export function lastMonth(now: Date): string {
  return periodOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)));
}
