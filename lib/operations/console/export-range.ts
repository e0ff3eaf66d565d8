import { z } from "zod";
import { validationError } from "@/lib/platform/errors";
import { isPeriod, periodBounds, periodOf } from "@/lib/finance";

/**
 * `?from=&to=` of the console's ledger export: each a date (`2026-11-01`,
 * midnight UTC) or an RFC 3339 time with its offset (`2026-11-01T09:30:00Z`); `to` is exclusive
 * and must come after `from`. Anything else is refused with a message naming the parameter, never
 * ignored (before, `?from=yesterday` exported every line as if no range had been asked).
 */
const instant = z.union([z.iso.date().transform((d) => new Date(`${d}T00:00:00Z`)), z.iso.datetime({ offset: true }).transform((t) => new Date(t))]);

export interface ExportRange {
  from?: Date;
  to?: Date;
}

/**
 * `?period=2026-10` is the month, from its first day to the next month's
 * (UTC); it cannot be combined with from/to.
 */
export function parseExportRange(params: URLSearchParams): ExportRange {
  const range: ExportRange = {};
  const issues = [];
  const period = params.get("period");
  if (period !== null && period !== "") {
    if (!isPeriod(period))
      issues.push({ field: "period", code: "validation.fieldFormatInvalid" as const, message: `period=${period.slice(0, 40)} is not a month (2026-10).` });
    else if (params.get("from") || params.get("to"))
      issues.push({ field: "period", code: "validation.fieldInvalid" as const, message: "period cannot be combined with from or to." });
    else return periodBounds(period);
  }
  for (const name of ["from", "to"] as const) {
    const value = params.get(name);
    if (value === null || value === "") continue;
    const parsed = instant.safeParse(value);
    if (parsed.success) range[name] = parsed.data;
    else
      issues.push({
        field: name,
        code: "validation.fieldFormatInvalid" as const,
        message: `${name}=${value.slice(0, 40)} is not a date (2026-11-01) or an RFC 3339 time (2026-11-01T09:30:00Z).`,
      });
  }
  if (issues.length === 0 && range.from && range.to && range.to <= range.from)
    issues.push({ field: "to", code: "validation.fieldInvalid" as const, message: "to must come after from (to is exclusive)." });
  if (issues.length > 0) throw validationError(issues, issues[0].code, issues.map((i) => i.message).join(" "));
  return range;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The name of an export file for the time it covers, not the day it was made:
 * `gl-2026-10.csv` for a calendar month, `gl-2026-10-01_2026-10-14.csv` for days (`to` is
 * exclusive: the last day named is the one before), `gl-2026-10-05.csv` for one day, and
 * `gl-until-2026-11-28.csv` for everything up to `now`.
 */
export function exportFileName(prefix: string, range: ExportRange, now: Date, extension = "csv"): string {
  const { from, to } = range;
  if (from && to) {
    const month = periodOf(from);
    const bounds = periodBounds(month);
    if (bounds.from.getTime() === from.getTime() && bounds.to.getTime() === to.getTime()) return `${prefix}-${month}.${extension}`;
  }
  const last = day(to ? new Date(to.getTime() - 1) : now);
  if (!from) return `${prefix}-until-${last}.${extension}`;
  const first = day(from);
  return first >= last ? `${prefix}-${first}.${extension}` : `${prefix}-${first}_${last}.${extension}`;
}
