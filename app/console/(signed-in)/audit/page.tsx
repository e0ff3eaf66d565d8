import { Empty, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { when } from "@/lib/operations/console/format";
import { pageParam } from "@/lib/operations/console/page-param";
import { PAGE_SIZE } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { listAudit } from "@/lib/operations/operators/audit";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Audit log · Console" };

export default async function Audit({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const q = param(sp, "q") ?? "";
  const action = param(sp, "action") ?? "";
  const rows = await listAudit(await ready(), { q: q || undefined, action: action || undefined, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  return (
    <>
      <PageTitle sub="Every operator action: who, when, what, before and after, why. Append-only.">Audit log</PageTitle>
      <form className="mb-4 flex flex-wrap gap-2" role="search" method="get">
        <input name="q" defaultValue={q} className={input} placeholder="Operator email or target id" aria-label="Operator or target" />
        <input name="action" defaultValue={action} className={input} placeholder="Action, e.g. transfer.review.approve" aria-label="Action" />
        <button className={primary}>Filter</button>
      </form>
      {rows.length === 0 ? (
        <Empty>No audit entries match.</Empty>
      ) : (
        <div className="overflow-x-auto">
          {/* Fixed columns that wrap (ids and JSON anywhere): the table fits 1280 px without a scrollbar. */}
          <table className="w-full table-fixed border-collapse bg-white text-sm" data-testid="audit-table">
            <colgroup>
              <col className="w-28" />
              <col className="w-36" />
              <col className="w-36" />
              <col className="w-36" />
              <col />
              <col className="w-36" />
            </colgroup>
            <thead>
              <tr className="border-b text-left text-slate-500">
                <th className="p-2">When</th>
                <th className="p-2">Who</th>
                <th className="p-2">Action</th>
                <th className="p-2">Target</th>
                <th className="p-2">Before → after</th>
                <th className="p-2">Reason</th>
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, PAGE_SIZE).map((r) => (
                <tr key={r.id} className="border-b align-top">
                  <td className="p-2">{when(r.at)}</td>
                  <td className="p-2 break-all">{r.operatorEmail}</td>
                  <td className="p-2 font-mono text-xs break-all">{r.action}</td>
                  <td className="p-2 font-mono text-xs break-all">
                    {r.targetType}:{r.targetId}
                  </td>
                  <td className="p-2 font-mono text-xs break-all">
                    {JSON.stringify(r.before)} → {JSON.stringify(r.after)}
                  </td>
                  <td className="p-2 break-words">{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager path="/console/audit" page={page} hasMore={rows.length > PAGE_SIZE} params={{ ...(q ? { q } : {}), ...(action ? { action } : {}) }} />
    </>
  );
}
