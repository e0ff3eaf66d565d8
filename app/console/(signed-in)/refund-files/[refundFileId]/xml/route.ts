import { requireOperator } from "@/lib/operations/console/session";
import { readRefundFile } from "@/lib/payments/payouts/refund-file";
import { ready } from "@/lib/platform/ready";

export const dynamic = "force-dynamic";

/**
 * GET /console/refund-files/{refundFileId}/xml: the pain.001 refund file to send to the collection
 * account's bank, for admins only (it holds payers' whole IBANs). Never cached; downloaded, never rendered.
 */
export async function GET(_req: Request, ctx: { params: Promise<{ refundFileId: string }> }): Promise<Response> {
  await requireOperator("admin");
  const { refundFileId } = await ctx.params;
  const file = await readRefundFile(await ready(), refundFileId);
  const headers = { "cache-control": "no-store, private", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };
  if (!file) return new Response("Not found", { status: 404, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
  return new Response(file.xml, {
    status: 200,
    headers: { ...headers, "content-type": "application/xml; charset=utf-8", "content-disposition": `attachment; filename="${file.row.fileName}"` },
  });
}
