import { reportCsv, reportJson } from "@/lib/compliance/cases/reports";
import { reportOfCase } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";

/**
 * GET /console/cases/<caseId>/report?format=json|csv: the case's suspicious-activity report for
 * filing, as one JSON document or one CSV row with its header. Reviewers and
 * admins, like the case page.
 */
export async function GET(request: Request, { params }: { params: Promise<{ caseId: string }> }): Promise<Response> {
  await requireOperator("reviewer");
  const { caseId } = await params;
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv") return new Response("format must be json or csv\n", { status: 400, headers: { "content-type": "text/plain" } });
  const report = await reportOfCase(await ready(), caseId);
  if (!report) return new Response("No report for this case\n", { status: 404, headers: { "content-type": "text/plain" } });
  const body = format === "json" ? JSON.stringify(reportJson(report), null, 2) + "\n" : reportCsv(report);
  return new Response(body, {
    headers: {
      "content-type": format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${report.id}.${format}"`,
      "cache-control": "no-store",
    },
  });
}
