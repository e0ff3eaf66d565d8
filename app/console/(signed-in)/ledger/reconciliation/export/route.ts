import { dailyReconciliation } from "@/lib/finance/books/bank-reconciliation";
import { csv } from "@/lib/finance/books/gl-export";
import { clock } from "@/lib/platform/clock";
import { exportFileName } from "@/lib/operations/console/export-range";
import { requireOperator } from "@/lib/operations/console/session";
import { fromMinor } from "@/lib/finance/ledger";
import { ready } from "@/lib/platform/ready";

const HEADER = [
  "date",
  "account",
  "ledger_account",
  "currency",
  "statement",
  "statement_created_at",
  "statement_balance",
  "ledger_balance",
  "difference",
  "status",
  "superseded_by",
  "age_days",
  "explanation",
];

/** GET /console/ledger/reconciliation/export: the daily bank reconciliation report as CSV. Admin only. */
export async function GET(): Promise<Response> {
  await requireOperator("admin");
  const now = clock.now();
  const lines = await dailyReconciliation(await ready(), now, 5000);
  const body = csv(
    HEADER,
    lines.map((l) => [
      l.date,
      l.account,
      l.ledgerAccount,
      l.currency,
      l.statementId,
      l.statementCreatedAt?.toISOString() ?? "",
      fromMinor(l.statementMinor, l.currency),
      fromMinor(l.ledgerMinor, l.currency),
      fromMinor(l.differenceMinor, l.currency),
      l.status,
      l.supersededBy ?? "",
      l.ageDays === null ? "" : String(l.ageDays),
      l.explanation ?? "",
    ]),
  );
  // Named for the statement days it covers (oldest to newest), not the day it was exported.
  const dates = lines.map((l) => l.date).sort();
  const range = dates.length ? { from: new Date(`${dates[0]}T00:00:00Z`), to: new Date(Date.parse(`${dates.at(-1)}T00:00:00Z`) + 86_400_000) } : {};
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName("bank-reconciliation", range, now)}"`,
      "cache-control": "no-store",
    },
  });
}
