import { requireOperator } from "@/lib/operations/console/session";
import { exportVersion } from "@/lib/payments/corridors/versions";
import { ready } from "@/lib/platform/ready";

/** GET /console/configuration/:version/export: one configuration version as JSON, for another environment's import. Admin only. */
export async function GET(_request: Request, { params }: { params: Promise<{ version: string }> }): Promise<Response> {
  await requireOperator("admin");
  const { version } = await params;
  const exported = /^\d{1,9}$/.test(version) ? await exportVersion(await ready(), Number(version)) : undefined;
  if (!exported) return new Response("No such version.", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(`${JSON.stringify(exported, null, 2)}\n`, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="configuration-v${exported.version}.json"`,
      "cache-control": "no-store",
    },
  });
}
