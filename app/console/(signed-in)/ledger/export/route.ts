import { requireOperator } from "@/lib/console/session";
import { clock } from "@/lib/clock";
import { parseExportRange, type ExportRange } from "@/lib/console/export-range";
import { DomainError } from "@/lib/errors";
import { consoleErrorResponse } from "@/lib/http/request-guard";
import { fromMinor, journalLinesBetween } from "@/lib/ledger";
import { ready } from "@/lib/platform/ready";

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const HEADER = ["entry_id", "posted_at", "kind", "transfer_id", "account", "currency", "debit", "credit"];

/**
 * GET /console/ledger/export: every journal line for accountants, in posting order, amounts as
 * decimal strings in the currency's minor unit (an empty side is 0). Optional ?from=&to= (dates
 * or RFC 3339 times, to exclusive; anything else is a 400 page naming the parameter). Admin only,
 * like the ledger page.
 */
export async function GET(request: Request): Promise<Response> {
  await requireOperator("admin");
  let range: ExportRange;
  try {
    range = parseExportRange(new URL(request.url).searchParams);
  } catch (err) {
    if (err instanceof DomainError) return consoleErrorResponse(err);
    throw err;
  }
  const lines = await journalLinesBetween(await ready(), range);
  const rows = lines.map((l) =>
    [
      l.entryId,
      l.createdAt.toISOString(),
      l.kind,
      l.accountTransferId ?? l.entryTransferId ?? "",
      l.account,
      l.currency,
      fromMinor(l.debit, l.currency),
      fromMinor(l.credit, l.currency),
    ]
      .map(field)
      .join(","),
  );
  const body = [HEADER.join(","), ...rows].join("\r\n") + "\r\n";
  const stamp = clock.now().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="journal-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
