import { clock } from "@/lib/platform/clock";
import { exportFileName, parseExportRange, type ExportRange } from "@/lib/operations/console/export-range";
import { requireOperator } from "@/lib/operations/console/session";
import { DomainError, validationError } from "@/lib/platform/errors";
import { consoleErrorResponse } from "@/lib/platform/http/request-guard";
import { ready } from "@/lib/platform/ready";
import { transactionsBetween, transactionsCsv } from "@/lib/payments/transfers/examiner-export";

/**
 * GET /console/transfers/export: the transactions of a period for an examiner (admins and
 * auditors): ?period=YYYY-MM, or ?from=&to= (to exclusive), and ?format=csv (the default) or json.
 * Parties, amounts, fees, rate, dates, state, screening results and the monitoring outcome
 * (lib/payments/transfers/examiner-export.ts). A bad parameter is a 400 page naming it.
 */
export async function GET(request: Request): Promise<Response> {
  await requireOperator("admin");
  const params = new URL(request.url).searchParams;
  let range: ExportRange;
  let format: "csv" | "json";
  try {
    range = parseExportRange(params);
    const asked = params.get("format") || "csv";
    if (asked !== "csv" && asked !== "json")
      throw validationError(
        [{ field: "format", code: "validation.fieldInvalid", message: "format is csv or json." }],
        "validation.fieldInvalid",
        "format is csv or json.",
      );
    format = asked;
  } catch (err) {
    if (err instanceof DomainError) return consoleErrorResponse(err);
    throw err;
  }
  const rows = await transactionsBetween(await ready(), range);
  const name = exportFileName("transactions", range, clock.now(), format);
  return new Response(
    format === "csv" ? transactionsCsv(rows) : JSON.stringify({ from: range.from ?? null, to: range.to ?? null, transactions: rows }, null, 2),
    {
      headers: {
        "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
      },
    },
  );
}
