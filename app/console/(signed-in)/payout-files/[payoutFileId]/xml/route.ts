import { requireOperator } from "@/lib/operations/console/session";
import { readPayoutFile } from "@/lib/payments/payouts/generate";
import { ready } from "@/lib/platform/ready";

export const dynamic = "force-dynamic";

/**
 * GET /console/payout-files/{payoutFileId}/xml: the pain.001 file as sent to the bank, for admins
 * only (it holds beneficiaries' full account numbers). Never cached; downloaded, never rendered.
 */
export async function GET(_req: Request, ctx: { params: Promise<{ payoutFileId: string }> }): Promise<Response> {
  await requireOperator("admin");
  const { payoutFileId } = await ctx.params;
  const file = await readPayoutFile(await ready(), payoutFileId);
  const headers = { "cache-control": "no-store, private", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };
  if (!file) return new Response("Not found", { status: 404, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
  return new Response(file.xml, {
    status: 200,
    headers: { ...headers, "content-type": "application/xml; charset=utf-8", "content-disposition": `attachment; filename="${file.row.fileName}"` },
  });
}
