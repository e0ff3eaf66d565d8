import { generalLedgerCsv } from "@/lib/finance/books/gl-export";
import { clock } from "@/lib/platform/clock";
import { exportFileName, parseExportRange, type ExportRange } from "@/lib/operations/console/export-range";
import { requireOperator } from "@/lib/operations/console/session";
import { DomainError } from "@/lib/platform/errors";
import { consoleErrorResponse } from "@/lib/platform/http/request-guard";
import { ready } from "@/lib/platform/ready";

/**
 * GET /console/ledger/export: the general ledger for accountants (lib/finance/books/gl-export.ts: one row
 * per journal line, a journal-import layout). Optional ?period=YYYY-MM, or ?from=&to= (dates or
 * RFC 3339 times, to exclusive); anything else is a 400 page naming the parameter. Admin only.
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
  const body = await generalLedgerCsv(await ready(), range);
  // Named for the period it covers (gl-2026-10.csv), not the day it was exported.
  const name = exportFileName("gl", range, clock.now());
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}
