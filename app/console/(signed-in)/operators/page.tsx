import { Badge, Card, danger, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { listOperators } from "@/lib/operations/operators/records";
import { ready } from "@/lib/platform/ready";
import { createOperatorAction, setOperatorEnabledAction } from "./actions";
import { ResetLinkForm } from "./operator-forms";

export const metadata = { title: "Operators · Console" };

export default async function Operators({ searchParams }: { searchParams: SearchParams }) {
  const me = await requireOperator("admin");
  const sp = await searchParams;
  const rows = await listOperators(await ready());
  return (
    <>
      <PageTitle sub="Reviewers work the queues; admins also manage customers, partners and operators; auditors (examiners) read everything and change nothing.">
        Operators
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="New operator">
        <form action={createOperatorAction} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value="/console/operators" />
          <input name="email" type="email" required className={input} placeholder="Email" aria-label="Email" />
          <input name="name" required className={input} placeholder="Name" aria-label="Name" />
          <select name="role" className={input} aria-label="Role">
            <option>reviewer</option>
            <option>admin</option>
            <option>auditor</option>
          </select>
          <input name="password" type="password" required minLength={12} className={input} placeholder="Initial password (12+)" aria-label="Initial password" />
          <button className={primary}>Create</button>
        </form>
      </Card>
      <ul className="space-y-2 text-sm">
        {rows.map((o) => (
          <li key={o.id} data-testid="operator-row" className="rounded border border-slate-200 p-2">
            <p>
              {o.email} · {o.name} · <Badge>{o.role}</Badge>
              {o.disabledAt ? " · disabled" : ""}
            </p>
            <p className="text-slate-600">
              Last sign-in: {o.lastSignInAt ? when(o.lastSignInAt) : "never"} · Two-factor: {o.totpEnrolledAt ? "on" : "off"}
            </p>
            {o.id !== me.id ? (
              <div className="mt-1 flex flex-wrap items-start gap-2">
                <form action={setOperatorEnabledAction}>
                  <input type="hidden" name="operatorId" value={o.id} />
                  <input type="hidden" name="enabled" value={o.disabledAt ? "true" : "false"} />
                  <input type="hidden" name="back" value="/console/operators" />
                  <button className={o.disabledAt ? primary : danger}>{o.disabledAt ? `Enable ${o.email}` : `Disable ${o.email}`}</button>
                </form>
                <ResetLinkForm operatorId={o.id} email={o.email} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
