import Link from "next/link";
import { Badge, Card, CustomerLabel, Empty, Flash, PageTitle, Pager, param, type SearchParams } from "@/components/console/ui";
import { caseInbox, INBOX_FILTERS, today, type InboxFilter } from "@/lib/compliance/cases/queries";
import { clock } from "@/lib/platform/clock";
import { customerName, when } from "@/lib/operations/console/format";
import { pageParam } from "@/lib/operations/console/page-param";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Cases · Console" };

const LABELS: Record<InboxFilter, string> = { open: "Open", mine: "Mine", unassigned: "Unassigned", overdue: "Overdue", closed: "Closed" };

/** The compliance cases inbox: one case per customer, every alert about them inside. */
export default async function CasesInbox({ searchParams }: { searchParams: SearchParams }) {
  const operator = await requireOperator();
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const asked = param(sp, "filter");
  const filter: InboxFilter = INBOX_FILTERS.find((f) => f === asked) ?? "open";
  const now = clock.now();
  const { items, hasMore } = await caseInbox(await ready(), { filter, operatorId: operator.id, now, page });
  return (
    <>
      <PageTitle sub="Every alert on a customer (review rules, monitoring, screening, list hits, holds) opens or joins their case.">Cases</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <nav className="mb-4 flex gap-3 text-sm" aria-label="Case filters">
        {INBOX_FILTERS.map((f) => (
          <Link
            key={f}
            href={`/console/cases?filter=${f}`}
            className={f === filter ? "font-semibold" : "text-blue-700 underline"}
            aria-current={f === filter ? "page" : undefined}
          >
            {LABELS[f]}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? <Empty>No case here.</Empty> : null}
      {items.map(({ c, customerProfile, customerStatus, alerts }) => (
        <Card
          key={c.id}
          title={
            <span className="flex flex-wrap items-center gap-2">
              <Link className="text-blue-700 underline" href={`/console/cases/${c.id}`}>
                <Badge>{c.id}</Badge>
              </Link>
              <Badge>{c.state}</Badge>
              {c.outcome ? <Badge>{c.outcome}</Badge> : null}
              {c.state !== "CLOSED" && c.dueOn < today(now) ? <strong className="text-sm text-red-700">Overdue</strong> : null}
            </span>
          }
        >
          <p className="text-sm text-slate-700" data-testid="case-row">
            <CustomerLabel name={customerName(customerProfile)} id={c.customerId} /> ({customerStatus}) · {alerts} alert(s) · opened {when(c.createdAt)} · due{" "}
            {c.dueOn} · {c.assigneeEmail ? `assigned to ${c.assigneeEmail}` : "unassigned"}
          </p>
        </Card>
      ))}
      <Pager path="/console/cases" page={page} hasMore={hasMore} params={{ filter }} />
    </>
  );
}
