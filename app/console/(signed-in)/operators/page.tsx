import { Badge, Card, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { requireOperator } from "@/lib/console/session";
import { listOperators } from "@/lib/operators/records";
import { ready } from "@/lib/platform/ready";
import { createOperatorAction } from "./actions";

export const metadata = { title: "Operators · Console" };

export default async function Operators({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const rows = await listOperators(await ready());
  return (
    <>
      <PageTitle sub="Reviewers work the queues; admins also manage customers, partners and operators.">Operators</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="New operator">
        <form action={createOperatorAction} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value="/console/operators" />
          <input name="email" type="email" required className={input} placeholder="Email" aria-label="Email" />
          <input name="name" required className={input} placeholder="Name" aria-label="Name" />
          <select name="role" className={input} aria-label="Role">
            <option>reviewer</option>
            <option>admin</option>
          </select>
          <input name="password" type="password" required minLength={12} className={input} placeholder="Initial password (12+)" aria-label="Initial password" />
          <button className={primary}>Create</button>
        </form>
      </Card>
      <ul className="space-y-1 text-sm">
        {rows.map((o) => (
          <li key={o.id}>
            {o.email} · {o.name} · <Badge>{o.role}</Badge>
            {o.disabledAt ? " · disabled" : ""}
          </li>
        ))}
      </ul>
    </>
  );
}
